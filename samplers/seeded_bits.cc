#include <exactdp/samplers/seeded_bits.h>

#include <sodium.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/internal/chacha20.h>
#include <exactdp/samplers/internal/secret_page.h>
#include <exactdp/core/rational.h>

namespace exactdp {
namespace {

constexpr std::size_t kBlockBytes = 64;
constexpr uint128 kBlocksPerNonce = static_cast<uint128>(1) << 32;
// Keystream is made 16 blocks at a time (one pass of the AVX-512 path) and handed to the bit
// buffer in refills of BitBufferState::kBufferBytes.
constexpr std::size_t kStreamBytes = 16 * kBlockBytes;
static_assert(kStreamBytes % BitBufferState::kBufferBytes == 0);

// The layout of the secret page: the buffer state first (alignment), the made but not yet handed
// out keystream, then the key. All zero is a fresh source: empty buffer, nothing made.
struct SeededState {
  BitBufferState buffer;
  alignas(64) unsigned char stream[kStreamBytes];
  std::size_t stream_left;  // the last stream_left bytes of `stream` are not yet handed out
  unsigned char key[32];
};
static_assert(sizeof(SeededState) <= 4096, "one page");

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Seed parse_seed_hex(std::string_view parameter, std::string_view hex) {
  if (hex.size() != 64) {
    throw ParameterError(std::string(parameter),
                         std::string(parameter) + ": expected exactly 64 hex digits (32 bytes), got " +
                             std::to_string(hex.size()) + " characters");
  }
  Seed seed{};
  for (std::size_t i = 0; i < 32; ++i) {
    const int hi = hex_value(hex[2 * i]);
    const int lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      throw ParameterError(std::string(parameter),
                           std::string(parameter) + ": '" + abbreviate(hex) +
                               "' is not hexadecimal: allowed 64 digits 0-9, a-f");
    }
    seed[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  return seed;
}

SeededBits::SeededBits(const Seed& seed) : SeededBits(seed, 0) {}

SeededBits::SeededBits(const Seed& seed, uint128 start_block)
    : BitSource(nullptr), next_block_(start_block) {
  if (sodium_init() < 0) {
    std::fputs("exactdp: fatal: libsodium could not be initialised\n", stderr);
    std::abort();
  }
  page_ = std::make_unique<internal::SecretPage>(sizeof(SeededState));  // zeroed: empty buffer
  auto* st = static_cast<SeededState*>(page_->data());
  std::memcpy(st->key, seed.data(), seed.size());
  key_ = st->key;
  state_ = &st->buffer;
}

SeededBits::~SeededBits() {
  sodium_memzero(page_->data(), sizeof(SeededState));
  key_ = nullptr;
  state_ = nullptr;
  page_.reset();  // wipes the page, munlock, munmap
}

void SeededBits::seek(uint128 start_block) {
  auto* st = static_cast<SeededState*>(page_->data());
  sodium_memzero(st, offsetof(SeededState, key));  // all zero: empty buffer, nothing made
  next_block_ = start_block;
}

bool SeededBits::memory_locked() const noexcept { return page_->locked(); }
bool SeededBits::dump_excluded() const noexcept { return page_->dump_excluded(); }

void SeededBits::refill(unsigned char* out, std::size_t n) {
  auto* st = static_cast<SeededState*>(page_->data());
  while (n > 0) {
    if (st->stream_left == 0) make_stream();
    const std::size_t take = std::min(n, st->stream_left);
    std::memcpy(out, st->stream + (kStreamBytes - st->stream_left), take);
    st->stream_left -= take;
    out += take;
    n -= take;
  }
}

void SeededBits::make_stream() {
  // kStreamBytes of keystream from block next_block_ on, in whole blocks, switching nonce when
  // the 32-bit block counter of the current nonce is used up.
  auto* st = static_cast<SeededState*>(page_->data());
  std::size_t done = 0;
  while (done < kStreamBytes) {
    const uint128 nonce_index = next_block_ / kBlocksPerNonce;
    const auto counter = static_cast<std::uint32_t>(next_block_ % kBlocksPerNonce);
    unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0};
    uint128 v = nonce_index;
    for (std::size_t i = 0; i < sizeof nonce; ++i) {  // 96-bit little-endian nonce counter
      nonce[i] = static_cast<unsigned char>(v & 0xff);
      v >>= 8;
    }
    // Blocks left under this nonce before the counter would wrap.
    const uint128 left = kBlocksPerNonce - counter;
    std::size_t blocks = (kStreamBytes - done) / kBlockBytes;
    if (static_cast<uint128>(blocks) > left) blocks = static_cast<std::size_t>(left);
    internal::chacha20_keystream(st->stream + done, blocks * kBlockBytes, nonce, counter, key_);
    done += blocks * kBlockBytes;
    next_block_ += blocks;
  }
  st->stream_left = kStreamBytes;
}

}  // namespace exactdp
