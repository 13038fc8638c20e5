// internal/fixed_exp52.h — 2^-h as exact integer arithmetic on 52-bit limbs, with a proven error
// bound (not installed): the acceptance alpha of the hardened rejection method
// (internal/hardened_rejection.h). Nothing here uses floating point.
//
// Input: H < 2^122 standing for h = H / 2^117 (0 <= h < 32). Output alpha < 2^80, alpha / 2^80 ~ 2^-h.
// Method (docs/HARDENED.md, "The fixed-point acceptance"): h = n + i/16 + r (bits of H: n the
// integer part, i the next four bits, r = R / 2^117 with R = H mod 2^113, so r < 1/16), and
// 2^-h = 2^-n 2^-(i/16) 2^-r. r is split into r1 = floor(R / 2^61) < 2^52 (r_hi = r1 / 2^56, exact)
// and r0 = floor(R / 2^9) mod 2^52 (r_lo = r - r_hi < 2^-56, r0 = floor(2^108 r_lo)); 2^-r_hi is
// P(r_hi) = sum_{k <= 8} (-1)^k b_k r_hi^k, the Taylor series of 2^-x to x^12 economised to degree 8
// on [0, 1/16] (Chebyshev; fixed_exp52.cc), as b_0 (1 - r_hi Q(r_hi)) by Horner in r_hi (ln 2 is in
// the coefficients: no product forms r ln 2), and 2^-r_lo = 1 - ln(2) r_lo to 2^-113:
//   q = A_8;  q = A_k - floor(r1 q / 2^52)        k = 7 .. 5   (one limb: q < 2^52, scale 2^(81 - 4k))
//   w = B_4 - floor(r1 q / 2^29)                              (two limbs from here on: scale 2^88)
//   w = B_k - floor(r1 w / 2^52)                   k = 3 .. 1   (scale 2^(104 - 4k))
//   d = floor(r1 w / 2^52)                                     (~ 2^104 r_hi Q(r_hi))
//   c = floor(L r0 / 2^56)                                     (~ 2^104 ln(2) r_lo)
//   d = d + c - floor(c floor(d / 2^52) / 2^52)                (~ 2^104 (1 - 2^-r))
//   v = S_i - mul3(S_i, d)                                     (~ 2^104 2^-(i/16) P(r_hi) 2^-r_lo)
//   alpha = floor(v / 2^(24 + n))                              (~ 2^80 2^-h)
// with A_k = round(2^(81 - 4k) b_k / b_0), B_k = round(2^(104 - 4k) b_k / b_0), L = round(2^52 ln 2),
// S_i = round(2^104 2^-(i/16) b_0) (b_0 = 1 - 2^-76.26 < 1), and for a = a1 2^52 + a0, b = b1 2^52 + b0
// (52-bit limbs) mul3(a, b) = a1 b1 + floor((a1 b0 + a0 b1) / 2^52) (the a0 b0 term dropped:
// within 2 of a b / 2^104, below it). Every product has r1, L or a limb as one factor: one 64-bit
// product a step on 64-bit words (mulx; r1 and L held shifted left by 12 and 8 so that a floor by
// 2^52 or 2^56 is a product's high word), two for a two-limb step, three for mul3: 17 a value
// (42 before). On AVX-512 IFMA a one-limb step is one vpmadd52huq, a two-limb step three, mul3
// six (25 a value, eight lanes a vector). On AVX2 without IFMA (fixed_exp52_avx2.cc) every number
// is held as 26-bit digits, a product of two digits one vpmuludq: 68 a value, four lanes a vector;
// with AVX-512F and no IFMA (fixed_exp52_avx512.cc) the same digits, eight lanes a vector.
// Every Horner value lies in [0, its constant] (the
// constants are checked to make that so: tests/samplers/fixed_exp52_test.cc), so no subtraction
// wraps; every step is an exact integer function, so every evaluation gives the same bits
// (tests/samplers/fixed_exp52_test.cc runs them on the same inputs, and against the definition).
// S_i is taken by a masked pass over the 16 entries or a register permute (the AVX2 and IFMA
// groups): no secret-dependent address, no branch.
// Error (docs/HARDENED.md): |P(x) - 2^-x| < 2^-76.26 on [0, 1/16] (the economisation's steps and the
// Taylor remainder); the one-limb chain leaves q within 5 units 2^-61 of its polynomial, damped by
// r_hi^5 < 2^-20 (5 2^-81); the two-limb floors, L, the S_i and mul3 add below 2^-100. So
// |v / 2^104 - 2^-(i/16 + r)| < 0.993 2^-76 (kFixedExp52ErrorLog2), and |alpha - 2^80 2^-h| < 2^4
// 0.993 + 1 < 17 (kFixedExp52AlphaErrorUnits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/lane_words.h>

