#include <exactdp/samplers/internal/chacha20.h>
#include <exactdp/core/cpu_level.h>

#include <sodium.h>

#include <bit>
#include <cstring>

#define EXACTDP_CHACHA20_INLINE __attribute__((always_inline)) inline
#include <exactdp/samplers/internal/chacha20_rounds.h>

namespace exactdp::internal {
namespace {

constexpr std::size_t kBlockBytes = 64;

std::uint32_t load_le32(const unsigned char* p) noexcept {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

void store_le32(unsigned char* p, std::uint32_t v) noexcept {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

// The word operations of chacha20_rounds.h on one block's words.
struct ScalarOps {
  static std::uint32_t add(std::uint32_t a, std::uint32_t b) noexcept { return a + b; }
  static std::uint32_t bit_xor(std::uint32_t a, std::uint32_t b) noexcept { return a ^ b; }
  template <int kLeft>
  static std::uint32_t rotl(std::uint32_t v) noexcept {
    return std::rotl(v, kLeft);
  }
};

// The input state (RFC 8439 section 2.3): "expand 32-byte k", the key, counter, nonce.
void initial_state(std::uint32_t* state, const unsigned char* key, const unsigned char* nonce,
                   std::uint32_t counter) noexcept {
  state[0] = 0x61707865;
  state[1] = 0x3320646e;
  state[2] = 0x79622d32;
  state[3] = 0x6b206574;
  for (int i = 0; i < 8; ++i) state[4 + i] = load_le32(key + 4 * i);
  state[12] = counter;
  for (int i = 0; i < 3; ++i) state[13 + i] = load_le32(nonce + 4 * i);
}

bool cpu_has_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0 && cpu_level_allows(CpuLevel::kAvx2);
}

bool cpu_has_avx512() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0 && cpu_level_allows(CpuLevel::kAvx512);
}

}  // namespace

void chacha20_blocks_scalar(std::uint32_t* state, unsigned char* out, std::size_t blocks) noexcept {
  for (std::size_t b = 0; b < blocks; ++b, out += kBlockBytes) {
    std::uint32_t x[16];
    std::memcpy(x, state, sizeof x);
    chacha20_rounds::twenty_rounds(ScalarOps{}, x);
    for (int i = 0; i < 16; ++i) store_le32(out + 4 * i, x[i] + state[i]);
    sodium_memzero(x, sizeof x);
    chacha20_advance(state, 1);
  }
}

bool chacha20_path_available(ChaCha20Path path) noexcept {
  static const bool avx2 = cpu_has_avx2();
  static const bool avx512 = cpu_has_avx512();
  switch (path) {
    case ChaCha20Path::kScalar: return true;
    case ChaCha20Path::kVec128: return true;
    case ChaCha20Path::kAvx2: return avx2;
    case ChaCha20Path::kAvx512: return avx512;
  }
  return false;
}

ChaCha20Path chacha20_fastest_path() noexcept {
  static const ChaCha20Path fastest = chacha20_path_available(ChaCha20Path::kAvx512) ? ChaCha20Path::kAvx512
                                      : chacha20_path_available(ChaCha20Path::kAvx2) ? ChaCha20Path::kAvx2
                                                                                     : ChaCha20Path::kVec128;
  return fastest;
}

const char* chacha20_path_name(ChaCha20Path path) noexcept {
  switch (path) {
    case ChaCha20Path::kScalar: return "scalar";
    case ChaCha20Path::kVec128: return "vec128";
    case ChaCha20Path::kAvx2: return "avx2";
    case ChaCha20Path::kAvx512: return "avx512";
  }
  return "unknown";
}

void chacha20_keystream(unsigned char* out, std::size_t len, const unsigned char* nonce,
                        std::uint32_t counter, const unsigned char* key, ChaCha20Path path) noexcept {
  if (!chacha20_path_available(path)) path = ChaCha20Path::kScalar;
  std::uint32_t state[16];
  initial_state(state, key, nonce, counter);
  std::size_t blocks = len / kBlockBytes;
  // The widest pass the path allows first, each narrower available one on what is left, the last
  // 0..3 blocks one at a time.
  const auto pass = [&](ChaCha20Path width, std::size_t per_pass, auto* block_function) {
    if (path < width || !chacha20_path_available(width) || blocks < per_pass) return;
    const std::size_t n = blocks - blocks % per_pass;
    block_function(state, out, n);
    out += n * kBlockBytes;
    blocks -= n;
  };
  pass(ChaCha20Path::kAvx512, 16, chacha20_blocks_avx512);
  pass(ChaCha20Path::kAvx2, 8, chacha20_blocks_avx2);
  pass(ChaCha20Path::kVec128, 4, chacha20_blocks_vec128);
  if (blocks != 0) chacha20_blocks_scalar(state, out, blocks);  // none left: skip its register saves
  out += blocks * kBlockBytes;
  if (const std::size_t tail = len % kBlockBytes; tail != 0) {
    unsigned char last[kBlockBytes];
    chacha20_blocks_scalar(state, last, 1);
    std::memcpy(out, last, tail);
    sodium_memzero(last, sizeof last);
  }
  sodium_memzero(state, sizeof state);
}

}  // namespace exactdp::internal
