#include <exactdp/core/interval.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>

#include "tests/accounting/rational_generators.h"

namespace exactdp::accounting {
namespace {

using test_support::positive_rational;

TEST(Interval, RationalIsRoundedOutward) {
  const mpq_class third(1, 3);
  const Interval x(third, 64);
  EXPECT_TRUE(x.contains(third));
  EXPECT_FALSE(x.is_point());
  EXPECT_TRUE(Interval(mpq_class(3, 8), 64).is_point());
  EXPECT_EQ(x.precision(), 64);
}

TEST(Interval, IntegersAndHugeRationals) {
  const mpz_class big("123456789012345678901234567890123456789");
  const Interval x(big, 64);
  EXPECT_TRUE(x.contains(big));
  EXPECT_FALSE(x.contains(mpz_class(big + 1)) && x.contains(mpz_class(big - 1)) && x.is_point());
  mpq_class tiny(1);
  mpz_pow_ui(tiny.get_den_mpz_t(), mpz_class(10).get_mpz_t(), 100000);  // 10^-100000
  const Interval t(tiny, 128);
  EXPECT_TRUE(t.contains(tiny));
  EXPECT_TRUE(t.is_positive());
}

TEST(Interval, SubtractionFlipsTheEnds) {
  const Interval a = hull(Interval(1L, 64), Interval(2L, 64));
  const Interval b = hull(Interval(10L, 64), Interval(20L, 64));
  const Interval d = a - b;  // [1 - 20, 2 - 10]
  EXPECT_EQ(mpfr_cmp_si(d.lower(), -19), 0);
  EXPECT_EQ(mpfr_cmp_si(d.upper(), -8), 0);
}

TEST(Interval, MultiplicationOfMixedSigns) {
  const Interval a = hull(Interval(-2L, 64), Interval(3L, 64));
  const Interval b = hull(Interval(-5L, 64), Interval(7L, 64));
  const Interval p = a * b;  // [min(-14, 15, 10, 21) ... ] = [-15, 21]
  EXPECT_EQ(mpfr_cmp_si(p.lower(), -15), 0);
  EXPECT_EQ(mpfr_cmp_si(p.upper(), 21), 0);
  const Interval s = square(a);
  EXPECT_EQ(mpfr_cmp_si(s.lower(), 0), 0);
  EXPECT_EQ(mpfr_cmp_si(s.upper(), 9), 0);
}

TEST(Interval, DomainErrors) {
  const Interval z = hull(Interval(-1L, 64), Interval(1L, 64));
  EXPECT_THROW((void)(Interval(1L, 64) / z), std::domain_error);
  EXPECT_THROW((void)log(Interval(-1L, 64)), std::domain_error);
  EXPECT_THROW((void)log1p(Interval(-2L, 64)), std::domain_error);
  EXPECT_THROW((void)sqrt(Interval(-1L, 64)), std::domain_error);
  EXPECT_THROW((void)intersect(Interval(1L, 64), Interval(2L, 64)), std::logic_error);
  // log of [0, 1] is [-inf, 0]: an unbounded but certified answer.
  const Interval l = log(hull(Interval(0L, 64), Interval(1L, 64)));
  EXPECT_TRUE(mpfr_inf_p(l.lower()));
  EXPECT_EQ(mpfr_sgn(l.upper()), 0);
}

TEST(Interval, ExponentRangeIsWide) {
  // exp(-5e11) ~ 10^-2.17e11: far below double range, a normal value here.
  const Interval e = exp(Interval(mpq_class(-500'000'000'000L), 128));
  EXPECT_TRUE(e.is_positive());
  EXPECT_LE(relative_width_log2(e), -100);
}

TEST(Interval, WidthReport) {
  EXPECT_EQ(relative_width_log2(Interval(mpq_class(1, 4), 64)), kZeroWidthLog2);
  EXPECT_EQ(relative_width_log2(hull(Interval(-1L, 64), Interval(1L, 64))), kInfiniteWidthLog2);
  const Interval x = Interval(mpq_class(1, 3), 64);
  EXPECT_LE(relative_width_log2(x), -62);
  EXPECT_GE(relative_width_log2(x), -64);
  EXPECT_TRUE(relative_width_at_most(x, mpq_class(1, 1000000)));
}

TEST(Interval, MoveLeavesAValidObject) {
  Interval a(mpq_class(1, 3), 200);
  Interval b(std::move(a));
  EXPECT_EQ(b.precision(), 200);
  EXPECT_TRUE(b.contains(mpq_class(1, 3)));
  a = Interval(2L, 64);  // the moved-from object is assignable
  EXPECT_TRUE(a.contains(2L));
}

// ---- properties: every operation contains the exact rational result ------------------------

RC_GTEST_PROP(IntervalProperty, ArithmeticContainsExactResult, (const mpq_class& a,
                                                                 const mpq_class& b)) {
  const mpfr_prec_t p = *rc::gen::inRange<mpfr_prec_t>(24, 300);
  const Interval x(a, p), y(b, p);
  RC_ASSERT((x + y).contains(mpq_class(a + b)));
  RC_ASSERT((x - y).contains(mpq_class(a - b)));
  RC_ASSERT((x * y).contains(mpq_class(a * b)));
  RC_ASSERT((-x).contains(mpq_class(-a)));
  RC_ASSERT((x * b).contains(mpq_class(a * b)));
  RC_ASSERT((x + b).contains(mpq_class(a + b)));
  RC_ASSERT((b - x).contains(mpq_class(b - a)));
  RC_ASSERT(square(x).contains(mpq_class(a * a)));
  RC_ASSERT(abs(x).contains(mpq_class(abs(a))));
  if (b != 0) {
    RC_ASSERT((x / y).contains(mpq_class(a / b)));
    RC_ASSERT((x / b).contains(mpq_class(a / b)));
  }
  RC_ASSERT(min(x, y).contains(mpq_class(a < b ? a : b)));
  RC_ASSERT(max(x, y).contains(mpq_class(a < b ? b : a)));
}

RC_GTEST_PROP(IntervalProperty, SqrtOfASquareContainsTheRoot, ()) {
  const mpq_class a = *positive_rational();
  const Interval r = sqrt(square(Interval(a, 100)));
  RC_ASSERT(r.contains(a));
}

// An elementary function at 1000 bits (a second, far more precise evaluation) must lie inside
// the 64-bit interval, and the two must intersect.
RC_GTEST_PROP(IntervalProperty, HigherPrecisionNests, ()) {
  const mpq_class a = *positive_rational(2);
  const Interval lo_exp = exp(Interval(mpq_class(-a), 64));
  const Interval hi_exp = exp(Interval(mpq_class(-a), 1000));
  RC_ASSERT(lo_exp.contains(hi_exp));
  const Interval lo_log = log1p(Interval(a, 64));
  const Interval hi_log = log1p(Interval(a, 1000));
  RC_ASSERT(lo_log.contains(hi_log));
  const Interval lo_em = expm1(Interval(mpq_class(-a), 64));
  const Interval hi_em = expm1(Interval(mpq_class(-a), 1000));
  RC_ASSERT(lo_em.contains(hi_em));
  // log(exp(x)) contains x.
  RC_ASSERT(log(exp(Interval(a, 80))).contains(a));
}

RC_GTEST_PROP(IntervalProperty, CertainComparisons, (const mpq_class& a, const mpq_class& b)) {
  const Interval x(a, 53), y(b, 53);
  if (certainly_less(x, y)) RC_ASSERT(a < b);
  if (upper_at_most(x, b)) RC_ASSERT(a <= b);
  if (lower_above(x, b)) RC_ASSERT(a > b);
  RC_ASSERT(x.is_valid());
  RC_ASSERT(to_mpq(x.lower()) <= a);
  RC_ASSERT(to_mpq(x.upper()) >= a);
}

}  // namespace
}  // namespace exactdp::accounting
