// decimal.h — decimal text for certified intervals, rounded OUTWARD, and intervals from text.
//
// decimal_lower(x, D) is a decimal number with at most D significant digits that is <= x;
// decimal_upper(x, D) one that is >= x (MPFR's mpfr_get_str rounds the digits in the direction
// asked, so each is the nearest such D-digit number). Printing an Interval with to_decimal gives
// printed lower <= lower <= true value <= upper <= printed upper (docs/DESIGN.md, "Certified accounting").
//
// Format: plain notation when the decimal exponent is in [-6, 20] ("0.38292492254802620727",
// "1234.5"), otherwise scientific with an explicit exponent ("1.2345e-100000", "6.02e+23");
// trailing zeros after the point are dropped (they do not change the value); "0" for zero;
// "inf" / "-inf" for infinite ends. The text reads back exactly with exactdp::parse_rational
// (within its limit of 10^+-100000 on the exponent).
#pragma once

#include <gmpxx.h>

#include <string>
#include <string_view>

#include <exactdp/core/interval.h>

namespace exactdp {

inline constexpr int kMaxDecimalDigits = 100'000;

// digits in [1, kMaxDecimalDigits] (std::invalid_argument otherwise).
[[nodiscard]] std::string decimal_lower(mpfr_srcptr x, int digits);
[[nodiscard]] std::string decimal_upper(mpfr_srcptr x, int digits);

struct DecimalInterval {
  std::string lower;  // <= the interval's lower end
  std::string upper;  // >= the interval's upper end
};
[[nodiscard]] DecimalInterval to_decimal(const Interval& x, int digits);
// An exact rational rounded outward to `digits` significant digits: both ends are the value
// itself when it has at most `digits` significant digits (1/1000000 prints "0.000001", not the
// ends of a binary enclosure of it), else the nearest `digits`-digit decimals below and above.
[[nodiscard]] DecimalInterval to_decimal(const mpq_class& exact, int digits);
// "[lower, upper]" with outward-rounded ends.
[[nodiscard]] std::string to_decimal_string(const Interval& x, int digits);

// The exact value of a rational as text, in the format above (plain for decimal exponents in
// [-6, 20], else scientific: 10^100000 is "1e+100000", not 100,001 digits), so the text length
// follows the number of significant digits, not the size of the exponent; a rational that is not
// a terminating decimal is printed "N/D". Reads back exactly with exactdp::parse_rational.
// This is exactdp's one exact-decimal printer: every exact value the library, the CLI and the C
// interface print goes through it.
[[nodiscard]] std::string exact_decimal(const mpq_class& value);

// A parameter echoed back: to_string ("1/2", "3") while that has at most 60 digits, else
// exact_decimal ("1e+100000" rather than 100,001 digits), so echoes stay as short as the input.
[[nodiscard]] std::string parameter_text(const mpq_class& value);

// Text read EXACTLY by exactdp::parse_rational ("1e-5", "3/2", "0.1"), then rounded outward.
// Throws ParameterError naming `parameter` for bad text.
[[nodiscard]] Interval interval_from_decimal(std::string_view parameter, std::string_view text,
                                             mpfr_prec_t precision);

}  // namespace exactdp
