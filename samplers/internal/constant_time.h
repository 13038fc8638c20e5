// internal/constant_time.h — the branch-free building blocks of the hardened samplers.
//
// Every function here executes the same instructions and touches the same memory whatever the
// values of its secret arguments (the random bits and everything derived from them). Only
// public quantities (table sizes, widths, limb counts) decide loop counts and addresses.
// Comparisons are computed with the borrow of a subtraction (Hacker's Delight 2-13), never with
// `<` on secret words, so that no compiler can turn them into a branch or a conditional move;
// the valgrind constant-time test (tests/constant_time/ctgrind_probe.cc) checks the compiled code.
//
// Fixed-width numbers: a W-bit unsigned number is stored in L = floor(W / 64) + 1 words, least
// significant word first; the top word holds the W - 64 (L - 1) < 64 most significant bits, so
// the top bit of the top word is always clear (ct_less relies on it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::internal {

// 1 if the L-word number u is below t, else 0 (both least significant word first, both below
// 2^(64 L - 1): FixedWidth keeps the top bit of every number clear). Then u - t computed modulo
// 2^(64 L) has its top bit set exactly when u < t, so the answer is that bit: one
// subtract-with-borrow chain and a shift, with no comparison a compiler could turn into a branch.
template <unsigned L>
[[nodiscard]] inline std::uint64_t ct_less(const std::uint64_t* u, const std::uint64_t* t) noexcept {
  if constexpr (L == 1) {
    return (u[0] - t[0]) >> 63;
  } else if constexpr (L == 2) {
    const uint128 a = (static_cast<uint128>(u[1]) << 64) | u[0];
    const uint128 b = (static_cast<uint128>(t[1]) << 64) | t[0];
    return static_cast<std::uint64_t>((a - b) >> 127);
  } else {
    // Borrow chain (Hacker's Delight 2-13): the borrow out of a - b - c is the top bit of
    // (~a & b) | (~(a ^ b) & (a - b - c)).
    std::uint64_t borrow = 0;
    for (unsigned i = 0; i + 1 < L; ++i) {
      const std::uint64_t d = u[i] - t[i] - borrow;
      borrow = ((~u[i] & t[i]) | (~(u[i] ^ t[i]) & d)) >> 63;
    }
    return (u[L - 1] - t[L - 1] - borrow) >> 63;
  }
}

// value if negate == 0, -value if negate == 1 (two's complement, no branch).
[[nodiscard]] inline std::int64_t ct_negate_if(std::int64_t value, std::uint64_t negate) noexcept {
  const std::uint64_t mask = std::uint64_t{0} - negate;
  return static_cast<std::int64_t>((static_cast<std::uint64_t>(value) ^ mask) + negate);
}

// Draws a W-bit uniform number into u[0..L-1]: the first top_bits bits of the stream become the
// top word (most significant first, BitSource order), then whole 64-bit words. Always reads
// exactly W = top_bits + 64 (L - 1) bits.
template <unsigned L>
inline void draw_fixed_width(BitSource& bits, unsigned top_bits, std::uint64_t* u) {
  u[L - 1] = bits.bits(top_bits);
  for (unsigned i = L - 1; i-- > 0;) u[i] = bits.bits(64);
}

// A symmetric table draw: |Z| = #{i : u >= T_i} for a uniform W-bit u, the whole table scanned
// (T is nondecreasing, `entries` thresholds of L words each); then a fair sign bit. Reads
// W + 1 bits. Returns +-|Z|, with |Z| <= entries.
template <unsigned L>
[[nodiscard]] inline std::int64_t draw_symmetric_table(BitSource& bits, const std::uint64_t* table,
                                                       std::size_t entries, unsigned top_bits) {
  std::uint64_t u[L];
  draw_fixed_width<L>(bits, top_bits, u);
  const std::uint64_t negative = bits.bits(1);
  std::uint64_t below = 0;  // #{i : u < T_i}
  for (std::size_t i = 0; i < entries; ++i) below += ct_less<L>(u, table + i * L);
  const auto magnitude = static_cast<std::int64_t>(entries - below);
  return ct_negate_if(magnitude, negative);
}

// One Bernoulli(T / 2^W) draw: [u < T] for a fresh uniform W-bit u. Reads W bits.
template <unsigned L>
[[nodiscard]] inline std::uint64_t draw_bernoulli(BitSource& bits, const std::uint64_t* threshold,
                                                  unsigned top_bits) {
  std::uint64_t u[L];
  draw_fixed_width<L>(bits, top_bits, u);
  return ct_less<L>(u, threshold);
}

// Independent Bernoulli digits: G = sum_i 2^i [u_i < T_i] for `entries` fresh uniform W-bit u_i.
// Reads entries * W bits.
template <unsigned L>
[[nodiscard]] inline std::uint64_t draw_bernoulli_digits(BitSource& bits, const std::uint64_t* table,
                                                         std::size_t entries, unsigned top_bits) {
  std::uint64_t g = 0;
  for (std::size_t i = 0; i < entries; ++i) g |= draw_bernoulli<L>(bits, table + i * L, top_bits) << i;
  return g;
}

// f(std::integral_constant<unsigned, L>{}) for L = limbs (1, 2 or 3): one dispatch on the public
// width, so that each per-sample loop is compiled for a fixed number of words.
template <class F>
decltype(auto) with_limbs(unsigned limbs, F&& f) {
  switch (limbs) {
    case 1:
      return f(std::integral_constant<unsigned, 1>{});
    case 2:
      return f(std::integral_constant<unsigned, 2>{});
    default:
      return f(std::integral_constant<unsigned, 3>{});
  }
}

}  // namespace exactdp::internal
