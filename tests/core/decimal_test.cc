#include <exactdp/core/decimal.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include "tests/accounting/rational_generators.h"

namespace exactdp::accounting {
namespace {

TEST(Decimal, RoundsOutward) {
  const Interval third(mpq_class(1, 3), 128);
  const DecimalInterval d = to_decimal(third, 5);
  EXPECT_EQ(d.lower, "0.33333");
  EXPECT_EQ(d.upper, "0.33334");
  const Interval neg(mpq_class(-2, 3), 128);
  const DecimalInterval n = to_decimal(neg, 3);
  EXPECT_EQ(n.lower, "-0.667");
  EXPECT_EQ(n.upper, "-0.666");
}

TEST(Decimal, Formats) {
  EXPECT_EQ(to_decimal(Interval(0L, 64), 20).lower, "0");
  EXPECT_EQ(to_decimal(Interval(mpq_class(1, 2), 64), 20).upper, "0.5");
  EXPECT_EQ(to_decimal(Interval(1234500L, 64), 20).upper, "1234500");
  EXPECT_EQ(to_decimal(Interval(mpq_class(1, 100000), 200), 3).lower, "0.00000999");
  EXPECT_EQ(to_decimal(Interval(mpq_class(1, 100000), 200), 3).upper, "0.0000101");
  Interval e = exp(Interval(mpq_class(-1000), 128));  // 5.07595889754945676529e-435
  EXPECT_EQ(to_decimal(e, 6).lower, "5.07595e-435");
  EXPECT_EQ(to_decimal(e, 6).upper, "5.07596e-435");
  EXPECT_EQ(decimal_upper(Interval::entire(64).upper(), 5), "inf");
  EXPECT_EQ(to_decimal_string(Interval(mpq_class(3, 2), 64), 4), "[1.5, 1.5]");
}

TEST(Decimal, FromText) {
  const Interval x = interval_from_decimal("epsilon", "0.1", 64);
  EXPECT_TRUE(x.contains(mpq_class(1, 10)));
  EXPECT_FALSE(x.is_point());
  EXPECT_THROW((void)interval_from_decimal("epsilon", "abc", 64), std::invalid_argument);
}

TEST(Decimal, ExactValuesPrintExactly) {
  // The release guarantee's delta of exactly 10^-6 printed "0.0000010000000000000000001" as the
  // upper end of its binary enclosure; the rational itself prints as itself.
  const DecimalInterval d = to_decimal(mpq_class(1, 1000000), 20);
  EXPECT_EQ(d.lower, "0.000001");
  EXPECT_EQ(d.upper, "0.000001");
  EXPECT_EQ(to_decimal(mpq_class(1, 3), 5).lower, "0.33333");
  EXPECT_EQ(to_decimal(mpq_class(1, 3), 5).upper, "0.33334");
  EXPECT_EQ(to_decimal(mpq_class(-2, 3), 3).lower, "-0.667");
  EXPECT_EQ(to_decimal(mpq_class(-2, 3), 3).upper, "-0.666");
  EXPECT_EQ(to_decimal(mpq_class(99999), 3).upper, "100000");
  EXPECT_EQ(to_decimal(mpq_class(99999), 3).lower, "99900");
  EXPECT_EQ(to_decimal(mpq_class(0), 3).upper, "0");
  EXPECT_EQ(to_decimal(power_of_two(-400), 3).lower, "3.87e-121");
  EXPECT_THROW((void)to_decimal(mpq_class(1), 0), ParameterError);
}

// The one exact-decimal printer: terminating expansions exactly (scientific outside 10^-6 ..
// 10^21), others as fractions; every text reads back to the same rational.
TEST(ExactDecimal, TerminatingExpansionsAreExactOthersStayFractions) {
  EXPECT_EQ(exact_decimal(mpq_class(3, 8)), "0.375");
  EXPECT_EQ(exact_decimal(mpq_class(-1, 20)), "-0.05");
  EXPECT_EQ(exact_decimal(mpq_class(5)), "5");
  EXPECT_EQ(exact_decimal(mpq_class(0)), "0");
  EXPECT_EQ(exact_decimal(mpq_class(1, 3)), "1/3");
  EXPECT_EQ(exact_decimal(mpq_class(1, 1000000)), "0.000001");
  EXPECT_EQ(exact_decimal(mpq_class(1, 10000000)), "1e-7");
  EXPECT_EQ(exact_decimal(power_of_two(100)), "1.267650600228229401496703205376e+30");
  EXPECT_EQ(parse_rational("x", exact_decimal(mpq_class(123456789, 1024))), mpq_class(123456789, 1024));
}

RC_GTEST_PROP(DecimalProperty, ExactRationalEndsBracketTheValue, (const mpq_class& a)) {
  const int digits = *rc::gen::inRange(1, 40);
  const DecimalInterval d = to_decimal(a, digits);
  RC_ASSERT(parse_rational("lower", d.lower) <= a);
  RC_ASSERT(parse_rational("upper", d.upper) >= a);
  RC_ASSERT(parse_rational("exact", exact_decimal(a)) == a);
}

// Printed lower <= true <= printed upper, checked exactly by reading the text back.
RC_GTEST_PROP(DecimalProperty, PrintedEndsBracketTheValue, (const mpq_class& a)) {
  const int digits = *rc::gen::inRange(1, 40);
  const Interval x(a, 150);
  const DecimalInterval d = to_decimal(x, digits);
  RC_ASSERT(parse_rational("lower", d.lower) <= a);
  RC_ASSERT(parse_rational("upper", d.upper) >= a);
}

}  // namespace
}  // namespace exactdp::accounting
