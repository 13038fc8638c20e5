#include <exactdp/accounting/decimal.h>

#include <stdexcept>

#include <exactdp/samplers/rational.h>

namespace exactdp::accounting {
namespace {

// Formats the digit string of mpfr_get_str (value = 0.DIGITS * 10^exp10, optional '-').
std::string format_digits(const std::string& text, mpfr_exp_t exp10) {
  const bool negative = !text.empty() && text.front() == '-';
  const std::string sign = negative ? "-" : "";
  std::string digits = negative ? text.substr(1) : text;
  // Drop trailing zeros: they do not change the value.
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const long point = static_cast<long>(exp10);  // digits before the decimal point
  const long sci_exponent = point - 1;           // d.ddd * 10^sci_exponent
  std::string out = sign;
  if (sci_exponent >= -6 && sci_exponent <= 20) {
    if (point <= 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-point), '0');
      out += digits;
    } else if (static_cast<std::size_t>(point) >= digits.size()) {
      out += digits;
      out.append(static_cast<std::size_t>(point) - digits.size(), '0');
    } else {
      out += digits.substr(0, static_cast<std::size_t>(point));
      out += '.';
      out += digits.substr(static_cast<std::size_t>(point));
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += 'e';
  out += sci_exponent >= 0 ? "+" : "-";
  out += std::to_string(sci_exponent >= 0 ? sci_exponent : -sci_exponent);
  return out;
}

}  // namespace

std::string exact_decimal(const mpq_class& value) {
  if (sgn(value) == 0) return "0";
  mpz_class den = value.get_den();
  const unsigned long twos = mpz_remove(den.get_mpz_t(), den.get_mpz_t(), mpz_class(2).get_mpz_t());
  const unsigned long fives = mpz_remove(den.get_mpz_t(), den.get_mpz_t(), mpz_class(5).get_mpz_t());
  if (den != 1) return to_string(value);  // not a terminating decimal
  // value = num / (2^twos 5^fives) = num 2^(p - twos) 5^(p - fives) / 10^p, p = max(twos, fives)
  const unsigned long p = twos > fives ? twos : fives;
  mpz_class m = abs(value.get_num());
  mpz_class f;
  mpz_ui_pow_ui(f.get_mpz_t(), 2, p - twos);
  m *= f;
  mpz_ui_pow_ui(f.get_mpz_t(), 5, p - fives);
  m *= f;
  // value = m 10^(zeros - p) with m free of trailing zeros
  const unsigned long zeros = mpz_remove(m.get_mpz_t(), m.get_mpz_t(), mpz_class(10).get_mpz_t());
  const std::string digits = m.get_str();
  const long point = static_cast<long>(digits.size()) + static_cast<long>(zeros) - static_cast<long>(p);
  return format_digits((sgn(value) < 0 ? "-" : "") + digits, static_cast<mpfr_exp_t>(point));
}

std::string parameter_text(const mpq_class& value) {
  if (mpz_sizeinbase(value.get_num_mpz_t(), 10) + mpz_sizeinbase(value.get_den_mpz_t(), 10) <= 60) {
    return to_string(value);
  }
  return exact_decimal(value);
}

namespace {

std::string decimal(mpfr_srcptr x, int digits, mpfr_rnd_t rnd) {
  if (digits < 1 || digits > kMaxDecimalDigits) {
    throw std::invalid_argument("decimal digits must be in [1, " +
                                std::to_string(kMaxDecimalDigits) + "]");
  }
  if (mpfr_nan_p(x)) throw std::domain_error("decimal: NaN");
  if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? "inf" : "-inf";
  if (mpfr_zero_p(x)) return "0";
  // mpfr_get_str needs n >= 2 in older MPFR versions; more digits are still a valid bound.
  const std::size_t n = static_cast<std::size_t>(digits < 2 ? 2 : digits);
  mpfr_exp_t exp10 = 0;
  char* s = mpfr_get_str(nullptr, &exp10, 10, n, x, rnd);  // digits rounded in direction rnd
  if (s == nullptr) throw std::runtime_error("mpfr_get_str failed");
  std::string text(s);
  mpfr_free_str(s);
  return format_digits(text, exp10);
}

}  // namespace

std::string decimal_lower(mpfr_srcptr x, int digits) { return decimal(x, digits, MPFR_RNDD); }
std::string decimal_upper(mpfr_srcptr x, int digits) { return decimal(x, digits, MPFR_RNDU); }

DecimalInterval to_decimal(const Interval& x, int digits) {
  return {decimal_lower(x.lower(), digits), decimal_upper(x.upper(), digits)};
}

std::string to_decimal_string(const Interval& x, int digits) {
  const DecimalInterval d = to_decimal(x, digits);
  return "[" + d.lower + ", " + d.upper + "]";
}

Interval interval_from_rational(const mpq_class& value, mpfr_prec_t precision) {
  return Interval(value, precision);
}

Interval interval_from_decimal(std::string_view parameter, std::string_view text,
                               mpfr_prec_t precision) {
  return Interval(parse_rational(parameter, text), precision);
}

}  // namespace exactdp::accounting
