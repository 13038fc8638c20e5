// float_grid_simd.cc — add_on_grid_simple_simd (float_grid_simd.h): add_one_simple of
// float_grid.cc on eight 64-bit lanes (float patterns widened to them). double and float appear
// only as storage types whose bit patterns are decoded and encoded with integer operations; no
// floating-point arithmetic on any value.
#include <exactdp/mechanisms/grid_noise/float_grid_simd.h>
#include <exactdp/core/cpu_level.h>

// GCC 12's AVX-512 intrinsics start their results from a self-initialised "undefined" vector
// that -Wmaybe-uninitialized reports once inlined; the warning is off for this file's intrinsics.
#if defined(__GNUC__) && !defined(__clang__)  // clang has no such warning (and rejects the name)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace exactdp::mechanisms {
namespace {

#define EXACTDP_GRID_AVX512 __attribute__((target("avx512f,avx512cd"), always_inline)) inline

EXACTDP_GRID_AVX512 __m512i all(std::int64_t v) { return _mm512_set1_epi64(v); }

// n = round_half_even(m 2^-r) for the usual-case lanes (see add_one_simple): for r >= 0,
// ((2m + 2^(r1-1) - 1 + (m >> (r1-1) & 1)) >> r1 with r1 = min(r + 1, 63); for r < 0, m 2^-r.
// Lanes with r < P - 62 are refused by the caller; the shifts of unused lanes give junk only.
EXACTDP_GRID_AVX512 __m512i grid_magnitude(__m512i m, __m512i r) {
  const __m512i one = all(1);
  const __m512i r1 = _mm512_min_epi64(_mm512_add_epi64(r, one), all(63));
  const __m512i r1_less = _mm512_sub_epi64(r1, one);
  const __m512i half_less_one = _mm512_sub_epi64(_mm512_sllv_epi64(one, r1_less), one);
  const __m512i odd = _mm512_and_si512(_mm512_srlv_epi64(m, r1_less), one);
  const __m512i sum = _mm512_add_epi64(_mm512_add_epi64(_mm512_slli_epi64(m, 1), half_less_one), odd);
  const __m512i right = _mm512_srlv_epi64(sum, r1);
  const __m512i left = _mm512_sllv_epi64(m, _mm512_sub_epi64(_mm512_setzero_si512(), r));
  return _mm512_mask_blend_epi64(_mm512_cmplt_epi64_mask(r, _mm512_setzero_si512()), right, left);
}

// The layouts (float_grid.h's FloatLayout, as constants of 64-bit lane arithmetic): fraction
// bits, exponent field mask, bias, P = precision, and minus the least exponent plus one.
struct DoubleLanes {
  static constexpr int kFraction = 52, kFieldMask = 0x7ff, kBias = 1023, kPrecision = 53;
  static constexpr long kExponentBase = 1075;  // e = max(field, 1) - 1075
  static constexpr int kSignBit = 63;
};
struct FloatLanes {
  static constexpr int kFraction = 23, kFieldMask = 0xff, kBias = 127, kPrecision = 24;
  static constexpr long kExponentBase = 150;
  static constexpr int kSignBit = 31;
};

// The float nearest a 2^-k for |v| = a < 2^P (exact), with v's sign: exponent field
// (62 - clz(a) - k + bias) and the significand a 2^(P - bitlen a) whose hidden bit adds the 1;
// a = 0 gives +0.0 (the pattern masked to zero, the sign of v = 0 is +).
template <class L>
EXACTDP_GRID_AVX512 __m512i encode_lanes(__m512i a, __m512i v_sign, long k) {
  const __m512i lz = _mm512_lzcnt_epi64(_mm512_or_si512(a, all(1)));
  const __m512i q = _mm512_sllv_epi64(a, _mm512_sub_epi64(lz, all(64 - L::kPrecision)));
  const __m512i exponent = _mm512_slli_epi64(_mm512_sub_epi64(all(62 - k + L::kBias), lz), L::kFraction);
  const __m512i pattern = _mm512_maskz_add_epi64(_mm512_test_epi64_mask(a, a), exponent, q);
  return _mm512_or_si512(pattern, _mm512_and_si512(v_sign, all(std::int64_t{1} << L::kSignBit)));
}

// The bit patterns of eight doubles, or of eight floats widened to 64-bit lanes; and back.
EXACTDP_GRID_AVX512 __m512i load_lanes(const double* x) { return _mm512_loadu_si512(x); }
EXACTDP_GRID_AVX512 __m512i load_lanes(const float* x) {
  return _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x)));
}
EXACTDP_GRID_AVX512 void store_lanes(double* y, __m512i v) { _mm512_storeu_si512(y, v); }
EXACTDP_GRID_AVX512 void store_lanes(float* y, __m512i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(y), _mm512_cvtepi64_epi32(v));  // the low 32 bits
}

