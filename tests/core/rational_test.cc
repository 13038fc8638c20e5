// Exact rational parsing: accepted forms, rejections with the parameter named, limits, and a
// differential property test against an independent construction through GMP's own parser.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp {
namespace {

// GMP's own parser, independent of parse_rational (the code under test; tests/support/rationals.h
// would be circular here).
mpq_class q(const char* s) {
  mpq_class out(s, 10);
  out.canonicalize();
  return out;
}

TEST(ParseRational, AcceptsEveryDocumentedForm) {
  EXPECT_EQ(parse_rational("x", "3/2"), q("3/2"));
  EXPECT_EQ(parse_rational("x", "-7"), q("-7"));
  EXPECT_EQ(parse_rational("x", "+12"), q("12"));
  EXPECT_EQ(parse_rational("x", "0.125"), q("1/8"));
  EXPECT_EQ(parse_rational("x", "1e-5"), q("1/100000"));
  EXPECT_EQ(parse_rational("x", "2.5E+3"), q("2500"));
  EXPECT_EQ(parse_rational("x", ".5"), q("1/2"));
  EXPECT_EQ(parse_rational("x", "5."), q("5"));
  EXPECT_EQ(parse_rational("x", "-10/4"), q("-5/2"));
  EXPECT_EQ(parse_rational("x", "0.1"), q("1/10"));  // exactly one tenth, not the double
  EXPECT_EQ(parse_rational("x", "1e100"), mpq_class(mpz_class("1" + std::string(100, '0'))));
  EXPECT_EQ(parse_rational("x", "0e999"), q("0"));
  EXPECT_EQ(parse_rational("x", "-0"), q("0"));
}

TEST(ParseRational, ResultsAreCanonical) {
  const mpq_class v = parse_rational("x", "6/4");
  EXPECT_EQ(v.get_num(), 3);
  EXPECT_EQ(v.get_den(), 2);
  const mpq_class w = parse_rational("x", "0.250");
  EXPECT_EQ(w.get_num(), 1);
  EXPECT_EQ(w.get_den(), 4);
}

void expect_rejected(const std::string& text, const std::string& fragment) {
  try {
    (void)parse_rational("sigma2", text);
    ADD_FAILURE() << "accepted '" << text << "'";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "sigma2");
    EXPECT_NE(std::string(e.what()).find("sigma2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(ParseRational, RejectsJunkNamingTheParameter) {
  expect_rejected("", "empty");
  expect_rejected("nan", "NaN");
  expect_rejected("inf", "NaN and infinity");
  expect_rejected("-inf", "NaN and infinity");
  expect_rejected("0x10", "hexadecimal");
  expect_rejected("-0X1f", "hexadecimal");
  // Junk after a number is junk, not "hexadecimal"; only NaN/inf spelled out are "NaN".
  expect_rejected("1.5x", "unexpected character 'x' after '1.5'");
  expect_rejected("5x", "unexpected character 'x' after '5'");
  expect_rejected("5inf", "unexpected character 'i' after '5'");
  expect_rejected("-n", "no digits");
  expect_rejected("NaN", "NaN and infinity");
  expect_rejected("+Infinity", "NaN and infinity");
  for (const std::string text : {"5x", "1.5x", "-n", "n", "5inf", "10x"}) {
    try {
      (void)parse_rational("sigma2", text);
    } catch (const ParameterError& e) {
      EXPECT_EQ(std::string(e.what()).find("hexadecimal"), std::string::npos) << text << ": " << e.what();
      EXPECT_EQ(std::string(e.what()).find("NaN"), std::string::npos) << text << ": " << e.what();
    }
  }
  expect_rejected("3/0", "denominator is zero");
  expect_rejected("3/", "no denominator");
  expect_rejected("/3", "no numerator");
  expect_rejected("1/2/3", "unexpected characters");
  expect_rejected("1.5/2", "unexpected character");
  expect_rejected("1e", "no digits in the exponent");
  expect_rejected(" 1", "white space");
  expect_rejected("1 ", "white space");
  expect_rejected("1_000", "unexpected character");
  expect_rejected("--1", "no digits");
  expect_rejected(".", "no digits");
  expect_rejected(std::string("1\0", 2), "NUL");
  expect_rejected("\xd9\xa3", "non-ASCII");  // ARABIC-INDIC DIGIT THREE
  expect_rejected("\xef\xbc\x91", "non-ASCII");  // FULLWIDTH DIGIT ONE
}

TEST(ParseRational, LimitsRefuseHugeInputsAtOnce) {
  EXPECT_THROW((void)parse_rational("x", "1e999999999"), LimitError);
  EXPECT_THROW((void)parse_rational("x", "1e-999999999"), LimitError);
  EXPECT_THROW((void)parse_rational("x", "1e100001"), LimitError);
  EXPECT_NO_THROW((void)parse_rational("x", "1e-100000"));
  EXPECT_THROW((void)parse_rational("x", std::string(100'000, '7')), LimitError);
  EXPECT_THROW((void)parse_rational("x", "1/" + std::string(10'001, '9')), LimitError);
  EXPECT_NO_THROW((void)parse_rational("x", "1/" + std::string(5'000, '9')));
  EXPECT_EQ(parse_rational("x", "1e0000000000000000005"), q("100000"));  // leading zeros are fine
}

TEST(ParseInteger, AcceptsIntegersOnly) {
  EXPECT_EQ(parse_integer("mean", "-12345678901234567890123"), mpz_class("-12345678901234567890123"));
  EXPECT_EQ(parse_integer("mean", "1e6"), 1000000);
  EXPECT_THROW((void)parse_integer("mean", "1/2"), ParameterError);
  EXPECT_THROW((void)parse_integer("mean", "0.5"), ParameterError);
}

TEST(RationalFromDouble, GivesTheExactBinaryValue) {
  EXPECT_EQ(rational_from_double("x", 0.1), q("3602879701896397/36028797018963968"));
  EXPECT_EQ(rational_from_double("x", -0.5), q("-1/2"));
  EXPECT_THROW((void)rational_from_double("x", std::numeric_limits<double>::quiet_NaN()), ParameterError);
  EXPECT_THROW((void)rational_from_double("x", std::numeric_limits<double>::infinity()), ParameterError);
}

// Independent path: build "M/10^k" or "M*10^k" as text for GMP's mpq_set_str and compare.
RC_GTEST_PROP(ParseRational, DecimalsAgreeWithGmpParser, ()) {
  const auto int_digits = *rc::gen::container<std::string>(*rc::gen::inRange(0, 30), rc::gen::inRange('0', ':'));
  const auto frac_digits = *rc::gen::container<std::string>(*rc::gen::inRange(0, 30), rc::gen::inRange('0', ':'));
  RC_PRE(!(int_digits.empty() && frac_digits.empty()));
  const int exponent = *rc::gen::inRange(-60, 61);
  const bool negative = *rc::gen::arbitrary<bool>();
  const bool use_exponent = *rc::gen::arbitrary<bool>();
  std::string text = std::string(negative ? "-" : "") + int_digits;
  if (!frac_digits.empty() || *rc::gen::arbitrary<bool>()) text += "." + frac_digits;
  const int e = use_exponent ? exponent : 0;
  if (use_exponent) text += "e" + std::to_string(exponent);

  std::string mantissa = int_digits + frac_digits;
  if (mantissa.empty()) mantissa = "0";
  const int scale = e - static_cast<int>(frac_digits.size());
  std::string independent = mantissa;
  if (scale >= 0) {
    independent += std::string(static_cast<std::size_t>(scale), '0');
  } else {
    independent += "/1" + std::string(static_cast<std::size_t>(-scale), '0');
  }
  mpq_class expected(independent, 10);
  expected.canonicalize();
  if (negative) expected = -expected;
  const mpq_class got = parse_rational("x", text);
  RC_ASSERT(got == expected);
  RC_ASSERT(mpz_class(gcd(got.get_num(), got.get_den())) == 1);
  // Round trip through printing.
  RC_ASSERT(parse_rational("x", to_string(got)) == got);
}

RC_GTEST_PROP(ParseRational, FractionsRoundTrip, (long long a, long long b)) {
  RC_PRE(b != 0 && b != std::numeric_limits<long long>::min());
  const std::string text = std::to_string(a) + "/" + std::to_string(b < 0 ? -b : b);
  mpq_class expected(mpz_class(std::to_string(a)), mpz_class(std::to_string(b < 0 ? -b : b)));
  expected.canonicalize();
  RC_ASSERT(parse_rational("x", text) == expected);
}

}  // namespace
}  // namespace exactdp
