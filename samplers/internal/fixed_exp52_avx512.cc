// The AVX-512F group evaluation of fixed_exp52.h, for x86-64 CPUs with AVX-512F and no AVX-512 IFMA
// (Skylake-SP, Cascade Lake; make_fixed_exp52 picks it): fixed_exp52_avx2.cc's digit algorithm on
// 512-bit vectors, eight H a vector. Every number is held as 26-bit digits so that a product of two
// digits is one vpmuludq (32 x 32 -> 64 bits; below 2^52) and a column of up to four such products
// stays below 2^55; a floor by 2^52 is the high columns plus the carry out of the low ones,
// exactly; a difference B - F is taken digit by digit with 2^56 added to each digit below the top
// and 2^30 taken from the next one, so every partial sum stays non-negative. S_i is taken by a
// two-register permute (vpermt2q: the lane choice is an operand, not an address), no masked load.
// No branch and no address depends on H. The same exact integers as the portable group, so the
// same bits (tests/samplers/fixed_exp52_test.cc).
// valgrind does not run AVX-512 (it reports AVX2), so the constant-time test
// (tests/constant_time/ctgrind_probe.cc) runs the AVX2 path, not this file: this one is kept free of
// branches and of addresses that depend on the data by construction.
#include <exactdp/samplers/internal/fixed_exp52.h>
#include <exactdp/core/cpu_level.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace exactdp::internal {

