#include <exactdp/core/decimal.h>

#include <stdexcept>

#include <exactdp/core/rational.h>
#include <exactdp/core/errors.h>

namespace exactdp {
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

namespace {

// floor(log10 a) for a > 0, exactly: the digit counts give it within 2, then exact comparisons.
long decimal_exponent(const mpq_class& a) {
  long e = static_cast<long>(mpz_sizeinbase(a.get_num_mpz_t(), 10)) -
           static_cast<long>(mpz_sizeinbase(a.get_den_mpz_t(), 10));
  const auto ten_to = [](long k) {
    mpz_class p;
    mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(k < 0 ? -k : k));
    return k < 0 ? mpq_class(mpz_class(1), p) : mpq_class(p);
  };
  while (ten_to(e) > a) --e;
  while (ten_to(e + 1) <= a) ++e;
  return e;
}

// |value| rounded to `digits` significant digits, up (away from 0) or down, as format_digits
// text with value's sign.
std::string rounded_decimal(const mpq_class& value, int digits, bool away_from_zero) {
  const mpq_class a = abs(value);
  const long e = decimal_exponent(a);
  const long shift = digits - 1 - e;  // a 10^shift in [10^(digits-1), 10^digits)
  mpz_class p;
  mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(shift < 0 ? -shift : shift));
  mpz_class num = a.get_num(), den = a.get_den();
  if (shift >= 0) {
    num *= p;
  } else {
    den *= p;
  }
  mpz_class m;
  if (away_from_zero) {
    mpz_cdiv_q(m.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
  } else {
    mpz_fdiv_q(m.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
  }
  const std::string text = m.get_str();  // value = 0.TEXT 10^(len + e - digits + 1)
  const long exp10 = static_cast<long>(text.size()) + e - digits + 1;
  return format_digits((sgn(value) < 0 ? "-" : "") + text, static_cast<mpfr_exp_t>(exp10));
}

}  // namespace

DecimalInterval to_decimal(const mpq_class& exact, int digits) {
  if (digits < 1 || digits > kMaxDecimalDigits) {
    throw ParameterError::out_of_range("digits", std::to_string(digits),
                                       "1 <= digits <= " + std::to_string(kMaxDecimalDigits));
  }
  if (sgn(exact) == 0) return {"0", "0"};
  const bool negative = sgn(exact) < 0;
  return {rounded_decimal(exact, digits, negative), rounded_decimal(exact, digits, !negative)};
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
    throw ParameterError::out_of_range("digits", std::to_string(digits),
                                       "1 <= digits <= " + std::to_string(kMaxDecimalDigits));
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

Interval interval_from_decimal(std::string_view parameter, std::string_view text,
                               mpfr_prec_t precision) {
  return Interval(parse_rational(parameter, text), precision);
}

}  // namespace exactdp
