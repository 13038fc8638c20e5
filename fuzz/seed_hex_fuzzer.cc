// seed_hex_fuzzer — parse_seed_hex (the --seed reader of `exactdp sample` / `audit`) against
// libsodium's sodium_hex2bin, and the SeededBits stream it keys against libsodium's ChaCha20.
//
// The fuzz input is the --seed text. Invariants:
//   * parse_seed_hex accepts exactly the texts that are 64 hex digits (sodium_hex2bin decodes
//     them to 32 bytes consuming the whole text) and returns those bytes; anything else throws
//     ParameterError naming the parameter, with a short message;
//   * for an accepted seed, SeededBits(seed) yields the ChaCha20-IETF keystream under that key
//     (nonce 0, block 0 onwards) bit for bit, and SeededBits(seed, 2^32 - 1) yields block 2^32 - 1
//     of nonce 0 followed by block 0 of nonce 1 (the documented counter hand-over);
//   * bits_consumed() counts exactly the bits handed out.
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

// Reads n bytes from the source as 64-bit words (most significant byte first).
void read_bytes(exactdp::BitSource& bits, unsigned char* out, std::size_t n) {
  for (std::size_t i = 0; i < n; i += 8) {
    const std::uint64_t w = bits.bits(64);
    for (int j = 0; j < 8; ++j) out[i + j] = static_cast<unsigned char>(w >> (56 - 8 * j));
  }
}

void keystream(const exactdp::Seed& key, std::uint64_t nonce_index, std::uint32_t counter,
               unsigned char* out, std::size_t n) {
  unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0};
  for (int i = 0; i < 8; ++i) nonce[i] = static_cast<unsigned char>(nonce_index >> (8 * i));
  std::memset(out, 0, n);
  crypto_stream_chacha20_ietf_xor_ic(out, out, n, nonce, counter, key.data());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  exactdp::fuzz::init_sodium_once();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  unsigned char expected[32];
  std::size_t decoded = 0;
  const char* end = nullptr;
  const bool valid = size == 64 &&
                     sodium_hex2bin(expected, sizeof expected, text.data(), text.size(), nullptr,
                                    &decoded, &end) == 0 &&
                     decoded == 32 && end == text.data() + text.size();
  exactdp::Seed seed{};
  try {
    seed = exactdp::parse_seed_hex("seed", text);
  } catch (const exactdp::ParameterError& e) {
    FUZZ_CHECK(!valid, "parse_seed_hex refused valid hex: %s", e.what());
    FUZZ_CHECK(e.parameter() == "seed", "error names '%s'", e.parameter().c_str());
    FUZZ_CHECK(std::string(e.what()).size() < 300, "long error message");
    return 0;
  }
  FUZZ_CHECK(valid, "parse_seed_hex accepted '%s'", exactdp::abbreviate(text).c_str());
  FUZZ_CHECK(std::memcmp(seed.data(), expected, 32) == 0, "parse_seed_hex decoded different bytes");

  unsigned char got[192], want[192];
  {
    exactdp::SeededBits bits(seed);
    read_bytes(bits, got, sizeof got);
    keystream(seed, 0, 0, want, sizeof want);
    FUZZ_CHECK(std::memcmp(got, want, sizeof got) == 0, "SeededBits differs from ChaCha20-IETF");
    FUZZ_CHECK(bits.bits_consumed() == 8 * sizeof got, "bits_consumed() = %llu",
               static_cast<unsigned long long>(bits.bits_consumed()));
  }
  {
    const exactdp::uint128 last = (exactdp::uint128{1} << 32) - 1;
    exactdp::SeededBits bits(seed, last);
    read_bytes(bits, got, 128);
    keystream(seed, 0, 0xffffffffU, want, 64);
    keystream(seed, 1, 0, want + 64, 64);
    FUZZ_CHECK(std::memcmp(got, want, 128) == 0, "SeededBits counter hand-over differs");
  }
  return 0;
}