#if defined(__x86_64__)
namespace {

#define EXACTDP_AVX512 __attribute__((target("avx512f")))
#define EXACTDP_AVX512_INLINE __attribute__((target("avx512f"), always_inline)) inline

using V8 = unsigned long long __attribute__((vector_size(64)));

constexpr unsigned kDigitBits = kFixedExp52DigitBits;
constexpr unsigned long long kDigitMask = (1ULL << kDigitBits) - 1;
constexpr unsigned long long kBias = 1ULL << 56;                  // added to a digit of B - F
constexpr unsigned long long kBiasCarry = kBias >> kDigitBits;  // 2^30: the bias's carry, taken back
constexpr unsigned kLanes = 8;
constexpr unsigned kVectors = kFixedExp52Group / kLanes;
constexpr unsigned kInFlight = 4;  // vectors through each step together: independent product chains

struct Pair {
  V8 d0, d1;  // d0 + d1 2^26, a value below 2^52
};
struct Quad {
  V8 d[4];  // sum_j d[j] 2^(26 j), a value below 2^104
};
struct Columns {
  V8 c0, c1, c2;  // c0 + c1 2^26 + c2 2^52, each column below 2^55
};

EXACTDP_AVX512_INLINE V8 splat(unsigned long long v) noexcept {
  const V8 zero = {};
  return zero + v;
}
// The products of the low 32 bits of each lane (digits: exact). Here and below the zero-masked
// intrinsics with every lane kept: the plain ones trip GCC 12's -Wuninitialized.
EXACTDP_AVX512_INLINE V8 mul(V8 a, V8 b) noexcept {
  return (V8)_mm512_maskz_mul_epu32(0xFF, (__m512i)a, (__m512i)b);  // NOLINT: same-size vector casts
}
EXACTDP_AVX512_INLINE Pair digits(V8 v) noexcept { return {v & kDigitMask, v >> kDigitBits}; }

// floor(a b / 2^52) for a, b < 2^52: the high product plus the carry of the others (below 2^54).
EXACTDP_AVX512_INLINE V8 high52(Pair a, Pair b) noexcept {
  const V8 middle = (mul(a.d0, b.d0) >> kDigitBits) + mul(a.d0, b.d1) + mul(a.d1, b.d0);
  return mul(a.d1, b.d1) + (middle >> kDigitBits);
}

// floor(r w / 2^52) for r < 2^52, w < 2^104, as columns (the columns below 2^52 carried out exactly).
EXACTDP_AVX512_INLINE Columns high52_wide(Pair r, const Quad& w) noexcept {
  const V8 low = ((mul(r.d0, w.d[0]) >> kDigitBits) + mul(r.d0, w.d[1]) + mul(r.d1, w.d[0])) >> kDigitBits;
  return {mul(r.d0, w.d[2]) + mul(r.d1, w.d[1]) + low, mul(r.d0, w.d[3]) + mul(r.d1, w.d[2]), mul(r.d1, w.d[3])};
}

// B - f as digits, given B's biased digits (kDigitBias) and f's columns, for B - f in [0, 2^104).
EXACTDP_AVX512_INLINE Quad minus_columns(const V8* b, Columns f) noexcept {
  const V8 s0 = b[0] - f.c0;  // > 2^56 - 2^55
  const V8 s1 = b[1] - f.c1 + (s0 >> kDigitBits);
  const V8 s2 = b[2] - f.c2 + (s1 >> kDigitBits);
  return {{s0 & kDigitMask, s1 & kDigitMask, s2 & kDigitMask, b[3] + (s2 >> kDigitBits)}};  // top: exact mod 2^64
}

// The biases of minus_columns: digit j of B plus these (mod 2^64).
constexpr unsigned long long kDigitBias[4] = {kBias, kBias - kBiasCarry, kBias - kBiasCarry, 0 - kBiasCarry};

// The constants as vectors: A_k, A_8's digits, the B_k biased, L's digits, S_i's digit planes.
struct Constants {
  V8 narrow[kFixedExp52Degree + 1];
  Pair top;
  V8 wide[kFixedExp52NarrowLast][4];
  Pair ln2;
  __m512i planes[4][2];  // digit d of S_e at 64-bit lane e mod 8 of planes[d][e / 8]
};

EXACTDP_AVX512 void make_constants(const FixedExp52& t, Constants& k) noexcept {
  for (unsigned j = kFixedExp52NarrowLast; j <= kFixedExp52Degree; ++j) k.narrow[j] = splat(t.narrow[j]);
  k.top = digits(k.narrow[kFixedExp52Degree]);
  for (unsigned j = 1; j < kFixedExp52NarrowLast; ++j) {
    for (unsigned d = 0; d < 4; ++d) k.wide[j][d] = splat(t.wide_digits[j][d] + kDigitBias[d]);
  }
  k.ln2 = digits(splat(t.ln2));
  for (unsigned d = 0; d < 4; ++d) {
    for (unsigned half = 0; half < 2; ++half) k.planes[d][half] = _mm512_load_si512(t.sixteenth_digits64[d] + 8 * half);
  }
}

// The parts of eight H (fixed_exp52.h): r1 and r0 as digits, i, n. The lanes hold H 0, 4, 1, 5,
// 2, 6, 3, 7 of the eight at h (unpack order within 128-bit lanes; store_words puts them back).
struct Inputs {
  Pair r1, r0;
  V8 index, n;
};

EXACTDP_AVX512_INLINE Inputs load_inputs(const uint128* h) noexcept {
  const __m512i first = _mm512_loadu_si512(h);
  const __m512i second = _mm512_loadu_si512(h + 4);
  const V8 low = (V8)_mm512_maskz_unpacklo_epi64(0xFF, first, second);   // NOLINT: same-size vector casts
  const V8 high = (V8)_mm512_maskz_unpackhi_epi64(0xFF, first, second);  // NOLINT
  const V8 r1 = (low >> 61) | (high << 3);  // bits 61 .. 112 of H
  return {{r1 & kDigitMask, (r1 >> kDigitBits) & kDigitMask},
          {(low >> 9) & kDigitMask, (low >> (9 + kDigitBits)) & kDigitMask},
          (high >> 49) & 15,
          (high >> 53) & 31};
}

// v < 2^104 from its digits as the two 64-bit words of eight uint128 at out (lanes in load_inputs' order).
EXACTDP_AVX512_INLINE void store_words(__m512i low, __m512i high, uint128* out) noexcept {
  _mm512_storeu_si512(out, _mm512_maskz_unpacklo_epi64(0xFF, low, high));
  _mm512_storeu_si512(out + 4, _mm512_maskz_unpackhi_epi64(0xFF, low, high));
}

// Stores alpha = v >> e, e = 24 + n in [24, 55] (with kAlpha), else v itself (for the tests).
template <bool kAlpha>
EXACTDP_AVX512_INLINE void store_result(const Quad& v, V8 n, uint128* out) noexcept {
  const V8 low = v.d[0] | (v.d[1] << kDigitBits) | (v.d[2] << (2 * kDigitBits));
  const V8 high = (v.d[2] >> (64 - 2 * kDigitBits)) | (v.d[3] << (3 * kDigitBits - 64));
  if constexpr (!kAlpha) {
    store_words((__m512i)low, (__m512i)high, out);  // NOLINT: same-size vector casts
    return;
  }
  const __m512i e = (__m512i)(n + 24), up = (__m512i)(40 - n);  // NOLINT: same-size vector casts; up = 64 - e
  const V8 word0 = (V8)_mm512_maskz_srlv_epi64(0xFF, (__m512i)low, e) |  // NOLINT
                   (V8)_mm512_maskz_sllv_epi64(0xFF, (__m512i)high, up);   // NOLINT
  store_words((__m512i)word0, _mm512_maskz_srlv_epi64(0xFF, (__m512i)high, e), out);  // NOLINT
}

// S_i's digits for eight lanes of i (< 16): vpermt2q on the two halves of each plane (bit 3 of i
// picks the half). The biases of minus_columns added.
EXACTDP_AVX512_INLINE void select_sixteenth(const Constants& k, V8 index, Quad& s, Quad& biased) noexcept {
  for (unsigned d = 0; d < 4; ++d) {
    s.d[d] = (V8)_mm512_permutex2var_epi64(k.planes[d][0], (__m512i)index, k.planes[d][1]);  // NOLINT
    biased.d[d] = s.d[d] + kDigitBias[d];
  }
}

// w_1 of fixed_exp52.h (the Horner values down to k = 1) for kInFlight vectors of r1.
EXACTDP_AVX512_INLINE void horner(const Constants& k, const Inputs* in, Quad* w) noexcept {
  Pair q[kInFlight];
#pragma GCC unroll 8
  for (unsigned l = 0; l < kInFlight; ++l) q[l] = k.top;
#pragma GCC unroll 8
  for (unsigned j = 1; j <= kFixedExp52Degree - kFixedExp52NarrowLast; ++j) {  // one limb: k = 7 .. 5
    const V8 a = k.narrow[kFixedExp52Degree - j];
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) q[l] = digits(a - high52(in[l].r1, q[l]));
  }
  // w = B_4 - floor(r1 q / 2^29) (fixed_exp52_avx2.cc): g0 + (v >> 3) 2^26, u the middle column
  // with c0's carry, v = u's carry + the high column.
  constexpr unsigned kDown = kFixedExp52TransitionShift - kDigitBits;  // 3
#pragma GCC unroll 8
  for (unsigned l = 0; l < kInFlight; ++l) {
    const Pair r = in[l].r1;
    const V8 u = (mul(r.d0, q[l].d0) >> kDigitBits) + mul(r.d0, q[l].d1) + mul(r.d1, q[l].d0);
    const V8 v = (u >> kDigitBits) + mul(r.d1, q[l].d1);
    const V8 g0 = ((u & kDigitMask) >> kDown) | ((v << (kDigitBits - kDown)) & kDigitMask);
    w[l] = minus_columns(k.wide[kFixedExp52NarrowLast - 1], {g0, v >> kDown, V8{}});
  }
#pragma GCC unroll 8
  for (unsigned j = 2; j < kFixedExp52NarrowLast; ++j) {  // two limbs: k = 3 .. 1
    const V8* b = k.wide[kFixedExp52NarrowLast - j];
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) w[l] = minus_columns(b, high52_wide(in[l].r1, w[l]));
  }
}

