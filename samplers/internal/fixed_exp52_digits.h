// internal/fixed_exp52_digits.h — the 26-bit-digit group evaluation of fixed_exp52.h (not installed;
// x86-64 only), written once for the AVX2 group (fixed_exp52_avx2.cc, four H a vector) and the
// AVX-512F group (fixed_exp52_avx512.cc, eight): DigitGroup<Ops> over a GCC vector of 64-bit lanes.
// Every number is held as 26-bit digits so that a product of two digits is one vpmuludq (32 x 32 ->
// 64 bits; below 2^52) and a column of up to four such products stays below 2^55. A floor by 2^52
// is the high columns plus the carry out of the low ones, exactly. A difference B - F (F as
// columns, B - F in [0, 2^104)) is taken digit by digit with 2^56 added to each digit below the top
// and 2^30 (= 2^56 / 2^26) taken from the next one: every partial sum stays non-negative, so each
// carry is a logical shift (AVX2 has no 64-bit arithmetic shift). No branch and no address depends
// on H. The same exact integers as the portable group, so the same bits
// (tests/samplers/fixed_exp52_test.cc).
//
// Ops (in each .cc) holds what differs between the two: V (the vector type), kLanes, mul (the
// products of the low 32 bits of each lane), Planes, load_planes and select_sixteenth (S_i's
// digits by a register permute), load_words, store_words and store_alpha (the H in, the results
// out). The including file defines EXACTDP_DIGITS_TARGET, the target attribute's string, first:
// every function here carries that target (GCC inlines a function only into one of the same
// target), so call them only from code chosen after a CPU check.
#pragma once

#if defined(__x86_64__)
#if !defined(EXACTDP_DIGITS_TARGET)
#error "define EXACTDP_DIGITS_TARGET (the target attribute's string) before including fixed_exp52_digits.h"
#endif

#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/fixed_exp52.h>

#define EXACTDP_DIGITS __attribute__((target(EXACTDP_DIGITS_TARGET)))
#define EXACTDP_DIGITS_INLINE __attribute__((target(EXACTDP_DIGITS_TARGET), always_inline)) inline

namespace exactdp::internal::fixed_exp52_digits {

inline constexpr unsigned kDigitBits = kFixedExp52DigitBits;
inline constexpr unsigned long long kDigitMask = (1ULL << kDigitBits) - 1;
inline constexpr unsigned long long kBias = 1ULL << 56;                  // added to a digit of B - F
inline constexpr unsigned long long kBiasCarry = kBias >> kDigitBits;  // 2^30: the bias's carry, taken back
inline constexpr unsigned kInFlight = 4;  // vectors through each step together: independent product chains

// The biases of minus_columns: digit j of B plus these (mod 2^64).
inline constexpr unsigned long long kDigitBias[4] = {kBias, kBias - kBiasCarry, kBias - kBiasCarry,
                                                     0 - kBiasCarry};

template <class Ops>
struct DigitGroup {
  using V = typename Ops::V;
  static constexpr unsigned kVectors = kFixedExp52Group / Ops::kLanes;

  struct Pair {
    V d0, d1;  // d0 + d1 2^26, a value below 2^52
  };
  struct Quad {
    V d[4];  // sum_j d[j] 2^(26 j), a value below 2^104
  };
  struct Columns {
    V c0, c1, c2;  // c0 + c1 2^26 + c2 2^52, each column below 2^55
  };

  EXACTDP_DIGITS_INLINE static V splat(unsigned long long v) noexcept {
    const V zero = {};
    return zero + v;
  }
  EXACTDP_DIGITS_INLINE static Pair digits(V v) noexcept { return {v & kDigitMask, v >> kDigitBits}; }

  // floor(a b / 2^52) for a, b < 2^52: the high product plus the carry of the others (below 2^54).
  EXACTDP_DIGITS_INLINE static V high52(Pair a, Pair b) noexcept {
    const V middle = (Ops::mul(a.d0, b.d0) >> kDigitBits) + Ops::mul(a.d0, b.d1) + Ops::mul(a.d1, b.d0);
    return Ops::mul(a.d1, b.d1) + (middle >> kDigitBits);
  }

  // floor(r w / 2^52) for r < 2^52, w < 2^104, as columns (the columns below 2^52 carried out exactly).
  EXACTDP_DIGITS_INLINE static Columns high52_wide(Pair r, const Quad& w) noexcept {
    const V low =
        ((Ops::mul(r.d0, w.d[0]) >> kDigitBits) + Ops::mul(r.d0, w.d[1]) + Ops::mul(r.d1, w.d[0])) >> kDigitBits;
    return {Ops::mul(r.d0, w.d[2]) + Ops::mul(r.d1, w.d[1]) + low, Ops::mul(r.d0, w.d[3]) + Ops::mul(r.d1, w.d[2]),
            Ops::mul(r.d1, w.d[3])};
  }

