// rational_fuzzer — parse_rational / parse_integer / to_string against an independent path.
//
// The fuzz input is the text. An independent reader (written in a different style: split at '/'
// or at the exponent letter, then hand the normalised form "N/D" to GMP's mpq_set_str and
// mpq_canonicalize) decides what the text should be. Invariants:
//   * well-formed text within the limits parses to exactly the independent value, which is
//     canonical (gcd(num, den) = 1, den > 0);
//   * well-formed text over a limit (more than kMaxRationalDigits digits, |exponent| over
//     kMaxDecimalExponent) throws LimitError; a zero denominator throws ParameterError that is
//     not a LimitError; malformed text throws ParameterError; nothing else is ever thrown;
//   * every error names the parameter and its message stays short (the text is abbreviated);
//   * round trip: parse_rational(to_string(v)) == v whenever to_string(v) is within the limits;
//   * parse_integer agrees: it returns the numerator when the denominator is 1, else throws.
// Also: the first 8 bytes as a double give rational_from_double's exact dyadic value (NaN and
// infinities throw ParameterError).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace {

using exactdp::LimitError;
using exactdp::ParameterError;
using exactdp::fuzz::str;

enum class Expect { kValue, kLimit, kZeroDenominator, kMalformed };

struct Expected {
  Expect kind = Expect::kMalformed;
  mpq_class value;
};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::string strip_zeros(std::string_view s) {
  std::size_t i = 0;
  while (i + 1 < s.size() && s[i] == '0') ++i;
  return std::string(s.substr(i));
}

mpq_class gmp_fraction(const std::string& num, const std::string& den, bool negative) {
  mpq_class v;
  const std::string text = (negative ? "-" : "") + strip_zeros(num) + "/" + strip_zeros(den);
  FUZZ_CHECK(mpq_set_str(v.get_mpq_t(), text.c_str(), 10) == 0, "mpq_set_str refused %s",
             text.substr(0, 80).c_str());
  mpq_canonicalize(v.get_mpq_t());
  return v;
}

Expected independent(std::string_view text) {
  Expected out;
  for (char c : text) {
    if (std::strchr("0123456789+-./eE", c) == nullptr || c == '\0') return out;  // malformed
  }
  bool negative = false;
  std::string_view body = text;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (const auto slash = body.find('/'); slash != std::string_view::npos) {
    const std::string_view num = body.substr(0, slash), den = body.substr(slash + 1);
    if (!all_digits(num) || !all_digits(den)) return out;
    if (num.size() + den.size() > exactdp::kMaxRationalDigits) {
      out.kind = Expect::kLimit;
      return out;
    }
    if (strip_zeros(den) == "0") {
      out.kind = Expect::kZeroDenominator;
      return out;
    }
    out.kind = Expect::kValue;
    out.value = gmp_fraction(std::string(num), std::string(den), negative);
    return out;
  }
  std::string_view mantissa = body, exponent_text;
  bool has_exponent = false;
  if (const auto e = body.find_first_of("eE"); e != std::string_view::npos) {
    mantissa = body.substr(0, e);
    exponent_text = body.substr(e + 1);
    has_exponent = true;
  }
  std::string_view int_part = mantissa, frac_part;
  if (const auto dot = mantissa.find('.'); dot != std::string_view::npos) {
    int_part = mantissa.substr(0, dot);
    frac_part = mantissa.substr(dot + 1);
  }
  if (int_part.empty() && frac_part.empty()) return out;
  if (!int_part.empty() && !all_digits(int_part)) return out;
  if (!frac_part.empty() && !all_digits(frac_part)) return out;
  long exponent = 0;
  bool exponent_over = false;
  if (has_exponent) {
    bool exp_negative = false;
    if (!exponent_text.empty() && (exponent_text[0] == '+' || exponent_text[0] == '-')) {
      exp_negative = exponent_text[0] == '-';
      exponent_text.remove_prefix(1);
    }
    if (!all_digits(exponent_text)) return out;
    const std::string e = strip_zeros(exponent_text);
    if (e.size() > 9) {
      exponent_over = true;
    } else {
      exponent = std::stol(e);
      exponent_over = exponent > exactdp::kMaxDecimalExponent;
      if (exp_negative) exponent = -exponent;
    }
  }
  if (exponent_over || int_part.size() + frac_part.size() > exactdp::kMaxRationalDigits) {
    out.kind = Expect::kLimit;
    return out;
  }
  // value = digits * 10^(exponent - |frac|): the normalised fraction N/D for mpq_set_str.
  const std::string digits = std::string(int_part) + std::string(frac_part);
  const long scale = exponent - static_cast<long>(frac_part.size());
  const std::string zeros(static_cast<std::size_t>(scale < 0 ? -scale : scale), '0');
  out.kind = Expect::kValue;
  out.value = scale >= 0 ? gmp_fraction(digits + zeros, "1", negative)
                         : gmp_fraction(digits, "1" + zeros, negative);
  return out;
}

