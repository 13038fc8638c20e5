// internal/fixed_exp.h — exp(-g) in 128-bit fixed point, branch-free, with a proven error bound
// (not installed): the acceptance probability of the hardened rejection method
// (internal/hardened_rejection.h). Nothing here uses floating point.
//
// Numbers: Q1.127, an unsigned 128-bit v standing for v / 2^127 (so 1 = 2^127).
// Input: G < 2^121 standing for g = G / 2^117 (0 <= g < 16).
// Method: g = n + i/16 + r with n = floor(g) < 16, i < 16, 0 <= r < 1/16 (bits of G), and
//   exp(-g) = exp(-n) * exp(-i/16) * exp(-r),
// the first two selected from tables of 16 by a full masked pass (no secret address), the last
// the Taylor polynomial of degree kFixedExpDegree = 12 by Horner's rule:
//   p_12 = 1/12!,  p_k = 1/k! - r p_(k+1)  (k = 11 .. 0),  exp(-r) ~ p_0,
// where every p_k lies in [0, 1/k!] (an alternating series with falling terms), so the
// subtractions never wrap.
// Error (docs/HARDENED.md, "The rejection method"): every table entry and coefficient is rounded
// to nearest (error <= 2^-128), every product rounded down (error < 2^-127), so
//   Taylor remainder  r^13 / 13! < 2^-52 / 6227020800 < 2^-84.5,
//   Horner rounding   < (2^-128 + 2^-127) / (1 - 1/16) < 2^-126,
//   two products      < 2 (2^-126 + 2^-128 + 2^-127) < 2^-123,
// hence |fixed_exp_neg(G) / 2^127 - exp(-G / 2^117)| < 2^-84 (kFixedExpErrorLog2), checked against
// MPFR at random and extreme inputs by tests/samplers/fixed_exp_test.cc.
// Time: fixed (4 products of 4 word multiplications, 12 Horner steps, two 16-entry passes); no
// branch, no secret-dependent address.
#pragma once

#include <cstdint>

#include <exactdp/samplers/int128.h>

namespace exactdp::internal {

inline constexpr unsigned kFixedExpDegree = 12;
inline constexpr long kFixedExpErrorLog2 = -84;
inline constexpr unsigned kFixedExpInputFractionBits = 117;
inline const uint128 kFixedOne = uint128{1} << 127;

struct FixedExpTables {
  uint128 exp_integer[16];     // exp(-n), n < 16
  uint128 exp_sixteenth[16];   // exp(-i/16), i < 16
  uint128 inverse_factorial[kFixedExpDegree + 1];  // 1/k!
};

// The tables, rounded to nearest with MPFR (built once per sampler; deterministic).
[[nodiscard]] FixedExpTables make_fixed_exp_tables();

// floor(a b / 2^127) for a, b <= 2^127: the Q1.127 product rounded down (four 64 x 64 -> 128-bit
// multiplications; exact floor).
[[nodiscard]] inline uint128 fixed_mul(uint128 a, uint128 b) noexcept {
  const auto a1 = static_cast<std::uint64_t>(a >> 64), a0 = static_cast<std::uint64_t>(a);
  const auto b1 = static_cast<std::uint64_t>(b >> 64), b0 = static_cast<std::uint64_t>(b);
  const uint128 low = uint128{a0} * b0;
  const uint128 cross1 = uint128{a1} * b0;
  const uint128 cross2 = uint128{a0} * b1;
  const uint128 high = uint128{a1} * b1;
  const uint128 middle = (low >> 64) + static_cast<std::uint64_t>(cross1) + static_cast<std::uint64_t>(cross2);
  const uint128 top = high + (cross1 >> 64) + (cross2 >> 64) + (middle >> 64);  // floor(ab / 2^128)
  return (top << 1) | ((middle >> 63) & 1);
}

// table[index] for index < 16, reading all 16 entries (masks, no secret address or branch).
[[nodiscard]] inline uint128 fixed_select16(const uint128* table, std::uint64_t index) noexcept {
  uint128 out = 0;
  for (std::uint64_t k = 0; k < 16; ++k) {
    const std::uint64_t equal = ((k ^ index) - 1) >> 63;  // 1 iff k == index (both < 16)
    const uint128 mask = uint128{0} - equal;
    out |= table[k] & mask;
  }
  return out;
}

// exp(-G / 2^117) in Q1.127, G < 2^121 (see above for the error bound).
[[nodiscard]] inline uint128 fixed_exp_neg(uint128 g, const FixedExpTables& t) noexcept {
  const auto n = static_cast<std::uint64_t>(g >> kFixedExpInputFractionBits) & 15;
  const auto i = static_cast<std::uint64_t>(g >> (kFixedExpInputFractionBits - 4)) & 15;
  const uint128 r = (g & ((uint128{1} << (kFixedExpInputFractionBits - 4)) - 1)) << (127 - kFixedExpInputFractionBits);
  uint128 p = t.inverse_factorial[kFixedExpDegree];
  for (unsigned k = kFixedExpDegree; k-- > 0;) p = t.inverse_factorial[k] - fixed_mul(r, p);
  return fixed_mul(fixed_mul(p, fixed_select16(t.exp_integer, n)), fixed_select16(t.exp_sixteenth, i));
}

}  // namespace exactdp::internal