// d_all = d + c - floor(c floor(d / 2^52) / 2^52) as digits, d = floor(r1 w / 2^52), c = floor(L r0 / 2^56).
EXACTDP_AVX512_INLINE Quad full_exponent(const Constants& k, const Inputs& in, const Quad& w) noexcept {
  const Columns d = high52_wide(in.r1, w);
  const V8 y = d.c1 + (d.c0 >> kDigitBits);
  const V8 z = d.c2 + (y >> kDigitBits);  // floor(d / 2^52) < 2^48
  const V8 c = high52(k.ln2, in.r0) >> 4;  // < 2^48
  const V8 x_all = (d.c0 & kDigitMask) + (c - high52(digits(c), digits(z)));
  const V8 y_all = (y & kDigitMask) + (x_all >> kDigitBits);
  const V8 z_all = z + (y_all >> kDigitBits);
  return {{x_all & kDigitMask, y_all & kDigitMask, z_all & kDigitMask, z_all >> kDigitBits}};
}

// mul3(s, d) = s1 d1 + floor((s1 d0 + s0 d1) / 2^52) (52-bit limbs s0 = S0 + S1 2^26, s1 = S2 + S3 2^26) as columns.
EXACTDP_AVX512_INLINE Columns mul3(const Quad& s, const Quad& d) noexcept {
  const V8 m0 = mul(s.d[2], d.d[0]) + mul(s.d[0], d.d[2]);
  const V8 m1 = mul(s.d[2], d.d[1]) + mul(s.d[3], d.d[0]) + mul(s.d[0], d.d[3]) + mul(s.d[1], d.d[2]);
  const V8 m2 = mul(s.d[3], d.d[1]) + mul(s.d[1], d.d[3]);
  const V8 cross = m2 + (((m0 >> kDigitBits) + m1) >> kDigitBits);
  return {mul(s.d[2], d.d[2]) + cross, mul(s.d[2], d.d[3]) + mul(s.d[3], d.d[2]), mul(s.d[3], d.d[3])};
}

// alpha (kAlpha) or v of the group's H.
template <bool kAlpha>
EXACTDP_AVX512 void group_avx512(const FixedExp52& t, const uint128* h, uint128* out) noexcept {
  Constants k;
  make_constants(t, k);
  for (unsigned first = 0; first < kVectors; first += kInFlight) {
    Inputs in[kInFlight];
    Quad w[kInFlight];
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) in[l] = load_inputs(h + kLanes * (first + l));
    horner(k, in, w);
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) {
      const Quad d = full_exponent(k, in[l], w[l]);
      Quad s, s_biased;
      select_sixteenth(k, in[l].index, s, s_biased);
      store_result<kAlpha>(minus_columns(s_biased.d, mul3(s, d)), in[l].n, out + kLanes * (first + l));
    }
  }
}

bool cpu_has_avx512f() noexcept {
  return __builtin_cpu_supports("avx512f") && cpu_level_allows(CpuLevel::kAvx512);
}

}  // namespace

FixedExp52GroupFn fixed_exp52_group_avx512() noexcept { return cpu_has_avx512f() ? group_avx512<true> : nullptr; }
FixedExp52GroupFn fixed_exp52_group_v_avx512() noexcept { return cpu_has_avx512f() ? group_avx512<false> : nullptr; }
#else
FixedExp52GroupFn fixed_exp52_group_avx512() noexcept { return nullptr; }
FixedExp52GroupFn fixed_exp52_group_v_avx512() noexcept { return nullptr; }
#endif

}  // namespace exactdp::internal
