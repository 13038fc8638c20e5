// The AVX2 group evaluation of fixed_exp52.h, for x86-64 CPUs with AVX2 and no AVX-512 IFMA
// (make_fixed_exp52 picks it): four H a vector of 64-bit lanes, every number as 26-bit digits so
// that a product of two digits is one vpmuludq (32 x 32 -> 64 bits; below 2^52) and a column of up
// to four such products stays below 2^55. A floor by 2^52 is the high columns plus the carry out of
// the low ones, exactly. A difference B - F (F as columns, B - F in [0, 2^104)) is taken digit by
// digit with 2^56 added to each digit below the top and 2^30 (= 2^56 / 2^26) taken from the next
// one: every partial sum stays non-negative, so each carry is a logical shift (AVX2 has no 64-bit
// arithmetic shift). S_i is taken by register permutes (vpermd: the lane choice is an operand, not
// an address). No branch and no address depends on H. The same exact integers as the portable
// group, so the same bits (tests/samplers/fixed_exp52_test.cc).
// Tried and not faster at EXACTDP_CPU_LEVEL=avx2 on an Intel core (docs/HARDENED.md, "The
// fixed-point acceptance"): 4 or 8 of the 32 values evaluated on 64-bit words (fixed_exp52.h's
// steps, S_i from these planes) between the vector steps, 0.5-5 % slower a value: there a
// 64 x 64 -> 128-bit product issues on ports 1 and 5, which the vector steps already fill; and
// 3 vectors in flight instead of 4, 1 % slower.
#include <exactdp/samplers/internal/fixed_exp52.h>
#include <exactdp/core/cpu_level.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace exactdp::internal {

#if defined(__x86_64__)
namespace {

#define EXACTDP_AVX2 __attribute__((target("avx2")))
#define EXACTDP_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

using V4 = unsigned long long __attribute__((vector_size(32)));

constexpr unsigned kDigitBits = kFixedExp52DigitBits;
constexpr unsigned long long kDigitMask = (1ULL << kDigitBits) - 1;
constexpr unsigned long long kBias = 1ULL << 56;                  // added to a digit of B - F
constexpr unsigned long long kBiasCarry = kBias >> kDigitBits;  // 2^30: the bias's carry, taken back
constexpr unsigned kVectors = kFixedExp52Group / 4;
constexpr unsigned kInFlight = 4;  // vectors through each step together: independent product chains

struct Pair {
  V4 d0, d1;  // d0 + d1 2^26, a value below 2^52
};
struct Quad {
  V4 d[4];  // sum_j d[j] 2^(26 j), a value below 2^104
};
struct Columns {
  V4 c0, c1, c2;  // c0 + c1 2^26 + c2 2^52, each column below 2^55
};

EXACTDP_AVX2_INLINE V4 splat(unsigned long long v) noexcept {
  const V4 zero = {};
  return zero + v;
}
// The products of the low 32 bits of each lane (digits: exact).
EXACTDP_AVX2_INLINE V4 mul(V4 a, V4 b) noexcept { return (V4)_mm256_mul_epu32((__m256i)a, (__m256i)b); }  // NOLINT
EXACTDP_AVX2_INLINE Pair digits(V4 v) noexcept { return {v & kDigitMask, v >> kDigitBits}; }

// floor(a b / 2^52) for a, b < 2^52: the high product plus the carry of the others (below 2^54).
EXACTDP_AVX2_INLINE V4 high52(Pair a, Pair b) noexcept {
  const V4 middle = (mul(a.d0, b.d0) >> kDigitBits) + mul(a.d0, b.d1) + mul(a.d1, b.d0);
  return mul(a.d1, b.d1) + (middle >> kDigitBits);
}

// floor(r w / 2^52) for r < 2^52, w < 2^104, as columns (the columns below 2^52 carried out exactly).
EXACTDP_AVX2_INLINE Columns high52_wide(Pair r, const Quad& w) noexcept {
  const V4 low = ((mul(r.d0, w.d[0]) >> kDigitBits) + mul(r.d0, w.d[1]) + mul(r.d1, w.d[0])) >> kDigitBits;
  return {mul(r.d0, w.d[2]) + mul(r.d1, w.d[1]) + low, mul(r.d0, w.d[3]) + mul(r.d1, w.d[2]), mul(r.d1, w.d[3])};
}

// B - f as digits, given B's biased digits (biased() below) and f's columns, for B - f in [0, 2^104).
EXACTDP_AVX2_INLINE Quad minus_columns(const V4* b, Columns f) noexcept {
  const V4 s0 = b[0] - f.c0;  // > 2^56 - 2^55
  const V4 s1 = b[1] - f.c1 + (s0 >> kDigitBits);
  const V4 s2 = b[2] - f.c2 + (s1 >> kDigitBits);
  return {{s0 & kDigitMask, s1 & kDigitMask, s2 & kDigitMask, b[3] + (s2 >> kDigitBits)}};  // top: exact mod 2^64
}

// The biases of minus_columns: digit j of B plus these (mod 2^64).
constexpr unsigned long long kDigitBias[4] = {kBias, kBias - kBiasCarry, kBias - kBiasCarry, 0 - kBiasCarry};

// The constants as vectors: A_k, A_8's digits, the B_k biased, L's digits, for one group.
struct Constants {
  V4 narrow[kFixedExp52Degree + 1];
  Pair top;
  V4 wide[kFixedExp52NarrowLast][4];
  Pair ln2;
};

EXACTDP_AVX2 void make_constants(const FixedExp52& t, Constants& k) noexcept {
  for (unsigned j = kFixedExp52NarrowLast; j <= kFixedExp52Degree; ++j) k.narrow[j] = splat(t.narrow[j]);
  k.top = digits(k.narrow[kFixedExp52Degree]);
  for (unsigned j = 1; j < kFixedExp52NarrowLast; ++j) {
    for (unsigned d = 0; d < 4; ++d) k.wide[j][d] = splat(t.wide_digits[j][d] + kDigitBias[d]);
  }
  k.ln2 = digits(splat(t.ln2));
}

// The parts of four H (fixed_exp52.h): r1 and r0 as digits, i, n. The lanes hold H 0, 2, 1, 3 of
// the four at h (unpack order; store_words puts them back).
struct Inputs {
  Pair r1, r0;
  V4 index, n;
};

EXACTDP_AVX2_INLINE Inputs load_inputs(const uint128* h) noexcept {
  const __m256i first = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h));
  const __m256i second = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h + 2));
  const V4 low = (V4)_mm256_unpacklo_epi64(first, second), high = (V4)_mm256_unpackhi_epi64(first, second);  // NOLINT
  const V4 r1 = (low >> 61) | (high << 3);  // bits 61 .. 112 of H
  return {{r1 & kDigitMask, (r1 >> kDigitBits) & kDigitMask},
          {(low >> 9) & kDigitMask, (low >> (9 + kDigitBits)) & kDigitMask},
          (high >> 49) & 15,
          (high >> 53) & 31};
}