bool cpu_has_avx512_cd() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512cd") != 0 &&
         cpu_level_allows(CpuLevel::kAvx512);
}

template <class Float, class L>
__attribute__((target("avx512f,avx512cd"))) std::size_t simple_groups(const Float* x, long k,
                                                                       const std::int64_t* draws, Float* y,
                                                                       std::size_t count) noexcept {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i one = all(1);
  const __m512i fraction_mask = all((std::int64_t{1} << L::kFraction) - 1);
  std::size_t i = 0;
  for (; i + kGridSimdGroup <= count; i += kGridSimdGroup) {
    const __m512i bits = load_lanes(x + i);
    const __m512i draw = _mm512_loadu_si512(draws + i);
    const __m512i field = _mm512_and_si512(_mm512_srli_epi64(bits, L::kFraction), all(L::kFieldMask));
    const __m512i fraction = _mm512_and_si512(bits, fraction_mask);
    const __m512i m = _mm512_mask_or_epi64(fraction, _mm512_test_epi64_mask(field, field), fraction,
                                           all(std::int64_t{1} << L::kFraction));
    // r = -(e + k), e = max(field, 1) - base (the least exponent for subnormals).
    const __m512i r = _mm512_sub_epi64(all(L::kExponentBase - k), _mm512_max_epi64(field, one));
    __mmask8 refused = _mm512_cmplt_epi64_mask(r, all(L::kPrecision - 62));  // |x| 2^k may reach 2^62
    const __m512i magnitude = grid_magnitude(m, r);
    const __m512i x_sign = _mm512_srli_epi64(bits, L::kSignBit);
    const __m512i n = _mm512_add_epi64(_mm512_xor_si512(magnitude, _mm512_sub_epi64(zero, x_sign)), x_sign);
    const __m512i v = _mm512_add_epi64(n, draw);
    // n + draw overflows exactly when v's sign differs from both n's and draw's.
    refused |= _mm512_cmplt_epi64_mask(_mm512_and_si512(_mm512_xor_si512(n, v), _mm512_xor_si512(draw, v)), zero);
    const __m512i v_sign = _mm512_srai_epi64(v, 63);
    const __m512i a = _mm512_sub_epi64(_mm512_xor_si512(v, v_sign), v_sign);
    const __m512i high = _mm512_srli_epi64(a, L::kPrecision);
    refused |= _mm512_test_epi64_mask(high, high);  // |n + draw| >= 2^P: needs rounding
    if (refused != 0) break;
    store_lanes(y + i, encode_lanes<L>(a, v_sign, k));
  }
  return i;
}

// Decided when the library is loaded, before any thread can call in: a function-local static was
// first initialised inside concurrent add_noise calls, which is thread-safe C++ but which valgrind's
// helgrind (c_api_helgrind) reports as a race on the flag.
const bool kGridSimdAvailable = cpu_has_avx512_cd();

}  // namespace

bool grid_simd_available() noexcept { return kGridSimdAvailable; }

std::size_t add_on_grid_simple_simd(const double* x, long k, const std::int64_t* draws, double* y,
                                    std::size_t count) noexcept {
  return grid_simd_available() ? simple_groups<double, DoubleLanes>(x, k, draws, y, count) : 0;
}

std::size_t add_on_grid_simple_simd(const float* x, long k, const std::int64_t* draws, float* y,
                                    std::size_t count) noexcept {
  return grid_simd_available() ? simple_groups<float, FloatLanes>(x, k, draws, y, count) : 0;
}

}  // namespace exactdp::mechanisms

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