std::size_t digit_count(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += (c >= '0' && c <= '9');
  return n;
}

void check_error(const ParameterError& e, std::string_view text) {
  FUZZ_CHECK(e.parameter() == "sigma2", "error names parameter '%s'", e.parameter().c_str());
  const std::string what = e.what();
  FUZZ_CHECK(what.find("sigma2") != std::string::npos, "message does not name the parameter: %s",
             what.substr(0, 200).c_str());
  FUZZ_CHECK(what.size() < 400, "message of %zu characters for a text of %zu", what.size(), text.size());
}

void check_double(const std::uint8_t* data, std::size_t size) {
  if (size < 8) return;
  double d;
  std::memcpy(&d, data, 8);
  if (!std::isfinite(d)) {
    bool threw = false;
    try {
      (void)exactdp::rational_from_double("x", d);
    } catch (const ParameterError&) {
      threw = true;
    }
    FUZZ_CHECK(threw, "rational_from_double accepted a NaN or infinity");
    return;
  }
  const mpq_class v = exactdp::rational_from_double("x", d);
  // Exact: converting back gives the same double, and the denominator is a power of two.
  FUZZ_CHECK(v.get_d() == d, "rational_from_double(%a) = %s is not exact", d, str(v).c_str());
  FUZZ_CHECK(mpz_popcount(v.get_den().get_mpz_t()) == 1, "rational_from_double(%a): denominator %s",
             d, str(v.get_den()).c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Expected expected = independent(text);
  std::optional<mpq_class> got;
  try {
    got = exactdp::parse_rational("sigma2", text);
  } catch (const LimitError& e) {
    check_error(e, text);
    FUZZ_CHECK(expected.kind == Expect::kLimit || expected.kind == Expect::kMalformed,
               "LimitError for well-formed text within the limits: %s", e.what());
  } catch (const ParameterError& e) {
    check_error(e, text);
    FUZZ_CHECK(expected.kind == Expect::kMalformed || expected.kind == Expect::kZeroDenominator,
               "ParameterError for text expected to parse (kind %d): %s", static_cast<int>(expected.kind),
               e.what());
  }
  if (got) {
    FUZZ_CHECK(expected.kind == Expect::kValue, "accepted '%s' (kind %d) as %s",
               exactdp::abbreviate(text).c_str(), static_cast<int>(expected.kind), str(*got).c_str());
    FUZZ_CHECK(*got == expected.value, "'%s': parse_rational %s vs independent %s",
               exactdp::abbreviate(text).c_str(), str(*got).c_str(), str(expected.value).c_str());
    mpz_class g;
    mpz_gcd(g.get_mpz_t(), got->get_num().get_mpz_t(), got->get_den().get_mpz_t());
    FUZZ_CHECK(g == 1 && got->get_den() > 0, "non-canonical result %s", str(*got).c_str());
    const std::string printed = exactdp::to_string(*got);
    if (digit_count(printed) <= exactdp::kMaxRationalDigits) {
      FUZZ_CHECK(exactdp::parse_rational("sigma2", printed) == *got, "round trip of %s failed",
                 printed.substr(0, 80).c_str());
    }
    // parse_integer: the numerator exactly when the value is an integer.
    try {
      const mpz_class i = exactdp::parse_integer("sigma2", text);
      FUZZ_CHECK(got->get_den() == 1 && i == got->get_num(), "parse_integer gave %s for %s",
                 str(i).c_str(), str(*got).c_str());
    } catch (const ParameterError& e) {
      check_error(e, text);
      FUZZ_CHECK(got->get_den() != 1, "parse_integer refused the integer %s: %s", str(*got).c_str(), e.what());
    }
  } else {
    FUZZ_CHECK(expected.kind != Expect::kValue, "refused well-formed '%s' (independent value %s)",
               exactdp::abbreviate(text).c_str(), str(expected.value).c_str());
  }
  check_double(data, size);
  return 0;
}