// v < 2^104 from its digits as the two 64-bit words of four uint128 at out (lanes in load_inputs' order).
EXACTDP_AVX2_INLINE void store_words(__m256i low, __m256i high, uint128* out) noexcept {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_unpacklo_epi64(low, high));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 2), _mm256_unpackhi_epi64(low, high));
}

// Stores alpha = v >> e, e = 24 + n in [24, 55] (with kAlpha), else v itself (for the tests).
template <bool kAlpha>
EXACTDP_AVX2_INLINE void store_result(const Quad& v, V4 n, uint128* out) noexcept {
  const V4 low = v.d[0] | (v.d[1] << kDigitBits) | (v.d[2] << (2 * kDigitBits));
  const V4 high = (v.d[2] >> (64 - 2 * kDigitBits)) | (v.d[3] << (3 * kDigitBits - 64));
  if constexpr (!kAlpha) {
    store_words((__m256i)low, (__m256i)high, out);  // NOLINT: same-size vector casts
    return;
  }
  const __m256i e = (__m256i)(n + 24);  // NOLINT: same-size vector casts
  const __m256i up = _mm256_sub_epi64(_mm256_set1_epi64x(64), e);
  const __m256i word0 =
      _mm256_or_si256(_mm256_srlv_epi64((__m256i)low, e), _mm256_sllv_epi64((__m256i)high, up));  // NOLINT
  store_words(word0, _mm256_srlv_epi64((__m256i)high, e), out);  // NOLINT
}

// S_i's digits (32-bit planes of 16 entries, digit d of entry e at planes[d][e]) for four lanes of
// i: vpermd on each half of a plane, the upper half kept where i >= 8. The biases of minus_columns added.
EXACTDP_AVX2_INLINE void select_sixteenth(const __m256i (*planes)[2], V4 index, Quad& s, Quad& biased) noexcept {
  const __m256i at = (__m256i)index;                                       // NOLINT
  const __m256i upper = _mm256_cmpgt_epi64(at, _mm256_set1_epi64x(7));  // i < 16: no sign issue
  for (unsigned d = 0; d < 4; ++d) {
    const __m256i low = _mm256_permutevar8x32_epi32(planes[d][0], at);
    const __m256i high = _mm256_permutevar8x32_epi32(planes[d][1], at);
    s.d[d] = (V4)_mm256_blendv_epi8(low, high, upper) & 0xFFFFFFFFULL;  // NOLINT
    biased.d[d] = s.d[d] + kDigitBias[d];
  }
}

// w_1 of fixed_exp52.h (the Horner values down to k = 1) for kInFlight vectors of r1.
EXACTDP_AVX2_INLINE void horner(const Constants& k, const Inputs* in, Quad* w) noexcept {
  Pair q[kInFlight];
#pragma GCC unroll 8
  for (unsigned l = 0; l < kInFlight; ++l) q[l] = k.top;
#pragma GCC unroll 8
  for (unsigned j = 1; j <= kFixedExp52Degree - kFixedExp52NarrowLast; ++j) {  // one limb: k = 7 .. 5
    const V4 a = k.narrow[kFixedExp52Degree - j];
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) q[l] = digits(a - high52(in[l].r1, q[l]));
  }
  // w = B_4 - floor(r1 q / 2^29): with r1 q = c0 + u 2^26 + c2 2^52 (u the middle column with c0's
  // carry) and v = u's carry + c2, the floor is (u mod 2^26) / 2^3 + v 2^23 = g0 + (v >> 3) 2^26.
  constexpr unsigned kDown = kFixedExp52TransitionShift - kDigitBits;  // 3
