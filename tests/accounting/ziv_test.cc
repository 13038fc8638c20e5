#include <exactdp/accounting/ziv.h>

#include <gtest/gtest.h>

#include <exactdp/accounting/normal.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

TEST(Ziv, MeetsTheDefaultTolerance) {
  int calls = 0;
  const Certified c = evaluate_to_tolerance([&](mpfr_prec_t p) {
    ++calls;
    return normal_sf(mpq_class(3), p);
  });
  EXPECT_TRUE(c.tolerance_met);
  EXPECT_LE(relative_width_log2(c.value), -100);
  EXPECT_EQ(calls, 1);
}

TEST(Ziv, RaisesPrecisionThroughCancellation) {
  // (1 + 2^-300) - 1 needs > 300 bits; the loop doubles until it resolves.
  mpq_class tiny(1);
  mpz_mul_2exp(tiny.get_den_mpz_t(), tiny.get_den_mpz_t(), 300);
  const Certified c = evaluate_to_tolerance([&](mpfr_prec_t p) {
    return exp(Interval(tiny, p)) - Interval(1L, p);  // e^(2^-300) - 1 ~ 2^-300
  });
  EXPECT_TRUE(c.tolerance_met);
  EXPECT_GE(c.precision, 512);
  EXPECT_TRUE(c.value.is_positive());
}

TEST(Ziv, ReportsAnUnmetToleranceAtTheCap) {
  ZivOptions o;
  o.max_precision = 256;
  mpq_class tiny(1);
  mpz_mul_2exp(tiny.get_den_mpz_t(), tiny.get_den_mpz_t(), 1000);
  const Certified c = evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return exp(Interval(tiny, p)) - Interval(1L, p); }, o);
  EXPECT_FALSE(c.tolerance_met);
  EXPECT_EQ(c.precision, 256);
  EXPECT_TRUE(c.value.contains_zero());  // wide, but certified
}

TEST(Ziv, StopsWhenAnErrorTermDoesNotShrink) {
  // A computation with a fixed error of 2^-20 cannot meet 2^-100; it must stop early.
  int calls = 0;
  const Certified c = evaluate_to_tolerance([&](mpfr_prec_t p) {
    ++calls;
    Interval x(1L, p);
    mpfr_nextabove(x.upper());
    return hull(x, Interval(mpq_class(1048577, 1048576), p));
  });
  EXPECT_FALSE(c.tolerance_met);
  EXPECT_LE(calls, 3);
}

TEST(Ziv, ExactZeroMeetsAnyTolerance) {
  const Certified c = evaluate_to_tolerance([](mpfr_prec_t p) { return Interval(p); });
  EXPECT_TRUE(c.tolerance_met);
}

TEST(Ziv, ValidatesOptions) {
  ZivOptions o;
  o.tolerance = 0;
  EXPECT_THROW(o.validate(), ParameterError);
  o = ZivOptions{};
  o.max_precision = kMaxPrecision * 2;
  EXPECT_THROW(o.validate(), ParameterError);
  o = ZivOptions{};
  o.tolerance = minimum_tolerance();
  EXPECT_NO_THROW(o.validate());
  EXPECT_GE(starting_precision(o), 10000);
}

}  // namespace
}  // namespace exactdp::accounting
