#include <exactdp/accounting/analytic_gaussian.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include "tests/accounting/rational_generators.h"
#include "tests/support/rationals.h"

namespace exactdp::accounting {
namespace {

using test_support::q;

// Independent re-check at 1000 bits: sigma meets the target, sigma_lower misses it.
void expect_certified(const GaussianCalibration& c, const mpq_class& eps, const mpq_class& delta,
                      const mpq_class& sens) {
  EXPECT_TRUE(upper_at_most(c.delta_at_sigma, delta));
  EXPECT_TRUE(lower_above(c.delta_at_sigma_lower, delta));
  EXPECT_TRUE(upper_at_most(gaussian_delta_at(eps, c.sigma, sens, 1000), delta));
  EXPECT_TRUE(lower_above(gaussian_delta_at(eps, c.sigma_lower, sens, 1000), delta));
  EXPECT_LT(c.sigma_lower, c.sigma);
}

TEST(AnalyticGaussian, KnownCalibration) {
  // Balle & Wang's setting eps = 1, delta = 1e-5: sigma = 3.7306316348159418...
  const GaussianCalibration c = calibrate_gaussian(q("1"), q("1e-5"), q("1"));
  expect_certified(c, q("1"), q("1e-5"), q("1"));
  EXPECT_TRUE(c.tolerance_met);
  EXPECT_LE((c.sigma - c.sigma_lower) / c.sigma_lower, default_tolerance());
  EXPECT_GT(c.sigma, q("3.73063163481594"));
  EXPECT_LT(c.sigma, q("3.73063163481595"));
}

TEST(AnalyticGaussian, TinyDeltaAndScaling) {
  // The case the double-precision reference gets wrong by up to 713x.
  const GaussianCalibration c = calibrate_gaussian(q("0.5"), q("1e-15"), q("1"));
  expect_certified(c, q("0.5"), q("1e-15"), q("1"));
  // sigma scales linearly in the sensitivity.
  const GaussianCalibration c3 = calibrate_gaussian(q("0.5"), q("1e-15"), q("3"));
  EXPECT_TRUE(hull(Interval(c3.sigma_lower, 200), Interval(c3.sigma, 200))
                  .contains(mpq_class(3 * c.sigma)) ||
              (3 * c.sigma_lower < c3.sigma && c3.sigma_lower < 3 * c.sigma));
  // delta = 1e-100000 is an ordinary number here.
  mpq_class tiny(1);
  mpz_ui_pow_ui(tiny.get_den_mpz_t(), 10, 100000);
  const GaussianCalibration t = calibrate_gaussian(q("1"), tiny, q("1"));
  EXPECT_TRUE(t.tolerance_met);
  EXPECT_TRUE(upper_at_most(t.delta_at_sigma, tiny));
  EXPECT_TRUE(lower_above(t.delta_at_sigma_lower, tiny));
}

TEST(AnalyticGaussian, VeryTightTolerance) {
  // Relative width 1e-1000 (~3322 bits): Newton must stop on its own correction, not on the
  // safeguarded step (regression: it once bisected below one ulp and escalated precision).
  ZivOptions o;
  o.tolerance = q("1e-1000");
  const GaussianCalibration c = calibrate_gaussian(q("1"), q("1e-5"), q("1"), o);
  EXPECT_TRUE(c.tolerance_met);
  EXPECT_LE((c.sigma - c.sigma_lower) / c.sigma_lower, q("1e-1000"));
  EXPECT_TRUE(upper_at_most(c.delta_at_sigma, q("1e-5")));
  EXPECT_TRUE(lower_above(c.delta_at_sigma_lower, q("1e-5")));
}

TEST(AnalyticGaussian, ExtremeEpsilons) {
  // eps = 10^400: sigma ~ 1/sqrt(2 eps) = 7.07e-201; the profile jumps from ~1 to ~0 across a
  // relative 10^-200 around it, so both certified ends are extreme but correct.
  const mpq_class huge(mpz_class("1" + std::string(400, '0')));
  const GaussianCalibration h = calibrate_gaussian(huge, q("1e-5"), q("1"));
  EXPECT_TRUE(h.tolerance_met);
  EXPECT_TRUE(upper_at_most(h.delta_at_sigma, q("1e-5")));
  EXPECT_TRUE(lower_above(h.delta_at_sigma_lower, q("1e-5")));
  EXPECT_GT(h.sigma, q("7.0710678e-201"));
  EXPECT_LT(h.sigma, q("7.0710679e-201"));
  // eps = 10^-5000: the eps = 0 answer, sigma = 1/(2 Phi^-1((1 + delta)/2)) ~ 39894.228.
  mpq_class tiny(1);
  mpz_ui_pow_ui(tiny.get_den_mpz_t(), 10, 5000);
  const GaussianCalibration t = calibrate_gaussian(tiny, q("1e-5"), q("1"));
  EXPECT_TRUE(t.tolerance_met);
  EXPECT_GT(t.sigma, q("39894.228"));
  EXPECT_LT(t.sigma, q("39894.229"));
}

TEST(AnalyticGaussian, EpsilonZeroAndLargeEpsilon) {
  expect_certified(calibrate_gaussian(q("0"), q("0.01"), q("1")), q("0"), q("0.01"), q("1"));
  expect_certified(calibrate_gaussian(q("50"), q("0.3"), q("2")), q("50"), q("0.3"), q("2"));
}

TEST(AnalyticGaussian, ClassicalSigmaAndErrors) {
  const Interval s = classical_gaussian_sigma(q("0.5"), q("1e-5"), q("1"), 128);
  // sqrt(2 ln(125000)) / 0.5 = 9.68961...
  EXPECT_TRUE(lower_above(s, q("9.6896")));
  EXPECT_TRUE(upper_at_most(s, q("9.6897")));
  EXPECT_THROW((void)classical_gaussian_sigma(q("1"), q("1e-5"), q("1"), 128), ParameterError);
  EXPECT_THROW((void)calibrate_gaussian(q("1"), q("0"), q("1")), ParameterError);
  EXPECT_THROW((void)calibrate_gaussian(q("1"), q("1"), q("1")), ParameterError);
  EXPECT_THROW((void)calibrate_gaussian(q("-1"), q("0.1"), q("1")), ParameterError);
  EXPECT_THROW((void)calibrate_gaussian(q("1"), q("0.1"), q("0")), ParameterError);
}

// Balle & Wang: "analytical calibration removes at least a third of the variance". Certified
// here for delta in {1e-2, 1e-3, 1e-5} and eps in (0, 1); it does NOT hold for small delta
// (as delta -> 0 the two sigmas agree to first order): at delta = 1e-20 the ratio is > 2/3.
TEST(AnalyticGaussian, VarianceRatioClaim) {
  ZivOptions o;
  o.tolerance = q("1e-6");
  for (const char* delta : {"1e-2", "1e-3", "1e-5"}) {
    for (const char* eps : {"0.001", "0.01", "0.1", "0.5", "0.9", "0.999"}) {
      const GaussianCalibration c = calibrate_gaussian(q(eps), q(delta), q("1"), o);
      const Interval r = gaussian_variance_ratio(c, q(eps), q(delta), q("1"), 128);
      EXPECT_TRUE(upper_at_most(r, q("2/3"))) << eps << " " << delta << " " << r.debug_string();
    }
  }
  const GaussianCalibration c = calibrate_gaussian(q("0.5"), q("1e-20"), q("1"), o);
  EXPECT_TRUE(lower_above(gaussian_variance_ratio(c, q("0.5"), q("1e-20"), q("1"), 128), q("2/3")));
}

// Targets above 1/2 are certified on 1 - delta (gdp_delta_complement_at). delta = 1 - 10^-29 once
// took 50 s (Newton on log delta cannot see 10^-29 at 96 bits, wandered to s ~ 0, then doubled
// back one step at a time); 1 - 10^-5000 is the digit limit's version of the same question.
TEST(AnalyticGaussian, TargetsNearOne) {
  mpq_class one_minus_tiny(1);
  mpz_ui_pow_ui(one_minus_tiny.get_den_mpz_t(), 10, 5000);
  one_minus_tiny = 1 - one_minus_tiny;
  const mpq_class huge(mpz_class("1" + std::string(400, '0')));
  for (const mpq_class& delta :
       {q("0.6"), q("0.9999999999999"), q("0.99999999999999999999999999999"), one_minus_tiny}) {
    for (const mpq_class& eps : {q("0"), q("1"), q("1e-5000"), huge}) {
      const GaussianCalibration c = calibrate_gaussian(eps, delta, q("1"));
      EXPECT_TRUE(c.tolerance_met);
      EXPECT_TRUE(upper_at_most(c.delta_at_sigma, delta)) << c.delta_at_sigma.debug_string();
      EXPECT_TRUE(lower_above(c.delta_at_sigma_lower, delta));
      // Independent re-check on the complement at 600 bits.
      const mpq_class level = 1 - delta;
      const Interval meets = gdp_delta_complement_at(eps, mpq_class(1 / c.sigma), 600);
      const Interval misses = gdp_delta_complement_at(eps, mpq_class(1 / c.sigma_lower), 600);
      EXPECT_GE(mpfr_cmp_q(meets.lower(), level.get_mpq_t()), 0);
      EXPECT_LT(mpfr_cmp_q(misses.upper(), level.get_mpq_t()), 0);
      EXPECT_LT(c.sigma_lower, c.sigma);
    }
  }
  // And through delta itself, at enough bits to see 10^-29 (an evaluation path not used above).
  const mpq_class d29 = q("0.99999999999999999999999999999");
  const GaussianCalibration c = calibrate_gaussian(q("1"), d29, q("1"));
  expect_certified(c, q("1"), d29, q("1"));
  EXPECT_GT(c.sigma, q("0.0439850983056364"));
  EXPECT_LT(c.sigma, q("0.0439850983056365"));
}

RC_GTEST_PROP(AnalyticGaussianProperty, TargetsAboveOneHalfAreCertifiedOnBothSides, ()) {
  const mpq_class eps = *test_support::rational_in(q("0"), q("20"));
  // 1 - delta in [10^-40, 1/2]: certified through delta at 1000 bits (enough to see 10^-40).
  const int exponent = *rc::gen::inRange(1, 41);
  mpq_class level = *test_support::rational_in(q("1"), q("5"));
  mpz_class ten_power;
  mpz_ui_pow_ui(ten_power.get_mpz_t(), 10, static_cast<unsigned long>(exponent));
  level /= ten_power;  // in [10^-40, 1/2]
  const mpq_class delta = 1 - level;
  const mpq_class sens = *test_support::positive_rational(1);
  const GaussianCalibration c = calibrate_gaussian(eps, delta, sens);
  RC_ASSERT(c.tolerance_met);
  RC_ASSERT(upper_at_most(gaussian_delta_at(eps, c.sigma, sens, 1000), delta));
  RC_ASSERT(lower_above(gaussian_delta_at(eps, c.sigma_lower, sens, 1000), delta));
}

RC_GTEST_PROP(AnalyticGaussianProperty, BracketIsCertifiedOnBothSides, ()) {
  const mpq_class eps = *test_support::rational_in(q("0"), q("20"));
  const mpq_class delta = *test_support::rational_in(q("1/1000000"), q("999/1000"));
  RC_PRE(sgn(delta) > 0);
  const mpq_class sens = *test_support::positive_rational(1);
  ZivOptions o;
  o.tolerance = q("1/1000000000000");
  const GaussianCalibration c = calibrate_gaussian(eps, delta, sens, o);
  RC_ASSERT(c.tolerance_met);
  RC_ASSERT(upper_at_most(gaussian_delta_at(eps, c.sigma, sens, 400), delta));
  RC_ASSERT(lower_above(gaussian_delta_at(eps, c.sigma_lower, sens, 400), delta));
}

}  // namespace
}  // namespace exactdp::accounting
