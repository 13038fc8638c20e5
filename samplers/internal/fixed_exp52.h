// internal/fixed_exp52.h — 2^-h as exact integer arithmetic on 52-bit limbs, with a proven error
// bound (not installed): the acceptance alpha of the hardened rejection method
// (internal/hardened_rejection.h). Nothing here uses floating point.
//
// Numbers: Q0.104, an integer v < 2^104 standing for v / 2^104, held as two 52-bit limbs. The only
// product is mul(a, b) = floor(a b / 2^104), an exact integer function: on x86-64 CPUs with AVX-512
// IFMA eight of them run at once (vpmadd52luq / vpmadd52huq, fixed_exp52.cc, chosen at run time
// for a group), elsewhere each is four 64 x 64 -> 128-bit products on 64-bit words with one operand
// held shifted left by 24 (mul104_pre: the result is then a product's high word). Every step is an
// exact integer operation, so both give the same bits on every CPU (tests/samplers/fixed_exp52_test.cc
// runs both on the same inputs, and the word evaluation against the limb definition).
// Input: H < 2^122 standing for h = H / 2^117 (0 <= h < 32). Output alpha < 2^80, alpha / 2^80 ~ 2^-h.
// Method: h = n + i/16 + r (bits of H), R = floor(2^104 r) (r < 1/16: R < 2^100),
//   rho = mul(R, LN2)                              ~ r ln 2 < 0.0434,
//   q = D_10; q = D_k - floor(rho1 q / 2^52), k = 9 .. 6   (one limb: rho1 = floor(rho / 2^52),
//                                                  D_k = round(2^52 / (k+2)!), Q0.52),
//   p = q 2^52; p = C_k - mul(rho, p), k = 5 .. 0  ~ g(rho) = sum_{k=0..10} (-rho)^k / (k+2)!,
//   d = rho - mul(rho, mul(rho, p))                ~ 1 - exp(-rho) (the Taylor series to rho^12/12!),
//   v = S_i - mul(S_i, d)                          ~ 2^-(i/16) exp(-rho),
//   alpha = floor(v / 2^(24 + n))                  ~ 2^80 2^-h,
// LN2 = round(2^104 ln 2), C_k = round(2^104 / (k+2)!), S_i = round(2^104 2^-(i/16)) for i > 0 and
// S_0 = 2^104 - 1. Every Horner value lies in [0, C_k] (or [0, D_k]) and d in [0, rho]: no
// subtraction wraps. S_i is taken by a masked pass over the 16 entries (one at a time) or a register
// permute (IFMA group): no secret-dependent address, no branch.
// Error (docs/HARDENED.md, "The fixed-point acceptance"), in units u = 2^-104: rho within 2 u of
// r ln 2 (R's floor, LN2's rounding, the product's floor); the one-limb steps leave q within
// 2^-51.3 of its polynomial, which reaches d times rho^8 < 2^-36.2: 2^-87.5; the two-limb steps
// within 4 u; d within 2 u + 1.1 u + 2^-87.5 + the Taylor remainder rho^13 / 13! < 2^-91; v within
// 1 u (S_i) + 1 u (floor) + the error of d; so |v / 2^104 - 2^-(i/16 + r)| < 2^-87.3, and
// |alpha / 2^80 - 2^-h| < 2^-80 + 2^-87.3 (kFixedExp52ErrorLog2 bounds the part before alpha's
// floor: 2^-87).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <exactdp/samplers/int128.h>