  // B - f as digits, given B's biased digits (kDigitBias) and f's columns, for B - f in [0, 2^104).
  EXACTDP_DIGITS_INLINE static Quad minus_columns(const V* b, Columns f) noexcept {
    const V s0 = b[0] - f.c0;  // > 2^56 - 2^55
    const V s1 = b[1] - f.c1 + (s0 >> kDigitBits);
    const V s2 = b[2] - f.c2 + (s1 >> kDigitBits);
    return {{s0 & kDigitMask, s1 & kDigitMask, s2 & kDigitMask, b[3] + (s2 >> kDigitBits)}};  // top: exact mod 2^64
  }

  // The constants as vectors: A_k, A_8's digits, the B_k biased, L's digits, for one group.
  struct Constants {
    V narrow[kFixedExp52Degree + 1];
    Pair top;
    V wide[kFixedExp52NarrowLast][4];
    Pair ln2;
  };

  EXACTDP_DIGITS static void make_constants(const FixedExp52& t, Constants& k) noexcept {
    for (unsigned j = kFixedExp52NarrowLast; j <= kFixedExp52Degree; ++j) k.narrow[j] = splat(t.narrow[j]);
    k.top = digits(k.narrow[kFixedExp52Degree]);
    for (unsigned j = 1; j < kFixedExp52NarrowLast; ++j) {
      for (unsigned d = 0; d < 4; ++d) k.wide[j][d] = splat(t.wide_digits[j][d] + kDigitBias[d]);
    }
    k.ln2 = digits(splat(t.ln2));
  }

  // The parts of kLanes H (fixed_exp52.h): r1 and r0 as digits, i, n, the lanes in Ops::load_words' order.
  struct Inputs {
    Pair r1, r0;
    V index, n;
  };

  EXACTDP_DIGITS_INLINE static Inputs load_inputs(const uint128* h) noexcept {
    V low, high;  // the H's low and high 64-bit words
    Ops::load_words(h, low, high);
    const V r1 = (low >> 61) | (high << 3);  // bits 61 .. 112 of H
    return {{r1 & kDigitMask, (r1 >> kDigitBits) & kDigitMask},
            {(low >> 9) & kDigitMask, (low >> (9 + kDigitBits)) & kDigitMask},
            (high >> 49) & 15,
            (high >> 53) & 31};
  }

  // Stores alpha = v >> e, e = 24 + n in [24, 55] (with kAlpha), else v itself (for the tests).
  template <bool kAlpha>
  EXACTDP_DIGITS_INLINE static void store_result(const Quad& v, V n, uint128* out) noexcept {
    const V low = v.d[0] | (v.d[1] << kDigitBits) | (v.d[2] << (2 * kDigitBits));
    const V high = (v.d[2] >> (64 - 2 * kDigitBits)) | (v.d[3] << (3 * kDigitBits - 64));
    if constexpr (kAlpha) {
      Ops::store_alpha(low, high, n, out);
    } else {
      Ops::store_words(low, high, out);
    }
  }

  // S_i's digits for the lanes of i, and them with the biases of minus_columns added.
  EXACTDP_DIGITS_INLINE static void select_sixteenth(const typename Ops::Planes& planes, V index, Quad& s,
                                                     Quad& biased) noexcept {
    Ops::select_sixteenth(planes, index, s.d);
    for (unsigned d = 0; d < 4; ++d) biased.d[d] = s.d[d] + kDigitBias[d];
  }

