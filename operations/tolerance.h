// tolerance.h — the relative tolerance of a certified computation, checked once for every face:
// its range and its cost limit (SECURITY.md, "Limits").
//
// Example:
//   const accounting::ZivOptions o = operations::checked_ziv_options(request.tolerance);
#pragma once

#include <gmpxx.h>

#include <optional>

#include <exactdp/accounting/composition_limits.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::operations {

// How a positive tolerance below 2^-10000 is refused, which the operations word differently:
//   kOutOfRange   "2^-10000 <= tolerance < 1", like 0 or 1 (calibrate, profile);
//   kBelowMinimum "tolerance >= 2^-10000", by ZivOptions::validate (convert, compose).
enum class TinyTolerance { kOutOfRange, kBelowMinimum };

// The cost limit of the tolerance: the Ziv loops' work grows about as the cube of the bits asked
// for (`convert gdp --mu 1`: 0.4 s at 10^-200, 3.3 s at 10^-500, 21 s at 10^-1000), so every
// operation refuses a tolerance below 2^-kMaxToleranceBits (about 10^-602) with LimitError
// naming "tolerance", and pure-DP composition by the gdp method, alone or among all methods
// (5.9 s at 10^-200, 24 s at 10^-300), below 2^-kMaxAllMethodsToleranceBits (about 10^-180).
inline constexpr unsigned long kMaxToleranceBits = 2000;
inline constexpr unsigned long kMaxAllMethodsToleranceBits = 600;
// Composition of event lists: accounting/composition_limits.h (2^-700, about 10^-210).
inline constexpr unsigned long kMaxEventToleranceBits = accounting::kMaxEventToleranceBits;

// ZivOptions with `tolerance` as its relative width (none: 2^-100); it must satisfy
// 2^-10000 <= tolerance < 1, else ParameterError naming "tolerance"; below 2^-max_bits it is
// refused with LimitError naming "tolerance" (the cost limit above).
[[nodiscard]] accounting::ZivOptions checked_ziv_options(const std::optional<mpq_class>& tolerance,
                                                         TinyTolerance tiny = TinyTolerance::kBelowMinimum,
                                                         unsigned long max_bits = kMaxToleranceBits);

}  // namespace exactdp::operations
