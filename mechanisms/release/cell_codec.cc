#include <exactdp/mechanisms/release/cell_codec.h>

#include <string>

#include <exactdp/core/decimal.h>
#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/core/rational_rounding.h>

namespace exactdp::mechanisms {
namespace {

[[noreturn]] void not_a_number(std::string_view value, std::uint64_t line, const std::string& column,
                               const char* allowed) {
  throw CsvError(line, "column '" + column + "': '" + abbreviate(value) + "' is not " + allowed);
}

void check_digits(std::size_t digits, std::size_t max_digits, std::uint64_t line,
                  const std::string& column) {
  if (digits > max_digits) {
    throw CsvError(line, "column '" + column + "': a number of " + std::to_string(digits) +
                             " digits is over the limit of " + std::to_string(max_digits) +
                             " digits per cell");
  }
}

}  // namespace

CellCodec CellCodec::integers(std::size_t max_digits) {
  CellCodec c;
  c.max_digits_ = max_digits;
  return c;
}

CellCodec CellCodec::decimals(const mpq_class& granularity, Rounding rounding, std::size_t max_digits) {
  if (sgn(granularity) <= 0) {
    throw ParameterError::out_of_range("granularity", abbreviate(to_string(granularity)), "granularity > 0");
  }
  mpz_class den = granularity.get_den();
  const mpz_class two = 2, five = 5;
  // mpz_remove takes out every factor at once (not one division per factor).
  const auto twos = mpz_remove(den.get_mpz_t(), den.get_mpz_t(), two.get_mpz_t());
  const auto fives = mpz_remove(den.get_mpz_t(), den.get_mpz_t(), five.get_mpz_t());
  if (den != 1) {
    throw ParameterError::out_of_range(
        "granularity", abbreviate(to_string(granularity)),
        "a granularity whose denominator is 2^a 5^b (0.01, 0.25, 1/1024), so that every grid "
        "point has a finite decimal expansion");
  }
  CellCodec c;
  c.decimal_ = true;
  c.granularity_ = granularity;
  c.rounding_ = rounding;
  const auto places = twos > fives ? twos : fives;
  if (places > 10'000) {
    throw ParameterError::out_of_range("granularity", abbreviate(to_string(granularity)),
                                       "at most 10000 decimal places");
  }
  c.decimals_ = static_cast<unsigned>(places);
  mpz_class ten_d;
  mpz_ui_pow_ui(ten_d.get_mpz_t(), 10, c.decimals_);
  c.scale_ = granularity.get_num() * ten_d / granularity.get_den();  // exact: den | 10^d
  c.max_digits_ = max_digits;
  return c;
}

void CellCodec::parse(std::string_view value, std::uint64_t line, const std::string& column,
                      mpz_class& index) const {
  std::size_t i = 0;
  const bool negative = !value.empty() && value[0] == '-';
  if (!value.empty() && (value[0] == '+' || value[0] == '-')) i = 1;
  if (!decimal_) {
    bool ok = i < value.size();
    for (std::size_t k = i; ok && k < value.size(); ++k) ok = value[k] >= '0' && value[k] <= '9';
    if (!ok) {
      not_a_number(value, line, column,
                   "an integer (allowed: [+-]?[0-9]+, no spaces; decimals need --granularity)");
    }
    check_digits(value.size() - i, max_digits_, line, column);
    const std::string text(value.substr(i));
    mpz_set_str(index.get_mpz_t(), text.c_str(), 10);
    if (negative) index = -index;
    return;
  }
  // [+-]? digits [. digits], at least one digit.
  std::string digits;
  std::size_t fraction = 0;
  bool point = false;
  for (std::size_t k = i; k < value.size(); ++k) {
    const char ch = value[k];
    if (ch >= '0' && ch <= '9') {
      digits.push_back(ch);
      if (point) ++fraction;
    } else if (ch == '.' && !point) {
      point = true;
    } else {
      digits.clear();
      break;
    }
  }
  if (digits.empty()) {
    not_a_number(value, line, column, "a decimal number (allowed: [+-]?digits[.digits], no exponent, no spaces)");
  }
  check_digits(digits.size(), max_digits_, line, column);
  // x = N / 10^f; x / G = N den / (10^f num).
  mpz_class n(digits, 10);
  if (negative) n = -n;
  mpz_class ten_f;
  mpz_ui_pow_ui(ten_f.get_mpz_t(), 10, fraction);
  const mpz_class num = n * granularity_.get_den();
  const mpz_class den = ten_f * granularity_.get_num();
  if (rounding_ == Rounding::kRefuse) {
    if (mpz_divisible_p(num.get_mpz_t(), den.get_mpz_t()) == 0) {
      throw CsvError(line, "column '" + column + "': " + abbreviate(value) +
                               " is not a multiple of the granularity " +
                               exactdp::exact_decimal(granularity_) + " (use --round nearest to round)");
    }
    mpz_divexact(index.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
    return;
  }
  // floor(num/den + 1/2) = floor((2 num + den) / (2 den)), den > 0.
  const mpz_class twice = 2 * num + den;
  const mpz_class d2 = 2 * den;
  mpz_fdiv_q(index.get_mpz_t(), twice.get_mpz_t(), d2.get_mpz_t());
}

void CellCodec::format(const mpz_class& index, std::string& out) const {
  if (!decimal_) {
    out.resize(mpz_sizeinbase(index.get_mpz_t(), 10) + 2);
    mpz_get_str(out.data(), 10, index.get_mpz_t());
    out.resize(std::char_traits<char>::length(out.c_str()));
    return;
  }
  const mpz_class scaled = index * scale_;  // k G 10^d, an integer
  const mpz_class magnitude = abs(scaled);
  std::string digits = magnitude.get_str(10);
  if (digits.size() <= decimals_) digits.insert(0, decimals_ + 1 - digits.size(), '0');
  out.clear();
  if (sgn(scaled) < 0) out.push_back('-');
  out.append(digits, 0, digits.size() - decimals_);
  if (decimals_ > 0) {
    out.push_back('.');
    out.append(digits, digits.size() - decimals_, decimals_);
  }
}

mpz_class grid_sensitivity(const mpq_class& sensitivity, const mpq_class& granularity) {
  if (sgn(sensitivity) <= 0) {
    throw ParameterError::out_of_range("sensitivity", abbreviate(to_string(sensitivity)), "sensitivity > 0");
  }
  const mpq_class ratio = sensitivity / granularity;
  return ceil_of(ratio);
}

}  // namespace exactdp::mechanisms
