// The AVX-512F path of chacha20.h: sixteen blocks at a time, one block per 32-bit lane (state
// word j of the sixteen blocks in vector j), transposed to block order on the way out. Compiled
// for AVX-512F by function target attributes only; chacha20.cc calls it when the CPU has it.
#include <exactdp/samplers/internal/chacha20.h>

// GCC 12's AVX-512 intrinsics start their results from a self-initialised "undefined" vector
// that -Wmaybe-uninitialized reports once inlined; the warning is off for this file's intrinsics.
#if defined(__GNUC__) && !defined(__clang__)  // clang has no such warning (and rejects the name)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#define EXACTDP_AVX512 __attribute__((target("avx512f"), always_inline)) inline
#define EXACTDP_CHACHA20_INLINE EXACTDP_AVX512
#include <exactdp/samplers/internal/chacha20_rounds.h>

namespace exactdp::internal {
namespace {

// The word operations of chacha20_rounds.h on sixteen lanes; every rotation one vprold.
struct Avx512Ops {
  EXACTDP_AVX512 static __m512i add(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
  EXACTDP_AVX512 static __m512i bit_xor(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
  template <int kLeft>
  EXACTDP_AVX512 static __m512i rotl(__m512i v) { return _mm512_rol_epi32(v, kLeft); }
};

// x[j] holds word j of blocks 0..15 (block i in lane i); stores block i at out + 64 i.
EXACTDP_AVX512 void transpose_store(const __m512i* x, unsigned char* out) {
  __m512i t[16], u[16];
  for (int k = 0; k < 8; ++k) {
    t[2 * k] = _mm512_unpacklo_epi32(x[2 * k], x[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_epi32(x[2 * k], x[2 * k + 1]);
  }
  // u[4m + r], 128-bit lane q: words 4m..4m+3 of block 4q + r.
  for (int m = 0; m < 4; ++m) {
    u[4 * m] = _mm512_unpacklo_epi64(t[4 * m], t[4 * m + 2]);
    u[4 * m + 1] = _mm512_unpackhi_epi64(t[4 * m], t[4 * m + 2]);
    u[4 * m + 2] = _mm512_unpacklo_epi64(t[4 * m + 1], t[4 * m + 3]);
    u[4 * m + 3] = _mm512_unpackhi_epi64(t[4 * m + 1], t[4 * m + 3]);
  }
  // Block 4q + r is lane q of u[r], u[4 + r], u[8 + r], u[12 + r]: a 4x4 transpose of lanes.
  for (int r = 0; r < 4; ++r) {
    const __m512i ab_low = _mm512_shuffle_i32x4(u[r], u[4 + r], 0x44);  // a0 a1 b0 b1
    const __m512i ab_high = _mm512_shuffle_i32x4(u[r], u[4 + r], 0xEE);  // a2 a3 b2 b3
    const __m512i cd_low = _mm512_shuffle_i32x4(u[8 + r], u[12 + r], 0x44);
    const __m512i cd_high = _mm512_shuffle_i32x4(u[8 + r], u[12 + r], 0xEE);
    _mm512_storeu_si512(out + 64 * r, _mm512_shuffle_i32x4(ab_low, cd_low, 0x88));
    _mm512_storeu_si512(out + 64 * (4 + r), _mm512_shuffle_i32x4(ab_low, cd_low, 0xDD));
    _mm512_storeu_si512(out + 64 * (8 + r), _mm512_shuffle_i32x4(ab_high, cd_high, 0x88));
    _mm512_storeu_si512(out + 64 * (12 + r), _mm512_shuffle_i32x4(ab_high, cd_high, 0xDD));
  }
}

}  // namespace

__attribute__((target("avx512f"))) void chacha20_blocks_avx512(std::uint32_t* state, unsigned char* out,
                                                                std::size_t blocks) noexcept {
  for (; blocks >= 16; blocks -= 16, out += 1024) {
    alignas(64) std::uint32_t counter[2][16];  // words 12 and 13 of the sixteen blocks (public)
    const std::uint64_t first = std::uint64_t{state[13]} << 32 | state[12];
    for (int i = 0; i < 16; ++i) {
      counter[0][i] = static_cast<std::uint32_t>(first + static_cast<std::uint64_t>(i));
      counter[1][i] = static_cast<std::uint32_t>((first + static_cast<std::uint64_t>(i)) >> 32);
    }
    // The input words are re-read at the end (broadcasts, the counters from memory) rather than
    // kept in registers: the sixteen state vectors need them.
    __m512i x[16];
    for (int j = 0; j < 16; ++j) x[j] = _mm512_set1_epi32(static_cast<int>(state[j]));
    x[12] = _mm512_load_si512(counter[0]);
    x[13] = _mm512_load_si512(counter[1]);
    chacha20_rounds::twenty_rounds(Avx512Ops{}, x);
    for (int j = 0; j < 16; ++j) {
      const __m512i input = j == 12 ? _mm512_load_si512(counter[0]) : j == 13 ? _mm512_load_si512(counter[1])
                                    : _mm512_set1_epi32(static_cast<int>(state[j]));
      x[j] = _mm512_add_epi32(x[j], input);
    }
    transpose_store(x, out);
    chacha20_advance(state, 16);
  }
}

}  // namespace exactdp::internal

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
