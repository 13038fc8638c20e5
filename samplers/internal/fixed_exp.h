// internal/fixed_exp.h — 2^-h in 128-bit fixed point, branch-free, with a proven error bound
// (not installed): the acceptance probability exp(-gamma) = 2^-(gamma log2 e) of the hardened
// rejection method (internal/hardened_rejection.h), which folds log2(e) into its constant.
// Nothing here uses floating point.
//
// Numbers: Q1.127, an unsigned 128-bit v standing for v / 2^127 (so 1 = 2^127); Q0.64, a 64-bit
// v standing for v / 2^64.
// Input: H < 2^122 standing for h = H / 2^117 (0 <= h < 32).
// Method: h = n + i/16 + r (n = floor(h), i < 16, 0 <= r < 1/16: bits of H) and
//   2^-h = 2^-n * 2^-(i/16) * exp(-rho),  rho = r ln 2 < 0.0434,
// 2^-n a shift, 2^-(i/16) selected from a table of 16 by a full masked pass (no secret address),
//   exp(-rho) = 1 - rho + rho^2/2 - T,  T = rho^3 P(rho),  P(rho) = sum_{j=0..8} (-rho)^j / (j+3)!,
// rho and rho^2 in Q1.127, T in Q0.64 arithmetic on sigma = 16 rho (so that sigma^3 keeps its
// relative precision): Horner on sigma with c_j = 1 / ((j+3)! 16^j), T = sigma^3 P / 2^12. Every
// Horner value lies in [0, c_j] (an alternating series with falling terms): no subtraction wraps.
// Error (docs/HARDENED.md, "The rejection method"), all products rounded down, constants to nearest:
//   Taylor remainder  rho^12 / 12! < 2^-83,
//   T                 |error| < 2^-63.2 / 2^12 = 2^-75.2 (P to 2^-62.3, sigma^3 to 2^-62.5),
//   rho, rho^2, the table, the product and the shift  < 2^-124,
// hence |fixed_exp2_neg(H) / 2^127 - 2^-(H / 2^117)| < 2^-75 (kFixedExpErrorLog2), checked against
// MPFR at random and extreme inputs by tests/samplers/fixed_exp_test.cc.
// Time: fixed: 3 wide products (4 word multiplications each), 12 word multiplications, one
// 16-entry pass, a shift; no branch, no secret-dependent address.
#pragma once

#include <cstdint>
#include <cstring>

#include <exactdp/samplers/int128.h>

namespace exactdp::internal {

inline constexpr unsigned kFixedExpTailDegree = 8;  // P's degree
inline constexpr long kFixedExpErrorLog2 = -75;
inline constexpr unsigned kFixedExpInputFractionBits = 117;
inline const uint128 kFixedOne = uint128{1} << 127;

struct FixedExpTables {
  uint128 ln2 = 0;                         // ln 2 in Q1.127
  alignas(32) uint128 exp2_sixteenth[16];  // 2^-(i/16), i < 16, Q1.127
  std::uint64_t tail[kFixedExpTailDegree + 1];  // 1 / ((j+3)! 16^j), Q0.64
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

// floor(a b / 2^64) for Q0.64 numbers.
[[nodiscard]] inline std::uint64_t fixed_mul64(std::uint64_t a, std::uint64_t b) noexcept {
  return static_cast<std::uint64_t>((uint128{a} * b) >> 64);
}

// table[index] for index < 16, reading all 16 entries: entries k and k + 1, as eight 32-bit
// lanes, are kept where the lanes of a counter (k in the first four, k + 1 in the last four)
// compare equal to the index (a mask, no branch, no secret address). table is 32-byte aligned.
[[nodiscard]] inline uint128 fixed_select16(const uint128* table, std::uint32_t index) noexcept {
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
  const std::uint64_t high = (std::uint64_t{acc[3] | acc[7]} << 32) | (acc[2] | acc[6]);
  const std::uint64_t low = (std::uint64_t{acc[1] | acc[5]} << 32) | (acc[0] | acc[4]);
  return (uint128{high} << 64) | low;
}

// 2^-(H / 2^117) in Q1.127, H < 2^122 (see above for the error bound).
[[gnu::always_inline]] inline uint128 fixed_exp2_neg(uint128 h, const FixedExpTables& t) noexcept {
  constexpr unsigned kFraction = kFixedExpInputFractionBits;
  const auto n = static_cast<unsigned>(h >> kFraction) & 31;
  const auto i = static_cast<std::uint32_t>(h >> (kFraction - 4)) & 15;
  const uint128 r = (h & ((uint128{1} << (kFraction - 4)) - 1)) << (127 - kFraction);  // Q1.127, exact
  const uint128 rho = fixed_mul(r, t.ln2);
  const uint128 rho2 = fixed_mul(rho, rho);
  const auto sigma = static_cast<std::uint64_t>(rho >> 59);  // 16 rho in Q0.64, rounded down
  std::uint64_t p = t.tail[kFixedExpTailDegree];
  for (unsigned j = kFixedExpTailDegree; j-- > 0;) p = t.tail[j] - fixed_mul64(sigma, p);
  const std::uint64_t cube = fixed_mul64(fixed_mul64(sigma, sigma), sigma);
  const uint128 tail = uint128{fixed_mul64(cube, p)} << 51;  // sigma^3 P / 2^12 in Q1.127
  const uint128 e = kFixedOne - rho + (rho2 >> 1) - tail;     // exp(-rho)
  const uint128 v = fixed_mul(e, fixed_select16(t.exp2_sixteenth, i));
  // v >> n for n < 32, branch-free (register shifts by a count do not depend on the count's value).
  const auto v1 = static_cast<std::uint64_t>(v >> 64), v0 = static_cast<std::uint64_t>(v);
  const std::uint64_t low = (v0 >> n) | ((v1 << 1) << (63 - n));
  return (uint128{v1 >> n} << 64) | low;
}

}  // namespace exactdp::internal
