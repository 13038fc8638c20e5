// The AVX-512F group evaluation of fixed_exp52.h, for x86-64 CPUs with AVX-512F and no AVX-512 IFMA
// (Skylake-SP, Cascade Lake; make_fixed_exp52 picks it): fixed_exp52_digits.h's 26-bit-digit
// algorithm (the one of fixed_exp52_avx2.cc) on 512-bit vectors, eight H a vector. This file holds
// the AVX-512F parts: the loads and stores and S_i's select, taken by a two-register permute
// (vpermt2q: the lane choice is an operand, not an address), no masked load. No branch and no
// address depends on H. The same exact integers as the portable group, so the same bits
// (tests/samplers/fixed_exp52_test.cc).
// valgrind does not run AVX-512 (it reports AVX2), so the constant-time test
// (tests/constant_time/ctgrind_probe.cc) runs the AVX2 path, not this file: this one is kept free of
// branches and of addresses that depend on the data by construction.
#include <exactdp/samplers/internal/fixed_exp52.h>
#include <exactdp/core/cpu_level.h>

#if defined(__x86_64__)
#include <immintrin.h>

#define EXACTDP_DIGITS_TARGET "avx512f"
#include <exactdp/samplers/internal/fixed_exp52_digits.h>
#endif

namespace exactdp::internal {

#if defined(__x86_64__)
namespace {

#define EXACTDP_AVX512_INLINE __attribute__((target("avx512f"), always_inline)) inline

using V8 = unsigned long long __attribute__((vector_size(64)));

// Here the zero-masked intrinsics with every lane kept: the plain ones trip GCC 12's -Wuninitialized.
struct Avx512Ops {
  using V = V8;
  static constexpr unsigned kLanes = 8;
  using Planes = __m512i[4][2];  // digit d of S_e at 64-bit lane e mod 8 of planes[d][e / 8]

  EXACTDP_AVX512_INLINE static void load_planes(const FixedExp52& t, Planes& planes) noexcept {
    for (unsigned d = 0; d < 4; ++d) {
      for (unsigned half = 0; half < 2; ++half) planes[d][half] = _mm512_load_si512(t.sixteenth_digits64[d] + 8 * half);
    }
  }

  // The products of the low 32 bits of each lane (digits: exact).
  EXACTDP_AVX512_INLINE static V8 mul(V8 a, V8 b) noexcept {
    return (V8)_mm512_maskz_mul_epu32(0xFF, (__m512i)a, (__m512i)b);  // NOLINT: same-size vector casts
  }

  // The low and high 64-bit words of the eight H at h: the lanes hold H 0, 4, 1, 5, 2, 6, 3, 7
  // (unpack order within 128-bit lanes; store_words puts them back).
  EXACTDP_AVX512_INLINE static void load_words(const uint128* h, V8& low, V8& high) noexcept {
    const __m512i first = _mm512_loadu_si512(h);
    const __m512i second = _mm512_loadu_si512(h + 4);
    low = (V8)_mm512_maskz_unpacklo_epi64(0xFF, first, second);   // NOLINT: same-size vector casts
    high = (V8)_mm512_maskz_unpackhi_epi64(0xFF, first, second);  // NOLINT
  }

  // The two 64-bit words of eight uint128 at out (lanes in load_words' order).
  EXACTDP_AVX512_INLINE static void store_words(V8 low, V8 high, uint128* out) noexcept {
    const __m512i l = (__m512i)low, h = (__m512i)high;  // NOLINT: same-size vector casts
    _mm512_storeu_si512(out, _mm512_maskz_unpacklo_epi64(0xFF, l, h));
    _mm512_storeu_si512(out + 4, _mm512_maskz_unpackhi_epi64(0xFF, l, h));
  }

  // (low + high 2^64) >> e, e = 24 + n in [24, 55], stored as store_words does.
  EXACTDP_AVX512_INLINE static void store_alpha(V8 low, V8 high, V8 n, uint128* out) noexcept {
    const __m512i e = (__m512i)(n + 24), up = (__m512i)(40 - n);  // NOLINT: same-size vector casts; up = 64 - e
    const V8 word0 = (V8)_mm512_maskz_srlv_epi64(0xFF, (__m512i)low, e) |  // NOLINT
                     (V8)_mm512_maskz_sllv_epi64(0xFF, (__m512i)high, up);   // NOLINT
    store_words(word0, (V8)_mm512_maskz_srlv_epi64(0xFF, (__m512i)high, e), out);  // NOLINT
  }

  // S_i's digits for eight lanes of i (< 16): vpermt2q on the two halves of each plane (bit 3 of i
  // picks the half).
  EXACTDP_AVX512_INLINE static void select_sixteenth(const Planes& planes, V8 index, V8* s) noexcept {
    for (unsigned d = 0; d < 4; ++d) {
      s[d] = (V8)_mm512_permutex2var_epi64(planes[d][0], (__m512i)index, planes[d][1]);  // NOLINT
    }
  }
};

using Avx512Group = fixed_exp52_digits::DigitGroup<Avx512Ops>;

bool cpu_has_avx512f() noexcept {
  return __builtin_cpu_supports("avx512f") && cpu_level_allows(CpuLevel::kAvx512);
}

}  // namespace

FixedExp52GroupFn fixed_exp52_group_avx512() noexcept { return cpu_has_avx512f() ? Avx512Group::group<true> : nullptr; }
FixedExp52GroupFn fixed_exp52_group_v_avx512() noexcept {
  return cpu_has_avx512f() ? Avx512Group::group<false> : nullptr;
}
#else
FixedExp52GroupFn fixed_exp52_group_avx512() noexcept { return nullptr; }
FixedExp52GroupFn fixed_exp52_group_v_avx512() noexcept { return nullptr; }
#endif

}  // namespace exactdp::internal
