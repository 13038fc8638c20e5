// rational.h — exact rational parameters from text (and from doubles), and back to text.
//
// parse_rational("sigma2", "1e-5") returns exactly 1/100000. Accepted forms (ASCII only):
//   integer           "-7", "+12"
//   fraction          "3/2", "-10/4" (integers, denominator != 0; the result is canonical: 5/-2
//                     style signs are not accepted, "-10/4" gives -5/2)
//   decimal           "0.125", ".5", "5.", "2.5E+3", "1e-5"
// Rejected, with a ParameterError naming the parameter: empty text, white space, NaN, inf, hex,
// Unicode or other non-ASCII digits, a NUL byte, trailing junk, a zero denominator.
// Limits (LimitError): at most kMaxRationalDigits digits in all and a decimal exponent of
// magnitude at most kMaxDecimalExponent, so "1e999999999" is refused at once instead of
// exhausting memory. Every result is canonical (mpq_canonicalize), so no caller ever sees a
// non-reduced fraction.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace exactdp {

inline constexpr std::size_t kMaxRationalDigits = 10'000;
inline constexpr long kMaxDecimalExponent = 100'000;

// Parses text as an exact rational; `parameter` names it in any error message.
[[nodiscard]] mpq_class parse_rational(std::string_view parameter, std::string_view text);

// Parses text as an exact integer (no fraction, no decimal point; an exponent is allowed when
// the value is an integer, e.g. "1e6").
[[nodiscard]] mpz_class parse_integer(std::string_view parameter, std::string_view text);

// The exact binary value of a finite double (0.1 gives 3602879701896397/36028797018963968).
// Throws ParameterError for NaN and infinities.
[[nodiscard]] mpq_class rational_from_double(std::string_view parameter, double value);

// "p" or "p/q" in lowest terms.
[[nodiscard]] std::string to_string(const mpq_class& value);
[[nodiscard]] std::string to_string(const mpz_class& value);

// 2^k exactly, for any k (negative k gives 1/2^-k).
[[nodiscard]] mpq_class power_of_two(long k);

// Short form for messages: the value itself if short, else its first digits and its size.
[[nodiscard]] std::string abbreviate(std::string_view text);

}  // namespace exactdp
