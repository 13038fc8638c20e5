#include <exactdp/core/rational.h>

#include <cctype>
#include <cmath>

#include <exactdp/core/errors.h>

namespace exactdp {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

[[noreturn]] void throw_syntax(std::string_view parameter, std::string_view text,
                               const std::string& why) {
  throw ParameterError(std::string(parameter),
                       std::string(parameter) + ": cannot read '" + abbreviate(text) +
                           "' as an exact rational number (" + why +
                           "; allowed forms: -7, 3/2, 0.125, 1e-5, 2.5E+3)");
}

// Reads a run of ASCII digits starting at pos; returns the end position.
std::size_t digit_run(std::string_view s, std::size_t pos) {
  while (pos < s.size() && is_digit(s[pos])) ++pos;
  return pos;
}

void check_digit_budget(std::string_view parameter, std::size_t digits) {
  if (digits > kMaxRationalDigits) {
    throw LimitError(std::string(parameter),
                     std::string(parameter) + ": " + std::to_string(digits) +
                         " digits is over the limit of " + std::to_string(kMaxRationalDigits) +
                         " digits for an exact rational parameter");
  }
}

mpz_class integer_from_digits(std::string_view digits) {
  mpz_class out;
  if (digits.empty()) return out;  // 0
  // mpz_set_str needs a NUL-terminated string; digits were checked to be ASCII 0-9.
  mpz_set_str(out.get_mpz_t(), std::string(digits).c_str(), 10);
  return out;
}

}  // namespace

std::string abbreviate(std::string_view text) {
  std::string out;
  const std::size_t shown = text.size() > 40 ? 32 : text.size();
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " characters)";
  return out;
}

namespace {

// Printable ASCII only: NUL bytes and non-ASCII characters are refused up front.
void check_characters(std::string_view parameter, std::string_view text) {
  if (text.empty()) throw_syntax(parameter, text, "empty");
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0) throw_syntax(parameter, text, "contains a NUL byte");
    if (u >= 0x80) throw_syntax(parameter, text, "contains a non-ASCII character");
  }
}

// The digits [begin, end) of text as an integer.
mpz_class digits_between(std::string_view text, std::size_t begin, std::size_t end) {
  return integer_from_digits(text.substr(begin, end - begin));
}

// "p/q" after the numerator's digits [num_begin, num_end); the '/' is at num_end.
mpq_class parse_fraction(std::string_view parameter, std::string_view text, std::size_t num_begin,
                         std::size_t num_end) {
  if (num_end == num_begin) throw_syntax(parameter, text, "no numerator before '/'");
  const std::size_t den_begin = num_end + 1;
  const std::size_t den_end = digit_run(text, den_begin);
  if (den_end == den_begin) throw_syntax(parameter, text, "no denominator after '/'");
  if (den_end != text.size()) throw_syntax(parameter, text, "unexpected characters after the denominator");
  check_digit_budget(parameter, (num_end - num_begin) + (den_end - den_begin));
  const mpz_class den = digits_between(text, den_begin, den_end);
  if (den == 0) {
    throw ParameterError(std::string(parameter),
                         std::string(parameter) + ": denominator is zero in '" + abbreviate(text) + "'");
  }
  mpq_class out(digits_between(text, num_begin, num_end), den);
  out.canonicalize();
  return out;
}

[[noreturn]] void throw_exponent_limit(std::string_view parameter, std::string_view text) {
  throw LimitError(std::string(parameter), std::string(parameter) + ": exponent in '" + abbreviate(text) +
                                               "' is over the limit: allowed |exponent| <= " +
                                               std::to_string(kMaxDecimalExponent));
}

// An optional exponent "e[+-]DIGITS" at pos (advanced past it); 0 when there is none.
long parse_exponent(std::string_view parameter, std::string_view text, std::size_t& pos) {
  if (pos >= text.size() || (text[pos] != 'e' && text[pos] != 'E')) return 0;
  ++pos;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    negative = text[pos] == '-';
    ++pos;
  }
  const std::size_t begin = pos;
  const std::size_t end = digit_run(text, pos);
  if (end == begin) throw_syntax(parameter, text, "no digits in the exponent");
  // Skip leading zeros, then bound the magnitude before converting.
  std::size_t first = begin;
  while (first + 1 < end && text[first] == '0') ++first;
  if (end - first > 7) throw_exponent_limit(parameter, text);
  long exponent = 0;
  for (std::size_t i = first; i < end; ++i) exponent = exponent * 10 + (text[i] - '0');
  if (exponent > kMaxDecimalExponent) throw_exponent_limit(parameter, text);
  pos = end;
  return negative ? -exponent : exponent;
}

// True when text[pos..] spells NaN, inf or infinity (any case), the only words strtod would read.
bool spells_nan_or_infinity(std::string_view text, std::size_t pos) {
  std::string rest(text.substr(pos));
  for (char& ch : rest) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return rest == "nan" || rest == "inf" || rest == "infinity";
}

