// The AVX2 group evaluation of fixed_exp52.h, for x86-64 CPUs with AVX2 and no AVX-512 IFMA
// (make_fixed_exp52 picks it): fixed_exp52_digits.h's 26-bit-digit algorithm on four H a vector of
// 64-bit lanes (vpmuludq: _mm256_mul_epu32). This file holds the AVX2 parts: the loads and stores
// and S_i's select, taken by register permutes (vpermd: the lane choice is an operand, not an
// address). No branch and no address depends on H. The same exact integers as the portable group,
// so the same bits (tests/samplers/fixed_exp52_test.cc).
// Tried and not faster at EXACTDP_CPU_LEVEL=avx2 on an Intel core (docs/HARDENED.md, "The
// fixed-point acceptance"): 4 or 8 of the 32 values evaluated on 64-bit words (fixed_exp52.h's
// steps, S_i from these planes) between the vector steps, 0.5-5 % slower a value: there a
// 64 x 64 -> 128-bit product issues on ports 1 and 5, which the vector steps already fill; and
// 3 vectors in flight instead of 4, 1 % slower.
#include <exactdp/samplers/internal/fixed_exp52.h>
#include <exactdp/core/cpu_level.h>

#if defined(__x86_64__)
#include <immintrin.h>

#define EXACTDP_DIGITS_TARGET "avx2"
#include <exactdp/samplers/internal/fixed_exp52_digits.h>
#endif

namespace exactdp::internal {

#if defined(__x86_64__)
namespace {

#define EXACTDP_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

using V4 = unsigned long long __attribute__((vector_size(32)));

struct Avx2Ops {
  using V = V4;
  static constexpr unsigned kLanes = 4;
  // S_i's digits as 32-bit planes of 16 entries, digit d of entry e at planes[d][e / 8], lane e mod 8.
  using Planes = __m256i[4][2];

  EXACTDP_AVX2_INLINE static void load_planes(const FixedExp52& t, Planes& planes) noexcept {
    for (unsigned d = 0; d < 4; ++d) {
      for (unsigned half = 0; half < 2; ++half) {
        planes[d][half] = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.sixteenth_digits32[d] + 8 * half));
      }
    }
  }

  // The products of the low 32 bits of each lane (digits: exact).
  EXACTDP_AVX2_INLINE static V4 mul(V4 a, V4 b) noexcept { return (V4)_mm256_mul_epu32((__m256i)a, (__m256i)b); }  // NOLINT

  // The low and high 64-bit words of the four H at h: the lanes hold H 0, 2, 1, 3 (unpack order;
  // store_words puts them back).
  EXACTDP_AVX2_INLINE static void load_words(const uint128* h, V4& low, V4& high) noexcept {
    const __m256i first = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h));
    const __m256i second = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h + 2));
    low = (V4)_mm256_unpacklo_epi64(first, second);   // NOLINT: same-size vector casts
    high = (V4)_mm256_unpackhi_epi64(first, second);  // NOLINT
  }

  // The two 64-bit words of four uint128 at out (lanes in load_words' order).
  EXACTDP_AVX2_INLINE static void store_words(V4 low, V4 high, uint128* out) noexcept {
    const __m256i l = (__m256i)low, h = (__m256i)high;  // NOLINT: same-size vector casts
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_unpacklo_epi64(l, h));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 2), _mm256_unpackhi_epi64(l, h));
  }

  // (low + high 2^64) >> e, e = 24 + n in [24, 55], stored as store_words does.
  EXACTDP_AVX2_INLINE static void store_alpha(V4 low, V4 high, V4 n, uint128* out) noexcept {
    const __m256i e = (__m256i)(n + 24);  // NOLINT: same-size vector casts
    const __m256i up = _mm256_sub_epi64(_mm256_set1_epi64x(64), e);
    const __m256i word0 =
        _mm256_or_si256(_mm256_srlv_epi64((__m256i)low, e), _mm256_sllv_epi64((__m256i)high, up));  // NOLINT
    store_words((V4)word0, (V4)_mm256_srlv_epi64((__m256i)high, e), out);  // NOLINT
  }

  // S_i's digits for four lanes of i: vpermd on each half of a plane, the upper half kept where i >= 8.
  EXACTDP_AVX2_INLINE static void select_sixteenth(const Planes& planes, V4 index, V4* s) noexcept {
    const __m256i at = (__m256i)index;                                       // NOLINT
    const __m256i upper = _mm256_cmpgt_epi64(at, _mm256_set1_epi64x(7));  // i < 16: no sign issue
    for (unsigned d = 0; d < 4; ++d) {
      const __m256i low = _mm256_permutevar8x32_epi32(planes[d][0], at);
      const __m256i high = _mm256_permutevar8x32_epi32(planes[d][1], at);
      s[d] = (V4)_mm256_blendv_epi8(low, high, upper) & 0xFFFFFFFFULL;  // NOLINT
    }
  }
};

using Avx2Group = fixed_exp52_digits::DigitGroup<Avx2Ops>;

bool cpu_has_avx2() noexcept { return __builtin_cpu_supports("avx2") && cpu_level_allows(CpuLevel::kAvx2); }

}  // namespace

FixedExp52GroupFn fixed_exp52_group_avx2() noexcept { return cpu_has_avx2() ? Avx2Group::group<true> : nullptr; }
FixedExp52GroupFn fixed_exp52_group_v_avx2() noexcept { return cpu_has_avx2() ? Avx2Group::group<false> : nullptr; }
#else
FixedExp52GroupFn fixed_exp52_group_avx2() noexcept { return nullptr; }
FixedExp52GroupFn fixed_exp52_group_v_avx2() noexcept { return nullptr; }
#endif

}  // namespace exactdp::internal
