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
// 16-entry pass (a batch selects its group's 32 entries at once: select_group), a shift; no
// branch, no secret-dependent address.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <exactdp/samplers/int128.h>

namespace exactdp::internal {

inline constexpr unsigned kFixedExpTailDegree = 8;  // P's degree
inline constexpr long kFixedExpErrorLog2 = -75;
inline constexpr unsigned kFixedExpInputFractionBits = 117;
inline const uint128 kFixedOne = uint128{1} << 127;

struct FixedExpTables;

// selected[s] = t.exp2_sixteenth[index[s]] for s < kFixedSelectGroup (index[s] < 16), reading
// every entry or permuting registers: no branch, no secret-dependent address.
inline constexpr std::size_t kFixedSelectGroup = 32;
using FixedSelectGroup = void (*)(const FixedExpTables& t, const std::uint32_t* index, uint128* selected);

struct FixedExpTables {
  uint128 ln2 = 0;                         // ln 2 in Q1.127
  alignas(32) uint128 exp2_sixteenth[16];  // 2^-(i/16), i < 16, Q1.127
  std::uint64_t tail[kFixedExpTailDegree + 1];  // 1 / ((j+3)! 16^j), Q0.64
  // The same entries by 32-bit word: sixteenth_words[d][i] = bits 32 d .. 32 d + 31 of entry i.
  alignas(32) std::uint32_t sixteenth_words[4][16];
  // The group select: AVX2 register permutes (fixed_exp_group.cc) where the CPU has them, else
  // fixed_select16 once per element; both give exactly the entries.
  FixedSelectGroup select_group = nullptr;
};

// The tables, rounded to nearest with MPFR (built once per sampler; deterministic).
[[nodiscard]] FixedExpTables make_fixed_exp_tables();

// floor(a b / 2^127) for a, b <= 2^127: the Q1.127 product rounded down (four 64 x 64 -> 128-bit
// multiplications; exact floor). With a = a1 2^64 + a0, b = b1 2^64 + b0 (a1, b1 <= 2^63):
//   m1 = a1 b0 + floor(a0 b0 / 2^64)        (< 2^127 + 2^64: no wrap),
//   m2 = a0 b1 + (m1 mod 2^64)              (< 2^127 + 2^64),
// so floor(a b / 2^64) = a1 b1 2^64 + m1 + a0 b1 = (a1 b1 + floor(m1 / 2^64)) 2^64 + m2, and
// floor(a b / 2^127) = 2 (a1 b1 + floor(m1 / 2^64) + floor(m2 / 2^64)) + bit 63 of m2.
// (Three carried additions instead of five: the same value, fewer instructions.)
[[nodiscard]] inline uint128 fixed_mul(uint128 a, uint128 b) noexcept {
  const auto a1 = static_cast<std::uint64_t>(a >> 64), a0 = static_cast<std::uint64_t>(a);
  const auto b1 = static_cast<std::uint64_t>(b >> 64), b0 = static_cast<std::uint64_t>(b);
  const uint128 m1 = uint128{a1} * b0 + static_cast<std::uint64_t>((uint128{a0} * b0) >> 64);
  const uint128 m2 = uint128{a0} * b1 + static_cast<std::uint64_t>(m1);
  const uint128 top = uint128{a1} * b1 + static_cast<std::uint64_t>(m1 >> 64) + static_cast<std::uint64_t>(m2 >> 64);
  return (top << 1) | (static_cast<std::uint64_t>(m2) >> 63);
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

// The table index i of H (its four bits after the binary point of h = H / 2^117).
[[nodiscard]] inline std::uint32_t fixed_exp2_index(uint128 h) noexcept {
  return static_cast<std::uint32_t>(h >> (kFixedExpInputFractionBits - 4)) & 15;
}

// 2^-(H / 2^117) in Q1.127, H < 2^122, given sixteenth = t.exp2_sixteenth[fixed_exp2_index(H)]
// (see above for the error bound).
[[gnu::always_inline]] inline uint128 fixed_exp2_neg_at(uint128 h, const FixedExpTables& t,
                                                        uint128 sixteenth) noexcept {
  constexpr unsigned kFraction = kFixedExpInputFractionBits;
  const auto n = static_cast<unsigned>(h >> kFraction) & 31;
  const uint128 r = (h & ((uint128{1} << (kFraction - 4)) - 1)) << (127 - kFraction);  // Q1.127, exact
  const uint128 rho = fixed_mul(r, t.ln2);
  const uint128 rho2 = fixed_mul(rho, rho);
  const auto sigma = static_cast<std::uint64_t>(rho >> 59);  // 16 rho in Q0.64, rounded down
  std::uint64_t p = t.tail[kFixedExpTailDegree];
#pragma GCC unroll 8
  for (unsigned j = kFixedExpTailDegree; j-- > 0;) p = t.tail[j] - fixed_mul64(sigma, p);
  const std::uint64_t cube = fixed_mul64(fixed_mul64(sigma, sigma), sigma);
  const uint128 tail = uint128{fixed_mul64(cube, p)} << 51;  // sigma^3 P / 2^12 in Q1.127
  const uint128 e = kFixedOne - rho + (rho2 >> 1) - tail;     // exp(-rho)
  const uint128 v = fixed_mul(e, sixteenth);
  // v >> n for n < 32, branch-free (register shifts by a count do not depend on the count's value).
  const auto v1 = static_cast<std::uint64_t>(v >> 64), v0 = static_cast<std::uint64_t>(v);
  const std::uint64_t low = (v0 >> n) | ((v1 << 1) << (63 - n));
  return (uint128{v1 >> n} << 64) | low;
}

// 2^-(H / 2^117) in Q1.127, H < 2^122: the entry selected by a masked pass.
[[gnu::always_inline]] inline uint128 fixed_exp2_neg(uint128 h, const FixedExpTables& t) noexcept {
  return fixed_exp2_neg_at(h, t, fixed_select16(t.exp2_sixteenth, fixed_exp2_index(h)));
}

// The group select, one fixed_select16 per element (any CPU).
void fixed_select_group_portable(const FixedExpTables& t, const std::uint32_t* index, uint128* selected) noexcept;
// The fastest group select this CPU runs (fixed_exp_group.cc); make_fixed_exp_tables stores it.
[[nodiscard]] FixedSelectGroup best_fixed_select_group() noexcept;

}  // namespace exactdp::internal