namespace exactdp::internal {

inline constexpr unsigned kFixedExp52Degree = 10;  // C_0 .. C_10 (D_6 .. D_10 for the one-limb steps)
inline constexpr unsigned kFixedExp52WideSteps = 6;  // p_5 .. p_0 in two limbs
inline constexpr long kFixedExp52ErrorLog2 = -87;
inline constexpr unsigned kFixedExp52InputFractionBits = 117;
inline constexpr std::uint64_t kLimb52 = (std::uint64_t{1} << 52) - 1;
inline constexpr std::size_t kFixedExp52Group = 32;

struct FixedExp52;
// alpha[s] for H[s], s < kFixedExp52Group.
using FixedExp52GroupFn = void (*)(const FixedExp52& t, const uint128* h, uint128* alpha);

struct FixedExp52 {
  uint128 ln2 = 0;
  uint128 coeff[kFixedExp52Degree + 1] = {};       // C_k (k < kFixedExp52WideSteps used)
  std::uint64_t narrow[kFixedExp52Degree + 1] = {};  // D_k (k >= kFixedExp52WideSteps used)
  alignas(32) uint128 sixteenth[16] = {};
  // The same constants as 52-bit limbs (limb 0 least significant), for the vector path.
  std::uint64_t ln2_limbs[2] = {};
  std::uint64_t coeff_limbs[kFixedExp52Degree + 1][2] = {};
  alignas(64) std::uint64_t sixteenth_limbs[2][16] = {};
  FixedExp52GroupFn group = nullptr;  // the fastest exact group evaluation this CPU runs
};

// The constants, rounded to nearest with MPFR (deterministic), and the group evaluation.
[[nodiscard]] FixedExp52 make_fixed_exp52();

// floor(a b / 2^104) for a, b < 2^104: with 52-bit limbs a = a1 2^52 + a0, b = b1 2^52 + b0,
// a b = a1 b1 2^104 + (a1 b0 + a0 b1) 2^52 + a0 b0, and (a floor of a floor)
// floor(a b / 2^104) = a1 b1 + floor((a1 b0 + a0 b1 + floor(a0 b0 / 2^52)) / 2^52).
[[nodiscard]] inline uint128 mul104(uint128 a, uint128 b) noexcept {
  const std::uint64_t a0 = static_cast<std::uint64_t>(a) & kLimb52, a1 = static_cast<std::uint64_t>(a >> 52);
  const std::uint64_t b0 = static_cast<std::uint64_t>(b) & kLimb52, b1 = static_cast<std::uint64_t>(b >> 52);
  const uint128 middle = uint128{a1} * b0 + uint128{a0} * b1 + static_cast<std::uint64_t>((uint128{a0} * b0) >> 52);
  return uint128{a1} * b1 + (middle >> 52);
}

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

// The parts of H: n = floor(h), i (the next four bits), R = floor(2^104 r).
[[nodiscard]] inline unsigned exp52_n(uint128 h) noexcept {
  return static_cast<unsigned>(h >> kFixedExp52InputFractionBits) & 31;
}
[[nodiscard]] inline std::uint32_t exp52_i(uint128 h) noexcept {
  return static_cast<std::uint32_t>(h >> (kFixedExp52InputFractionBits - 4)) & 15;
}
[[nodiscard]] inline uint128 exp52_r(uint128 h) noexcept {
  return (h & ((uint128{1} << (kFixedExp52InputFractionBits - 4)) - 1)) >> (kFixedExp52InputFractionBits - 104);
}

// floor(v / 2^s) for v < 2^104 and s < 64, branch-free (shifts by a register count).
[[nodiscard]] inline uint128 shift_right_small(uint128 v, unsigned s) noexcept {
  const auto v1 = static_cast<std::uint64_t>(v >> 64), v0 = static_cast<std::uint64_t>(v);
  return (uint128{v1 >> s} << 64) | ((v0 >> s) | ((v1 << 1) << (63 - s)));
}

// floor(a b / 2^104) for a < 2^100 and b < 2^104, given a24 = a 2^24 (< 2^124): the high 128 bits
// of a24 b, on 64-bit words a24 = x1 2^64 + x0, b = y1 2^64 + y0 (x1 < 2^60, y1 < 2^40):
// floor(a24 b / 2^128) = x1 y1 + floor((x1 y0 + x0 y1 + floor(x0 y0 / 2^64)) / 2^64), whose middle sum
// stays below 2^124 + 2^104 + 2^64 (no carry out). The same integer as mul104(a, b), with no limb split.
[[nodiscard]] inline uint128 mul104_pre(uint128 a24, uint128 b) noexcept {
  const auto x0 = static_cast<std::uint64_t>(a24), x1 = static_cast<std::uint64_t>(a24 >> 64);
  const auto y0 = static_cast<std::uint64_t>(b), y1 = static_cast<std::uint64_t>(b >> 64);
  const uint128 middle = uint128{x1} * y0 + uint128{x0} * y1 + ((uint128{x0} * y0) >> 64);
  return uint128{x1} * y1 + (middle >> 64);
}

// mul104(a, q 2^52) for q < 2^52, given a24 as above: floor(a q / 2^52) = floor(a24 q / 2^76)
// = floor((x1 q + floor(x0 q / 2^64)) / 2^12), two products (x1 q < 2^112).
[[nodiscard]] inline uint128 mul104_pre_limb(uint128 a24, std::uint64_t q) noexcept {
  const auto x0 = static_cast<std::uint64_t>(a24), x1 = static_cast<std::uint64_t>(a24 >> 64);
  return (uint128{x1} * q + ((uint128{x0} * q) >> 64)) >> 12;
}

// v[l] = S_i exp(-rho) in Q0.104 for h[l] given s[l] = S_i (see above), l < N, on 64-bit words: rho
// (< 2^100) and d (< rho) are held as rho 2^24 and d 2^24 for mul104_pre, and the one-limb steps as
// floor(rho1 q / 2^52) = floor((rho1 2^12) q / 2^64), the high word of one product. The N lanes go
// through each step together: independent chains of products the processor overlaps.
template <unsigned N>
[[gnu::always_inline]] inline void exp52_v_lanes(const uint128* h, const FixedExp52& t, const uint128* s,
                                                 uint128* v) noexcept {
  uint128 rho24[N], p[N];
  std::uint64_t rho1_12[N], q[N];
#pragma GCC unroll 4
  for (unsigned l = 0; l < N; ++l) {
    const uint128 rho = mul104_pre(exp52_r(h[l]) << 24, t.ln2);
    rho24[l] = rho << 24;
    rho1_12[l] = static_cast<std::uint64_t>(rho >> 52) << 12;
    q[l] = t.narrow[kFixedExp52Degree];
  }
  // Counted up with j: GCC 12 ignores the unroll pragma on a `k-- > m` loop in a template.
#pragma GCC unroll 10
  for (unsigned j = 1; j <= kFixedExp52Degree - kFixedExp52WideSteps; ++j) {  // k = 9 .. 6
    const unsigned k = kFixedExp52Degree - j;
#pragma GCC unroll 4
    for (unsigned l = 0; l < N; ++l) {
      q[l] = t.narrow[k] - static_cast<std::uint64_t>((uint128{rho1_12[l]} * q[l]) >> 64);
    }
  }
#pragma GCC unroll 4
  for (unsigned l = 0; l < N; ++l) {
    p[l] = t.coeff[kFixedExp52WideSteps - 1] - mul104_pre_limb(rho24[l], q[l]);  // p = q 2^52 into C_5
  }
#pragma GCC unroll 10
  for (unsigned j = 2; j <= kFixedExp52WideSteps; ++j) {  // k = 4 .. 0
    const unsigned k = kFixedExp52WideSteps - j;
#pragma GCC unroll 4
    for (unsigned l = 0; l < N; ++l) p[l] = t.coeff[k] - mul104_pre(rho24[l], p[l]);
  }
#pragma GCC unroll 4
  for (unsigned l = 0; l < N; ++l) {
    const uint128 d = (rho24[l] >> 24) - mul104_pre(rho24[l], mul104_pre(rho24[l], p[l]));
    v[l] = s[l] - mul104_pre(d << 24, s[l]);
  }
}

// v = S_i exp(-rho) for one h (exp52_v_lanes with one lane).
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

// The group evaluation one H at a time (any CPU); the same values as the IFMA one.
void fixed_exp52_group_portable(const FixedExp52& t, const uint128* h, uint128* alpha) noexcept;
// The IFMA group evaluation where the CPU has AVX-512 IFMA, else nullptr (for the tests).
[[nodiscard]] FixedExp52GroupFn fixed_exp52_group_ifma() noexcept;

}  // namespace exactdp::internal
