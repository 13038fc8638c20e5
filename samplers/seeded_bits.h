// seeded_bits.h — SeededBits: a reproducible BitSource, the ChaCha20 (IETF, RFC 8439) keystream
// under a 32-byte key. FOR TESTS AND AUDITS ONLY: anyone who knows the seed knows the noise
// (SECURITY.md). Never the default anywhere.
//
// The stream: for nonce n = 0, 1, 2, ... (96-bit little-endian counter) and block counter
// b = 0 .. 2^32 - 1, the 64-byte keystream blocks of crypto_stream_chacha20_ietf in that order.
// So the end of one nonce's 32-bit block counter (256 GiB) is defined: the stream continues with
// block 0 of the next nonce; it never repeats within 2^96 * 256 GiB. The same seed gives the same
// stream on every machine: the keystream comes from internal/chacha20.h (AVX-512, AVX2 or scalar,
// chosen at run time), byte for byte libsodium's crypto_stream_chacha20_ietf, which the tests check.
//
// The key, the buffer and the keystream made ahead of the buffer (up to 1 KiB) live in one
// anonymous page that is left out of core dumps (MADV_DONTDUMP) and mlock'ed where
// RLIMIT_MEMLOCK allows (if not, it may be swapped; nothing aborts); all are wiped with
// sodium_memzero on destruction (internal/secret_page.h). Unlike SystemBits the page is NOT wiped
// on fork: a forked child continues the same stream.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>

namespace exactdp {
namespace internal {
class SecretPage;
}  // namespace internal

using Seed = std::array<unsigned char, 32>;

// Parses exactly 64 hex digits (either case); ParameterError naming `parameter` otherwise.
[[nodiscard]] Seed parse_seed_hex(std::string_view parameter, std::string_view hex);

class SeededBits final : public BitSource {
 public:
  explicit SeededBits(const Seed& seed);
  // Starts the stream at 64-byte block `start_block` (block index over all nonces: nonce =
  // start_block / 2^32, counter = start_block % 2^32). Used by tests of the counter wrap.
  SeededBits(const Seed& seed, uint128 start_block);
  ~SeededBits() override;

  // Continues as SeededBits(seed, start_block) would start: the buffered bits are dropped (and
  // wiped) and the stream goes on from 64-byte block `start_block`. bits_consumed() keeps
  // counting. Lets one source serve many substreams without a new secret page each (the grid
  // noise's chunks, mechanisms/grid_noise/grid_noise.h).
  void seek(uint128 start_block);

  // True when the key and buffer page is mlock'ed (false: it may be swapped out).
  [[nodiscard]] bool memory_locked() const noexcept;
  // True when the key and buffer page is marked MADV_DONTDUMP.
  [[nodiscard]] bool dump_excluded() const noexcept;

 protected:
  void refill(unsigned char* out, std::size_t n) override;

 private:
  // Fills the page's keystream stash (16 blocks from next_block_ on).
  void make_stream();

  std::unique_ptr<internal::SecretPage> page_;  // holds the key, the buffer state and the stash
  unsigned char* key_ = nullptr;                // 32 bytes inside page_
  uint128 next_block_;  // next 64-byte block of the stream to make
};

}  // namespace exactdp
