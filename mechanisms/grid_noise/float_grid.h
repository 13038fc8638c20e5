// float_grid.h — exact conversions between IEEE 754 binary floats (double, float) and the integer
// points of the grid g Z, g = 2^-k (docs/REAL_VALUED.md, "The grid").
//
// Every finite float is a dyadic rational (-1)^s m 2^e with an integer significand m < 2^P
// (P = 53 for double, 24 for float). These functions read s, m and e from the BIT PATTERN
// (std::bit_cast; no frexp, no floating-point operation on the value) and compute with integers
// only (64/128-bit, GMP past the fast path), so both directions are exact:
//
//   grid_index(x, k)       n = round_half_even(x / g) = round_half_even(s m 2^(e + k)): the grid
//                          point nearest x, ties to the even index. -0.0 and +0.0 give 0;
//                          subnormals are decoded with their own (unnormalised) significand.
//   encode_grid_value(v,k) the float nearest v g = v 2^-k, ties to even (IEEE 754
//                          roundTiesToEven), EXCEPT past the largest finite float: there the
//                          result is +-the largest finite float, never +-inf. 0 gives +0.0.
//                          It is EXACT (no rounding at all) when v 2^-k is representable, i.e.
//                          when |v| / 2^tz(v) < 2^P (tz: trailing zero bits of v) and the value
//                          lies in the float's range (normal, or a multiple of the least
//                          subnormal 2^-1074 / 2^-149); in particular whenever |v| < 2^P and
//                          -k >= the least exponent (-1074 for double, -149 for float) and
//                          |v| 2^-k <= the largest finite float.
//
// double and float appear here only as storage types whose bit patterns are
// decoded and encoded exactly (std::bit_cast and integer operations); no floating-point
// arithmetic is done on any value.
// Fast path: grid_index_fast succeeds when |n| < 2^62 (the int64 range of the noise batch, with
// room for n + Z in 128 bits); otherwise grid_index_wide gives n as a GMP integer. Both are the
// same function of x (tests compare them with an independent mpq computation).
// NaN and +-inf have no grid point: is_finite_bits() says which patterns are refused.
//
// Granularity exponents: |k| <= kMaxGranularityExponent (every shift fits comfortably in a long).
#pragma once

#include <gmpxx.h>

#include <bit>
#include <cstddef>
#include <cstdint>

namespace exactdp::mechanisms {

inline constexpr long kMaxGranularityExponent = 4096;

// The layout of a binary float: P - 1 stored fraction bits, the exponent field, and the exponent
// of the least subnormal (the unit of the subnormal significand).
template <class Float>
struct FloatLayout;
template <>
struct FloatLayout<double> {
  using Bits = std::uint64_t;
  static constexpr unsigned kFractionBits = 52;
  static constexpr unsigned kExponentBits = 11;
  static constexpr long kLeastExponent = -1074;  // 2^-1074, the least subnormal
  static constexpr long kMaxExponent = 1023;      // the largest finite is < 2^1024
};
template <>
struct FloatLayout<float> {
  using Bits = std::uint32_t;
  static constexpr unsigned kFractionBits = 23;
  static constexpr unsigned kExponentBits = 8;
  static constexpr long kLeastExponent = -149;
  static constexpr long kMaxExponent = 127;
};

// The decoded value of a finite float: (-1)^negative * significand * 2^exponent.
struct DyadicFloat {
  bool negative = false;
  std::uint64_t significand = 0;  // < 2^P
  long exponent = 0;
};

// False for NaN and +-inf (exponent field all ones).
template <class Float>
[[nodiscard]] constexpr bool is_finite_bits(Float x) noexcept {
  using L = FloatLayout<Float>;
  const auto bits = std::bit_cast<typename L::Bits>(x);
  const auto field = (bits >> L::kFractionBits) & ((typename L::Bits{1} << L::kExponentBits) - 1);
  return field != (typename L::Bits{1} << L::kExponentBits) - 1;
}

// True when every x[i], i < n, is finite: one branch-free pass that compilers vectorize (each
// pattern's exponent field plus one reaches the top bit exactly when the field is all ones).
template <class Float>
[[nodiscard]] bool all_finite_bits(const Float* x, std::size_t n) noexcept {
  using L = FloatLayout<Float>;
  using Bits = typename L::Bits;
  constexpr Bits kField = ((Bits{1} << L::kExponentBits) - 1) << L::kFractionBits;
  auto top = [&](std::size_t i) { return (std::bit_cast<Bits>(x[i]) & kField) + (Bits{1} << L::kFractionBits); };
  Bits any = 0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) any |= (top(i) | top(i + 1)) | (top(i + 2) | top(i + 3));  // 4 at a time
  for (; i < n; ++i) any |= top(i);
  return (any >> (sizeof(Bits) * 8 - 1)) == 0;
}

// True for NaN (for error messages: "NaN" or "inf").
template <class Float>
[[nodiscard]] constexpr bool is_nan_bits(Float x) noexcept {
  using L = FloatLayout<Float>;
  const auto bits = std::bit_cast<typename L::Bits>(x);
  return !is_finite_bits(x) && (bits & ((typename L::Bits{1} << L::kFractionBits) - 1)) != 0;
}

// Sign, significand and exponent of a finite float, from its bits (exact).
template <class Float>
[[nodiscard]] constexpr DyadicFloat decode_float(Float x) noexcept {
  using L = FloatLayout<Float>;
  const auto bits = std::bit_cast<typename L::Bits>(x);
  const auto fraction = static_cast<std::uint64_t>(bits & ((typename L::Bits{1} << L::kFractionBits) - 1));
  const auto field = static_cast<long>((bits >> L::kFractionBits) & ((typename L::Bits{1} << L::kExponentBits) - 1));
  DyadicFloat d;
  d.negative = (bits >> (L::kFractionBits + L::kExponentBits)) != 0;
  d.significand = field == 0 ? fraction : (fraction | (std::uint64_t{1} << L::kFractionBits));
  d.exponent = (field == 0 ? 1 : field) + L::kLeastExponent - 1;
  return d;
}

// round_half_even(x / 2^-k) when its magnitude is below 2^62; false otherwise (then use
// grid_index_wide). x must be finite.
template <class Float>
[[nodiscard]] bool grid_index_fast(Float x, long k, std::int64_t& n) noexcept;
// round_half_even(x / 2^-k) exactly, any size. x must be finite.
template <class Float>
void grid_index_wide(Float x, long k, mpz_class& n);

// The float nearest v 2^-k (ties to even), saturated at +-the largest finite float.
template <class Float>
[[nodiscard]] Float encode_grid_value(bool negative, std::uint64_t magnitude, long k) noexcept;
template <class Float>
[[nodiscard]] Float encode_grid_value(const mpz_class& v, long k);

// grid_index_fast, the draw added on 128-bit integers and encode_grid_value in one call (the
// grid noise's per-coordinate fast path): y = the float nearest (round_half_even(x / 2^-k) +
// draw) 2^-k. False (y unset) when x is past grid_index_fast's range.
template <class Float>
[[nodiscard]] bool add_on_grid_fast(Float x, long k, std::int64_t draw, Float& y) noexcept;

// add_on_grid_fast on x[i], draws[i] -> y[i] for i = 0, 1, ... (each x[i] read before y[i] is
// written: y may be x): returns count, or the first i whose x[i] is past the fast path (y[i]
// unset, the rest untouched).
template <class Float>
[[nodiscard]] std::size_t add_on_grid_fast_run(const Float* x, long k, const std::int64_t* draws, Float* y,
                                               std::size_t count) noexcept;

}  // namespace exactdp::mechanisms
