#include <exactdp/accounting/gaussian_profile.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/accounting/normal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include "tests/accounting/rational_generators.h"
#include "tests/support/rationals.h"

namespace exactdp::accounting {
namespace {

using test_support::q;

// The interval must lie within +-tol of a published rounded value (so it contains the true value
// only if the published value is right to that many digits) and be narrow.
void expect_near(const Certified& c, const char* published, const char* tol) {
  EXPECT_TRUE(c.tolerance_met);
  EXPECT_TRUE(lower_above(c.value, q(published) - q(tol))) << c.value.debug_string();
  EXPECT_TRUE(upper_at_most(c.value, q(published) + q(tol))) << c.value.debug_string();
  EXPECT_LE(relative_width_log2(c.value), -100);
}

TEST(GaussianProfile, DpAccountingKnownValues) {
  // dp_accounting's test values for sigma = 1, sensitivity = 1 (published to 8 digits).
  expect_near(gaussian_delta(q("0"), q("1"), q("1")), "0.38292492", "0.000000005");
  expect_near(gaussian_delta(q("1"), q("1"), q("1")), "0.12693674", "0.000000005");
  expect_near(gaussian_delta(q("2"), q("1"), q("1")), "0.020923636", "0.0000000005");
}

TEST(GaussianProfile, EpsilonZeroIsTotalVariation) {
  // delta(0) = Phi(mu/2) - Phi(-mu/2) = 2 Phi(mu/2) - 1 = erf(mu / (2 sqrt 2)); for mu = 3/7,
  // 0.16967574234420470686197429414638601722572 (mpmath, 150 digits, an independent evaluation).
  const Certified c = gdp_delta(q("0"), q("3/7"));
  expect_near(c, "0.169675742344204706861974294146386", "1e-33");
  // The normal cdf route (accounting/normal.h) agrees with it as well.
  const Interval tv = mul_2si(normal_cdf(q("3/14"), 300), 1) - Interval(1L, 300);
  EXPECT_TRUE(lower_above(tv, q("0.169675742344204706861974294146386") - q("1e-33")));
  EXPECT_TRUE(upper_at_most(tv, q("0.169675742344204706861974294146386") + q("1e-33")));
}

TEST(GaussianProfile, HugeEpsilonHasNoCancellationTrouble) {
  const Certified c = gaussian_delta(q("1000000"), q("1"), q("1"));
  EXPECT_TRUE(c.tolerance_met);
  EXPECT_TRUE(c.value.is_positive());
  // log delta = log Phi(1/2 - 10^6) + log(1 - e^eps Phi(-1/2 - 10^6) / Phi(1/2 - 10^6))
  //           ~ -(10^6 - 1/2)^2/2 - log(10^6) - log(2 pi)/2 + log(10^-6) ~ -499999500029.
  const Interval l = log(c.value);
  EXPECT_TRUE(lower_above(l, q("-499999500100")));
  EXPECT_TRUE(upper_at_most(l, q("-499999499900")));
  // Small mu: the two terms agree to ~mu^2/eps = 1e-10; still resolved.
  const Certified s = gdp_delta(q("1000000"), q("1/100"));
  EXPECT_TRUE(s.tolerance_met);
  EXPECT_TRUE(s.value.is_positive());
}

TEST(GaussianProfile, ExtremeEpsilonAndTinyMu) {
  // eps = 10^400: e^eps is far beyond MPFR's range; the profile never forms it.
  const mpq_class eps(mpz_class("1" + std::string(400, '0')));
  const mpq_class mu(mpz_class("1" + std::string(200, '0')));
  // mu = 10^200: x1 = eps/mu - mu/2 = 5e199 > 0, the tail; delta ~ exp(-x1^2/2) is below
  // MPFR's range, so [0, tiny] (flagged) is the honest answer.
  const Certified tail = gdp_delta(eps, mu);
  EXPECT_TRUE(tail.value.contains(0L));
  EXPECT_FALSE(tail.tolerance_met);
  // mu = 2e200: x1 = 5e199 - 1e200 < 0, the body; delta = Q(x1) - phi(x1) R(x2) ~ 1.
  const Certified c = gdp_delta(eps, mu * 2);
  EXPECT_TRUE(c.tolerance_met);
  EXPECT_TRUE(lower_above(c.value, q("0.999999")));
  // eps = mu^2/2 + mu with mu = 10^200 puts x1 at exactly 1: delta = Q(1) - phi(1) R(10^200 + 1)
  // = 0.15865525393145705... - 2.4e-201.
  const mpq_class eps2 = mu * mu / 2 + mu;
  const Certified m = gdp_delta(eps2, mu);
  EXPECT_TRUE(m.tolerance_met);
  EXPECT_TRUE(lower_above(m.value, q("0.158655253931457")));
  EXPECT_TRUE(upper_at_most(m.value, q("0.158655253931458")));
  // mu = 10^-50 at eps = 10^-50: the mean-value enclosure resolves the cancellation at 128 bits.
  const mpq_class tiny = parse_rational("mu", "1e-50");
  const Interval d = gdp_delta_at(tiny, tiny, 128);
  EXPECT_LE(relative_width_log2(d), -100);
  const Interval d1000 = gdp_delta_at(tiny, tiny, 1000);
  // delta = Phi(mu/2 - 1) - e^mu Phi(-mu/2 - 1) = 8.331547058768629838306273856759857730658e-52
  // (mpmath at 150 digits, an independent evaluation): both precisions contain it, tightly.
  const mpq_class reference = q("8.331547058768629838306273856759857730658e-52");
  EXPECT_TRUE(lower_above(d, reference - q("1e-78")) && upper_at_most(d, reference + q("1e-78")))
      << d.debug_string();
  EXPECT_TRUE(lower_above(d1000, reference - q("1e-90")) && upper_at_most(d1000, reference + q("1e-90")))
      << d1000.debug_string();
  EXPECT_LE(relative_width_log2(d1000), -800);
}

TEST(GaussianProfile, BelowMpfrRangeIsCertifiedButFlagged) {
  // delta ~ exp(-5e31): not representable; [0, tiny] and tolerance_met = false, never a lie.
  const Certified c = gdp_delta(q("1000000"), q("1/10000000000"));
  EXPECT_FALSE(c.tolerance_met);
  EXPECT_TRUE(c.value.contains(0L));
}

TEST(GaussianProfile, RejectsBadParameters) {
  EXPECT_THROW((void)gaussian_delta(q("-1"), q("1"), q("1")), ParameterError);
  EXPECT_THROW((void)gaussian_delta(q("1"), q("0"), q("1")), ParameterError);
  EXPECT_THROW((void)gaussian_delta(q("1"), q("1"), q("-2")), ParameterError);
  EXPECT_THROW((void)gdp_delta(q("1"), q("0")), ParameterError);
  try {
    (void)gaussian_delta(q("1"), q("-3"), q("1"));
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "sigma");
    EXPECT_NE(std::string(e.what()).find("sigma > 0"), std::string::npos);
  }
}

RC_GTEST_PROP(GaussianProfileProperty, DecreasingInEpsilonAndSigma, ()) {
  const mpq_class eps = *test_support::rational_in(q("0"), q("20"));
  const mpq_class more = eps + *test_support::positive_rational(1);
  const mpq_class sigma = *test_support::positive_rational(1);
  const mpq_class larger = sigma * (1 + *test_support::positive_rational(1));
  const Interval d = gaussian_delta_at(eps, sigma, q("1"), 128);
  RC_ASSERT(d.is_valid());
  RC_ASSERT(d.is_nonnegative());
  // Certified monotonicity: the later value can never be certainly larger.
  RC_ASSERT(!certainly_less(d, gaussian_delta_at(more, sigma, q("1"), 128)));
  RC_ASSERT(!certainly_less(d, gaussian_delta_at(eps, larger, q("1"), 128)));
}

RC_GTEST_PROP(GaussianProfileProperty, HighPrecisionAgrees, ()) {
  const mpq_class eps = *test_support::rational_in(q("0"), q("50"));
  const mpq_class mu = *test_support::positive_rational(1);
  const Interval low = gdp_delta_at(eps, mu, 128);
  const Interval high = gdp_delta_at(eps, mu, 1000);
  (void)intersect(low, high);  // throws if the two certified intervals were disjoint
  // The Ziv driver's answer is nested inside its first (128-bit) evaluation.
  const Certified c = gdp_delta(eps, mu);
  RC_ASSERT(low.contains(c.value));
}

RC_GTEST_PROP(GaussianProfileProperty, IntervalArgumentsEncloseThePoint, ()) {
  const mpq_class eps = *test_support::rational_in(q("0"), q("10"));
  const mpq_class mu = *test_support::positive_rational(1);
  const Interval point = gdp_delta_at(eps, mu, 200);
  const Interval wide = gdp_delta_at(Interval(eps, 60), Interval(mu, 60), 200);
  RC_ASSERT(wide.contains(point));
}

// 1 - delta: certified like delta, and with relative accuracy where delta is within 10^-29 (and
// 10^-5000) of 1 — there delta itself at 128 bits is [something, 1] and says nothing.
TEST(GaussianProfile, ComplementIsRelativelyAccurateNearOne) {
  for (const char* mu : {"10", "22", "100", "302", "1e6"}) {
    for (const char* eps : {"0", "1", "1e400"}) {
      const Interval c = gdp_delta_complement_at(q(eps), q(mu), 128);
      EXPECT_TRUE(c.is_valid());
      if (mpfr_zero_p(c.upper()) != 0) continue;  // below MPFR's range (mu = 1e6): [0, 0]
      EXPECT_TRUE(c.is_positive()) << mu << " " << eps << " " << c.debug_string();
      EXPECT_LE(relative_width_log2(c), -100) << mu << " " << eps << " " << c.debug_string();
    }
  }
  // delta = 1 - 1e-29 lies between mu = 22 and mu = 23 at eps = 1 (1 - delta = 2.9e-27 and 5.6e-30):
  EXPECT_TRUE(lower_above(gdp_delta_complement_at(q("1"), q("22"), 128), q("1e-29")));
  EXPECT_TRUE(upper_at_most(gdp_delta_complement_at(q("1"), q("23"), 128), q("1e-29")));
}

RC_GTEST_PROP(GaussianProfileProperty, ComplementAndDeltaSumToOne, ()) {
  const mpq_class eps = *test_support::rational_in(q("0"), q("50"));
  const mpq_class mu = *test_support::positive_rational(2);
  const Interval d = gdp_delta_at(eps, mu, 300);
  const Interval c = gdp_delta_complement_at(eps, mu, 300);
  RC_ASSERT(c.is_valid());
  // delta + (1 - delta) = 1, from two independent formulas; a wrong sign or a missing term in
  // either is caught unless it is below 2^-280 absolute.
  const Interval sum = d + c;
  RC_ASSERT(sum.contains(1L));
  RC_ASSERT(upper_at_most(sum - mpq_class(1), mpq_class(1) / mpq_class(mpz_class(1) << 280)));
}

}  // namespace
}  // namespace exactdp::accounting