#pragma GCC unroll 8
  for (unsigned l = 0; l < kInFlight; ++l) {
    const Pair r = in[l].r1;
    const V4 u = (mul(r.d0, q[l].d0) >> kDigitBits) + mul(r.d0, q[l].d1) + mul(r.d1, q[l].d0);
    const V4 v = (u >> kDigitBits) + mul(r.d1, q[l].d1);
    const V4 g0 = ((u & kDigitMask) >> kDown) | ((v << (kDigitBits - kDown)) & kDigitMask);
    w[l] = minus_columns(k.wide[kFixedExp52NarrowLast - 1], {g0, v >> kDown, V4{}});
  }
#pragma GCC unroll 8
  for (unsigned j = 2; j < kFixedExp52NarrowLast; ++j) {  // two limbs: k = 3 .. 1
    const V4* b = k.wide[kFixedExp52NarrowLast - j];
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) w[l] = minus_columns(b, high52_wide(in[l].r1, w[l]));
  }
}

// d_all = d + c - floor(c floor(d / 2^52) / 2^52) as digits, d = floor(r1 w / 2^52), c = floor(L r0 / 2^56).
EXACTDP_AVX2_INLINE Quad full_exponent(const Constants& k, const Inputs& in, const Quad& w) noexcept {
  const Columns d = high52_wide(in.r1, w);
  const V4 y = d.c1 + (d.c0 >> kDigitBits);
  const V4 z = d.c2 + (y >> kDigitBits);  // floor(d / 2^52) < 2^48
  const V4 c = high52(k.ln2, in.r0) >> 4;  // < 2^48
  const V4 x_all = (d.c0 & kDigitMask) + (c - high52(digits(c), digits(z)));
  const V4 y_all = (y & kDigitMask) + (x_all >> kDigitBits);
  const V4 z_all = z + (y_all >> kDigitBits);
  return {{x_all & kDigitMask, y_all & kDigitMask, z_all & kDigitMask, z_all >> kDigitBits}};
}

// mul3(s, d) = s1 d1 + floor((s1 d0 + s0 d1) / 2^52) (52-bit limbs s0 = S0 + S1 2^26, s1 = S2 + S3 2^26) as columns.
EXACTDP_AVX2_INLINE Columns mul3(const Quad& s, const Quad& d) noexcept {
  const V4 m0 = mul(s.d[2], d.d[0]) + mul(s.d[0], d.d[2]);
  const V4 m1 = mul(s.d[2], d.d[1]) + mul(s.d[3], d.d[0]) + mul(s.d[0], d.d[3]) + mul(s.d[1], d.d[2]);
  const V4 m2 = mul(s.d[3], d.d[1]) + mul(s.d[1], d.d[3]);
  const V4 cross = m2 + (((m0 >> kDigitBits) + m1) >> kDigitBits);
  return {mul(s.d[2], d.d[2]) + cross, mul(s.d[2], d.d[3]) + mul(s.d[3], d.d[2]), mul(s.d[3], d.d[3])};
}

// alpha (kAlpha) or v of the group's H.
template <bool kAlpha>
EXACTDP_AVX2 void group_avx2(const FixedExp52& t, const uint128* h, uint128* out) noexcept {
  Constants k;
  make_constants(t, k);
  __m256i planes[4][2];
  for (unsigned d = 0; d < 4; ++d) {
    for (unsigned half = 0; half < 2; ++half) {
      planes[d][half] = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.sixteenth_digits32[d] + 8 * half));
    }
  }
  for (unsigned first = 0; first < kVectors; first += kInFlight) {
    Inputs in[kInFlight];
    Quad w[kInFlight];
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) in[l] = load_inputs(h + 4 * (first + l));
    horner(k, in, w);
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) {
      const Quad d = full_exponent(k, in[l], w[l]);
      Quad s, s_biased;
      select_sixteenth(planes, in[l].index, s, s_biased);
      store_result<kAlpha>(minus_columns(s_biased.d, mul3(s, d)), in[l].n, out + 4 * (first + l));
    }
  }
}

bool cpu_has_avx2() noexcept { return __builtin_cpu_supports("avx2") && cpu_level_allows(CpuLevel::kAvx2); }

}  // namespace

FixedExp52GroupFn fixed_exp52_group_avx2() noexcept { return cpu_has_avx2() ? group_avx2<true> : nullptr; }
FixedExp52GroupFn fixed_exp52_group_v_avx2() noexcept { return cpu_has_avx2() ? group_avx2<false> : nullptr; }
#else
FixedExp52GroupFn fixed_exp52_group_avx2() noexcept { return nullptr; }
FixedExp52GroupFn fixed_exp52_group_v_avx2() noexcept { return nullptr; }
#endif

}  // namespace exactdp::internal