namespace exactdp::internal {

inline constexpr unsigned kFixedExp52Degree = 8;       // b_0 .. b_8
inline constexpr unsigned kFixedExp52NarrowLast = 5;   // one-limb steps k = 9 .. 5, two limbs from k = 4 on
inline constexpr unsigned kFixedExp52TransitionShift = 29;
inline constexpr long kFixedExp52ErrorLog2 = -76;      // v's error before alpha's floor
inline constexpr unsigned kFixedExp52AlphaErrorUnits = 17;  // |alpha - 2^80 2^-h| < 17 (h as given)
inline constexpr unsigned kFixedExp52InputFractionBits = 117;
inline constexpr std::uint64_t kLimb52 = (std::uint64_t{1} << 52) - 1;
inline constexpr std::size_t kFixedExp52Group = 32;
inline constexpr unsigned kFixedExp52DigitBits = 26;  // the AVX2 and AVX-512F groups' digits

// The scales of the Horner values: q_k in units 2^-(81 - 4k) (one limb), w_k in units 2^-(104 - 4k).
[[nodiscard]] constexpr unsigned exp52_narrow_scale(unsigned k) noexcept { return 81 - 4 * k; }
[[nodiscard]] constexpr unsigned exp52_wide_scale(unsigned k) noexcept { return 104 - 4 * k; }

struct FixedExp52;
// alpha[s] for H[s], s < kFixedExp52Group.
using FixedExp52GroupFn = void (*)(const FixedExp52& t, const uint128* h, uint128* alpha);

struct FixedExp52 {
  std::uint64_t narrow[kFixedExp52Degree + 1] = {};  // A_k (k >= kFixedExp52NarrowLast used)
  uint128 wide[kFixedExp52NarrowLast] = {};          // B_k (1 <= k <= 4 used)
  std::uint64_t ln2 = 0;                             // L = round(2^52 ln 2)
  alignas(32) uint128 sixteenth[16] = {};
  // The same constants as 52-bit limbs (limb 0 least significant), for the vector path.
  std::uint64_t wide_limbs[kFixedExp52NarrowLast][2] = {};
  alignas(64) std::uint64_t sixteenth_limbs[2][16] = {};
  // Word w of S_e (32 bits, least significant first) broadcast to four lanes, for the portable select.
  alignas(16) WordLanes sixteenth_lanes[16][4] = {};
  // The same constants as 26-bit digits (digit d = bits 26 d .. 26 d + 25, least significant first),
  // for the AVX2 and AVX-512F groups (fixed_exp52_avx2.cc, fixed_exp52_avx512.cc), made once here
  // rather than cut out of the 128-bit values on every group: digit d of B_k, and of S_e as 32-bit
  // (vpermd planes) and 64-bit (vpermt2q planes) words.
  std::uint64_t wide_digits[kFixedExp52NarrowLast][4] = {};
  alignas(64) std::uint32_t sixteenth_digits32[4][16] = {};
  alignas(64) std::uint64_t sixteenth_digits64[4][16] = {};
  FixedExp52GroupFn group = nullptr;  // the fastest exact group evaluation this CPU runs
};

// The constants, rounded to nearest with MPFR (deterministic), and the group evaluation.
[[nodiscard]] FixedExp52 make_fixed_exp52();

// table[index] for index < 16, reading all 16 entries (eight 32-bit lanes, two entries at a time,
// kept where a counter equals the index: a mask, no branch, no secret address). 32-byte aligned.
[[nodiscard]] inline uint128 select16(const uint128* table, std::uint32_t index) noexcept {
  using Lanes = std::uint32_t __attribute__((vector_size(32)));
  const Lanes want = {index, index, index, index, index, index, index, index};
  const Lanes two = {2, 2, 2, 2, 2, 2, 2, 2};
  Lanes at = {0, 0, 0, 0, 1, 1, 1, 1};
  Lanes acc = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma GCC unroll 8
  for (unsigned k = 0; k < 16; k += 2) {
    Lanes pair;
    std::memcpy(&pair, table + k, sizeof pair);
    acc |= pair & (Lanes)(at == want);  // NOLINT: a vector cast of the same size
    at += two;
  }
  // acc holds the kept entry in the 32-bit lanes 0-3 or 4-7: as 64-bit words, low, high, low, high.
  using Words = std::uint64_t __attribute__((vector_size(32)));
  Words words;
  std::memcpy(&words, &acc, sizeof words);
  return (uint128{words[1] | words[3]} << 64) | (words[0] | words[2]);
}

// The parts of H: n = floor(h), i (the next four bits), r1 = floor(R / 2^61), r0 = floor(R / 2^9) mod 2^52.
[[nodiscard]] inline unsigned exp52_n(uint128 h) noexcept {
  return static_cast<unsigned>(h >> kFixedExp52InputFractionBits) & 31;
}
[[nodiscard]] inline std::uint32_t exp52_i(uint128 h) noexcept {
  return static_cast<std::uint32_t>(h >> (kFixedExp52InputFractionBits - 4)) & 15;
}
[[nodiscard]] inline std::uint64_t exp52_r1(uint128 h) noexcept { return static_cast<std::uint64_t>(h >> 61) & kLimb52; }
[[nodiscard]] inline std::uint64_t exp52_r0(uint128 h) noexcept { return static_cast<std::uint64_t>(h >> 9) & kLimb52; }

// floor(v / 2^s) for v < 2^104 and s < 64, branch-free (shifts by a register count).
[[nodiscard]] inline uint128 shift_right_small(uint128 v, unsigned s) noexcept {
  const auto v1 = static_cast<std::uint64_t>(v >> 64), v0 = static_cast<std::uint64_t>(v);
  return (uint128{v1 >> s} << 64) | ((v0 >> s) | ((v1 << 1) << (63 - s)));
}

// floor(x y / 2^64): the high word of a 64 x 64 -> 128-bit product (mulx).
[[nodiscard]] inline std::uint64_t high_word(std::uint64_t x, std::uint64_t y) noexcept {
  return static_cast<std::uint64_t>((uint128{x} * y) >> 64);
}

// floor(r1 w / 2^52) for w < 2^104 given r1_12 = r1 2^12 (< 2^64): with w = w1 2^64 + w0,
// floor(r1_12 w / 2^64) = r1_12 w1 + floor(r1_12 w0 / 2^64), two products (w1 < 2^40).
[[nodiscard]] inline uint128 mul_r1(std::uint64_t r1_12, uint128 w) noexcept {
  return uint128{r1_12} * static_cast<std::uint64_t>(w >> 64) + high_word(r1_12, static_cast<std::uint64_t>(w));
}

// mul3(a, b) = a1 b1 + floor((a1 b0 + a0 b1) / 2^52) for a, b < 2^104 in 52-bit limbs: three products.
[[nodiscard]] inline uint128 mul3(uint128 a, uint128 b) noexcept {
  const std::uint64_t a0 = static_cast<std::uint64_t>(a) & kLimb52, a1 = static_cast<std::uint64_t>(a >> 52);
  const std::uint64_t b0 = static_cast<std::uint64_t>(b) & kLimb52, b1 = static_cast<std::uint64_t>(b >> 52);
  return uint128{a1} * b1 + ((uint128{a1} * b0 + uint128{a0} * b1) >> 52);
}

// v[l] = S_i 2^-r in units 2^-104 for h[l] given s[l] = S_i (the steps above), l < N, on 64-bit
// words. The N lanes go through each step together: independent chains of products the
// processor overlaps.
template <unsigned N>
[[gnu::always_inline]] inline void exp52_v_lanes(const uint128* h, const FixedExp52& t, const uint128* s,
                                                 uint128* v) noexcept {
  std::uint64_t r1_12[N], q[N];
  uint128 w[N];
#pragma GCC unroll 4
  for (unsigned l = 0; l < N; ++l) {
    r1_12[l] = exp52_r1(h[l]) << 12;
    q[l] = t.narrow[kFixedExp52Degree];
  }
  // Counted up with j: GCC 12 ignores the unroll pragma on a `k-- > m` loop in a template.
#pragma GCC unroll 10
  for (unsigned j = 1; j <= kFixedExp52Degree - kFixedExp52NarrowLast; ++j) {  // k = 7 .. 5
    const unsigned k = kFixedExp52Degree - j;
#pragma GCC unroll 4
    for (unsigned l = 0; l < N; ++l) q[l] = t.narrow[k] - high_word(r1_12[l], q[l]);
  }
#pragma GCC unroll 4
  for (unsigned l = 0; l < N; ++l) {
    w[l] = t.wide[kFixedExp52NarrowLast - 1] - ((uint128{r1_12[l]} * q[l]) >> (kFixedExp52TransitionShift + 12));
  }
#pragma GCC unroll 4
  for (unsigned j = 2; j < kFixedExp52NarrowLast; ++j) {  // k = 3 .. 1
    const unsigned k = kFixedExp52NarrowLast - j;
#pragma GCC unroll 4
    for (unsigned l = 0; l < N; ++l) w[l] = t.wide[k] - mul_r1(r1_12[l], w[l]);
  }
#pragma GCC unroll 4
  for (unsigned l = 0; l < N; ++l) {
    const uint128 d = mul_r1(r1_12[l], w[l]);
    const std::uint64_t c = high_word(t.ln2 << 8, exp52_r0(h[l]));
    const uint128 d_all = d + (c - high_word(c << 12, static_cast<std::uint64_t>(d >> 52)));
    v[l] = s[l] - mul3(s[l], d_all);
  }
}

// v = S_i 2^-r for one h (exp52_v_lanes with one lane).
[[gnu::always_inline]] inline uint128 exp52_v(uint128 h, const FixedExp52& t, uint128 sixteenth) noexcept {
  uint128 v;
  exp52_v_lanes<1>(&h, t, &sixteenth, &v);
  return v;
}

// alpha = floor(2^80 2^-h) as defined above (h = H / 2^117, H < 2^122).
[[gnu::always_inline]] inline uint128 fixed_exp52_alpha(uint128 h, const FixedExp52& t) noexcept {
  const uint128 v = exp52_v(h, t, select16(t.sixteenth, exp52_i(h)));
  return shift_right_small(v, 24 + exp52_n(h));
}

// S_i (i = index[s] < 16) for s < kFixedExp52Group, four i at a time in the lanes of 16-byte
// vectors (fixed_exp52.cc): the portable group's select where the CPU lacks AVX2.
void select_sixteenths_portable(const FixedExp52& t, const std::uint32_t* index, uint128* s) noexcept;
// The group evaluation one H at a time (any CPU); the same values as the IFMA one.
void fixed_exp52_group_portable(const FixedExp52& t, const uint128* h, uint128* alpha) noexcept;
// The IFMA group evaluation where the CPU has AVX-512 IFMA, else nullptr (for the tests).
[[nodiscard]] FixedExp52GroupFn fixed_exp52_group_ifma() noexcept;
// The AVX2 group evaluation (26-bit digits, vpmuludq; fixed_exp52_avx2.cc) where the CPU has AVX2
// and EXACTDP_CPU_LEVEL allows it, else nullptr.
[[nodiscard]] FixedExp52GroupFn fixed_exp52_group_avx2() noexcept;
// The same evaluation stopped before alpha's shift: v (S_i 2^-r in units 2^-104) of each H, for the
// tests (a wrong carry moves v by a unit that alpha's floor mostly hides). nullptr without AVX2.
[[nodiscard]] FixedExp52GroupFn fixed_exp52_group_v_avx2() noexcept;
// The same digit evaluation on 512-bit vectors, eight H a vector (fixed_exp52_avx512.cc), where the
// CPU has AVX-512F and EXACTDP_CPU_LEVEL allows avx512, else nullptr; and its v, for the tests.
[[nodiscard]] FixedExp52GroupFn fixed_exp52_group_avx512() noexcept;
[[nodiscard]] FixedExp52GroupFn fixed_exp52_group_v_avx512() noexcept;

}  // namespace exactdp::internal