  // w_1 of fixed_exp52.h (the Horner values down to k = 1) for kInFlight vectors of r1.
  EXACTDP_DIGITS_INLINE static void horner(const Constants& k, const Inputs* in, Quad* w) noexcept {
    Pair q[kInFlight];
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) q[l] = k.top;
#pragma GCC unroll 8
    for (unsigned j = 1; j <= kFixedExp52Degree - kFixedExp52NarrowLast; ++j) {  // one limb: k = 7 .. 5
      const V a = k.narrow[kFixedExp52Degree - j];
#pragma GCC unroll 8
      for (unsigned l = 0; l < kInFlight; ++l) q[l] = digits(a - high52(in[l].r1, q[l]));
    }
    // w = B_4 - floor(r1 q / 2^29): with r1 q = c0 + u 2^26 + c2 2^52 (u the middle column with c0's
    // carry) and v = u's carry + c2, the floor is (u mod 2^26) / 2^3 + v 2^23 = g0 + (v >> 3) 2^26.
    constexpr unsigned kDown = kFixedExp52TransitionShift - kDigitBits;  // 3
#pragma GCC unroll 8
    for (unsigned l = 0; l < kInFlight; ++l) {
      const Pair r = in[l].r1;
      const V u = (Ops::mul(r.d0, q[l].d0) >> kDigitBits) + Ops::mul(r.d0, q[l].d1) + Ops::mul(r.d1, q[l].d0);
      const V v = (u >> kDigitBits) + Ops::mul(r.d1, q[l].d1);
      const V g0 = ((u & kDigitMask) >> kDown) | ((v << (kDigitBits - kDown)) & kDigitMask);
      w[l] = minus_columns(k.wide[kFixedExp52NarrowLast - 1], {g0, v >> kDown, V{}});
    }
#pragma GCC unroll 8
    for (unsigned j = 2; j < kFixedExp52NarrowLast; ++j) {  // two limbs: k = 3 .. 1
      const V* b = k.wide[kFixedExp52NarrowLast - j];
#pragma GCC unroll 8
      for (unsigned l = 0; l < kInFlight; ++l) w[l] = minus_columns(b, high52_wide(in[l].r1, w[l]));
    }
  }

  // d_all = d + c - floor(c floor(d / 2^52) / 2^52) as digits, d = floor(r1 w / 2^52), c = floor(L r0 / 2^56).
  EXACTDP_DIGITS_INLINE static Quad full_exponent(const Constants& k, const Inputs& in, const Quad& w) noexcept {
    const Columns d = high52_wide(in.r1, w);
    const V y = d.c1 + (d.c0 >> kDigitBits);
    const V z = d.c2 + (y >> kDigitBits);  // floor(d / 2^52) < 2^48
    const V c = high52(k.ln2, in.r0) >> 4;  // < 2^48
    const V x_all = (d.c0 & kDigitMask) + (c - high52(digits(c), digits(z)));
    const V y_all = (y & kDigitMask) + (x_all >> kDigitBits);
    const V z_all = z + (y_all >> kDigitBits);
    return {{x_all & kDigitMask, y_all & kDigitMask, z_all & kDigitMask, z_all >> kDigitBits}};
  }

  // mul3(s, d) = s1 d1 + floor((s1 d0 + s0 d1) / 2^52) (52-bit limbs s0 = S0 + S1 2^26, s1 = S2 + S3 2^26) as columns.
  EXACTDP_DIGITS_INLINE static Columns mul3(const Quad& s, const Quad& d) noexcept {
    const V m0 = Ops::mul(s.d[2], d.d[0]) + Ops::mul(s.d[0], d.d[2]);
    const V m1 = Ops::mul(s.d[2], d.d[1]) + Ops::mul(s.d[3], d.d[0]) + Ops::mul(s.d[0], d.d[3]) +
                 Ops::mul(s.d[1], d.d[2]);
    const V m2 = Ops::mul(s.d[3], d.d[1]) + Ops::mul(s.d[1], d.d[3]);
    const V cross = m2 + (((m0 >> kDigitBits) + m1) >> kDigitBits);
    return {Ops::mul(s.d[2], d.d[2]) + cross, Ops::mul(s.d[2], d.d[3]) + Ops::mul(s.d[3], d.d[2]),
            Ops::mul(s.d[3], d.d[3])};
  }

  // alpha (kAlpha) or v of the group's H: a FixedExp52GroupFn.
  template <bool kAlpha>
  EXACTDP_DIGITS static void group(const FixedExp52& t, const uint128* h, uint128* out) noexcept {
    Constants k;
    make_constants(t, k);
    typename Ops::Planes planes;
    Ops::load_planes(t, planes);
    for (unsigned first = 0; first < kVectors; first += kInFlight) {
      Inputs in[kInFlight];
      Quad w[kInFlight];
#pragma GCC unroll 8
      for (unsigned l = 0; l < kInFlight; ++l) in[l] = load_inputs(h + Ops::kLanes * (first + l));
      horner(k, in, w);
#pragma GCC unroll 8
      for (unsigned l = 0; l < kInFlight; ++l) {
        const Quad d = full_exponent(k, in[l], w[l]);
        Quad s, s_biased;
        select_sixteenth(planes, in[l].index, s, s_biased);
        store_result<kAlpha>(minus_columns(s_biased.d, mul3(s, d)), in[l].n, out + Ops::kLanes * (first + l));
      }
    }
  }
};

}  // namespace exactdp::internal::fixed_exp52_digits

#undef EXACTDP_DIGITS_INLINE
#undef EXACTDP_DIGITS
#endif