// Why the character at pos cannot follow a number. "hexadecimal" only for a 0x prefix (not for
// "5x", which is a number followed by junk).
[[noreturn]] void throw_unexpected(std::string_view parameter, std::string_view text, std::size_t pos) {
  const char c = text[pos];
  const bool zero_prefix = pos >= 1 && text[pos - 1] == '0' && (pos == 1 || ((text[pos - 2] == '+' || text[pos - 2] == '-') && pos == 2));
  std::string why = "unexpected character '" + abbreviate(text.substr(pos, 1)) + "' after '" +
                    abbreviate(text.substr(0, pos)) + "': nothing may follow the number";
  if ((c == 'x' || c == 'X') && zero_prefix) why = "hexadecimal is not accepted";
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r') why = "white space is not accepted";
  throw_syntax(parameter, text, why);
}

// A number with no digits at all: say why when it is NaN, infinity or white space.
[[noreturn]] void throw_no_digits(std::string_view parameter, std::string_view text, std::size_t pos) {
  const char c = pos < text.size() ? text[pos] : '\0';
  if (spells_nan_or_infinity(text, pos)) throw_syntax(parameter, text, "NaN and infinity are not numbers");
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r') throw_syntax(parameter, text, "white space is not accepted");
  throw_syntax(parameter, text, "no digits");
}

// mantissa * 10^scale, exactly.
mpq_class scaled_by_power_of_ten(const mpz_class& mantissa, long scale) {
  if (mantissa == 0) return mpq_class(0);
  mpz_class power;
  mpz_ui_pow_ui(power.get_mpz_t(), 10, static_cast<unsigned long>(scale < 0 ? -scale : scale));
  if (scale >= 0) return mpq_class(mantissa * power);
  mpq_class out(mantissa, power);
  out.canonicalize();
  return out;
}

}  // namespace

mpq_class parse_rational(std::string_view parameter, std::string_view text) {
  check_characters(parameter, text);
  std::size_t pos = 0;
  bool negative = false;
  if (text[pos] == '+' || text[pos] == '-') {
    negative = text[pos] == '-';
    ++pos;
  }
  const std::size_t int_begin = pos;
  const std::size_t int_end = digit_run(text, pos);
  pos = int_end;
  if (pos < text.size() && text[pos] == '/') {
    const mpq_class q = parse_fraction(parameter, text, int_begin, int_end);
    return negative ? mpq_class(-q) : q;
  }
  // Decimal with optional fraction and exponent.
  std::size_t frac_begin = pos;
  std::size_t frac_end = pos;
  if (pos < text.size() && text[pos] == '.') {
    frac_begin = pos + 1;
    frac_end = digit_run(text, frac_begin);
    pos = frac_end;
  }
  if (int_end == int_begin && frac_end == frac_begin) throw_no_digits(parameter, text, pos);
  const long exponent = parse_exponent(parameter, text, pos);
  if (pos != text.size()) throw_unexpected(parameter, text, pos);
  check_digit_budget(parameter, (int_end - int_begin) + (frac_end - frac_begin));
  // value = (int digits . frac digits) * 10^exponent = mantissa * 10^(exponent - frac_len)
  const mpz_class mantissa = integer_from_digits(std::string(text.substr(int_begin, int_end - int_begin)) +
                                                 std::string(text.substr(frac_begin, frac_end - frac_begin)));
  const mpq_class out = scaled_by_power_of_ten(mantissa, exponent - static_cast<long>(frac_end - frac_begin));
  return negative ? mpq_class(-out) : out;
}

mpz_class parse_integer(std::string_view parameter, std::string_view text) {
  const mpq_class value = parse_rational(parameter, text);
  if (value.get_den() != 1) {
    throw ParameterError(std::string(parameter), std::string(parameter) + " = " + abbreviate(text) +
                                                     " is not an integer: allowed whole numbers only");
  }
  return value.get_num();
}

mpq_class rational_from_double(std::string_view parameter, double value) {
  if (!std::isfinite(value)) {
    throw ParameterError(std::string(parameter),
                         std::string(parameter) + ": NaN and infinity are not exact rationals");
  }
  mpq_class out;
  mpq_set_d(out.get_mpq_t(), value);
  return out;
}

std::string to_string(const mpq_class& value) { return value.get_str(10); }
std::string to_string(const mpz_class& value) { return value.get_str(10); }

mpq_class power_of_two(long k) {
  mpq_class q(1);
  if (k >= 0) {
    mpz_mul_2exp(q.get_num_mpz_t(), q.get_num_mpz_t(), static_cast<mp_bitcnt_t>(k));
  } else {
    mpz_mul_2exp(q.get_den_mpz_t(), q.get_den_mpz_t(), static_cast<mp_bitcnt_t>(-k));
  }
  return q;  // 2^k / 1 or 1 / 2^-k: already canonical
}

}  // namespace exactdp
