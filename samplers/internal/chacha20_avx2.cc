// The AVX2 path of chacha20.h: eight blocks at a time, one block per 32-bit lane (state word j of
// the eight blocks in vector j), transposed to block order on the way out. Compiled for AVX2 by
// function target attributes only; chacha20.cc calls it when the CPU has AVX2.
#include <exactdp/samplers/internal/chacha20.h>

#include <immintrin.h>

#define EXACTDP_AVX2 __attribute__((target("avx2"), always_inline)) inline
#define EXACTDP_CHACHA20_INLINE EXACTDP_AVX2
#include <exactdp/samplers/internal/chacha20_rounds.h>

namespace exactdp::internal {
namespace {

// The word operations of chacha20_rounds.h on eight lanes; the 16- and 8-bit rotations are byte
// shuffles.
struct Avx2Ops {
  __m256i rot16, rot8;  // the shuffles' byte orders

  EXACTDP_AVX2 static __m256i add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
  EXACTDP_AVX2 static __m256i bit_xor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
  template <int kLeft>
  EXACTDP_AVX2 __m256i rotl(__m256i v) const {
    if constexpr (kLeft == 16) {
      return _mm256_shuffle_epi8(v, rot16);
    } else if constexpr (kLeft == 8) {
      return _mm256_shuffle_epi8(v, rot8);
    } else {
      return _mm256_or_si256(_mm256_slli_epi32(v, kLeft), _mm256_srli_epi32(v, 32 - kLeft));
    }
  }
};

// x[0..7] hold words w..w+7 of blocks 0..7 (block i in lane i); stores block i's eight words
// at out + 64 i.
EXACTDP_AVX2 void transpose_store(const __m256i* x, unsigned char* out) {
  const __m256i t0 = _mm256_unpacklo_epi32(x[0], x[1]), t1 = _mm256_unpackhi_epi32(x[0], x[1]);
  const __m256i t2 = _mm256_unpacklo_epi32(x[2], x[3]), t3 = _mm256_unpackhi_epi32(x[2], x[3]);
  const __m256i t4 = _mm256_unpacklo_epi32(x[4], x[5]), t5 = _mm256_unpackhi_epi32(x[4], x[5]);
  const __m256i t6 = _mm256_unpacklo_epi32(x[6], x[7]), t7 = _mm256_unpackhi_epi32(x[6], x[7]);
  // u[r] (r < 4): words w..w+3 of block r in the low half, of block r + 4 in the high half;
  // u[4 + r]: words w+4..w+7 likewise.
  const __m256i u[8] = {_mm256_unpacklo_epi64(t0, t2), _mm256_unpackhi_epi64(t0, t2),
                        _mm256_unpacklo_epi64(t1, t3), _mm256_unpackhi_epi64(t1, t3),
                        _mm256_unpacklo_epi64(t4, t6), _mm256_unpackhi_epi64(t4, t6),
                        _mm256_unpacklo_epi64(t5, t7), _mm256_unpackhi_epi64(t5, t7)};
  for (int r = 0; r < 4; ++r) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 64 * r),
                        _mm256_permute2x128_si256(u[r], u[4 + r], 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 64 * (r + 4)),
                        _mm256_permute2x128_si256(u[r], u[4 + r], 0x31));
  }
}

}  // namespace

__attribute__((target("avx2"))) void chacha20_blocks_avx2(std::uint32_t* state, unsigned char* out,
                                                           std::size_t blocks) noexcept {
  const Avx2Ops ops{_mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5,
                                     10, 11, 8, 9, 14, 15, 12, 13),
                    _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6,
                                     11, 8, 9, 10, 15, 12, 13, 14)};
  for (; blocks >= 8; blocks -= 8, out += 512) {
    alignas(32) std::uint32_t counter[2][8];  // words 12 and 13 of the eight blocks (public)
    const std::uint64_t first = std::uint64_t{state[13]} << 32 | state[12];
    for (int i = 0; i < 8; ++i) {
      counter[0][i] = static_cast<std::uint32_t>(first + static_cast<std::uint64_t>(i));
      counter[1][i] = static_cast<std::uint32_t>((first + static_cast<std::uint64_t>(i)) >> 32);
    }
    // The input words are re-read at the end (broadcasts, the counters from memory) rather than
    // kept in registers: the sixteen state vectors need them.
    __m256i x[16];
    for (int j = 0; j < 16; ++j) x[j] = _mm256_set1_epi32(static_cast<int>(state[j]));
    x[12] = _mm256_load_si256(reinterpret_cast<const __m256i*>(counter[0]));
    x[13] = _mm256_load_si256(reinterpret_cast<const __m256i*>(counter[1]));
    chacha20_rounds::twenty_rounds(ops, x);
    for (int j = 0; j < 16; ++j) {
      const __m256i input = j == 12 ? _mm256_load_si256(reinterpret_cast<const __m256i*>(counter[0])) : j == 13 ? _mm256_load_si256(reinterpret_cast<const __m256i*>(counter[1]))
                                    : _mm256_set1_epi32(static_cast<int>(state[j]));
      x[j] = _mm256_add_epi32(x[j], input);
    }
    transpose_store(x, out);
    transpose_store(x + 8, out + 32);
    chacha20_advance(state, 8);
  }
}

}  // namespace exactdp::internal
