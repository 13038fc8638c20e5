#include <exactdp/accounting/discrete_gaussian_calibration.h>

#include <gtest/gtest.h>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include "tests/support/rationals.h"

namespace exactdp::accounting {
namespace {

using test_support::q;

void expect_good(const char* eps, const char* delta, long sens) {
  const DiscreteGaussianCalibration c = calibrate_discrete_gaussian(q(eps), q(delta), mpz_class(sens));
  SCOPED_TRACE(std::string(eps) + " " + delta);
  // Certified at a far higher precision, independently of the calibration's own evaluation.
  EXPECT_TRUE(upper_at_most(discrete_gaussian_delta_at(q(eps), c.sigma2, mpz_class(sens), 600), q(delta)));
  EXPECT_TRUE(lower_above(discrete_gaussian_delta_at(q(eps), c.optimum_lower, mpz_class(sens), 600), q(delta)));
  EXPECT_TRUE(upper_at_most(discrete_gaussian_delta_at(q(eps), c.optimum_upper, mpz_class(sens), 600), q(delta)));
  EXPECT_TRUE(c.bracket_tolerance_met);
  EXPECT_LE(c.sigma2, c.optimum_lower * q("1.01"));  // within 1% of the optimum
  EXPECT_GE(c.sigma2, c.optimum_upper);
  EXPECT_EQ(round_up_significant(c.sigma2, c.significant_digits), c.sigma2);
}

TEST(DiscreteGaussianCalibration, MeetsTheTargetWithinOnePercent) {
  expect_good("1", "1e-5", 1);
  expect_good("0.1", "1e-5", 1);
  expect_good("10", "0.1", 1);
  expect_good("1", "1e-10", 100);
  expect_good("0.001", "1e-6", 1);
}

// The profile is not monotone in sigma2 (discrete_gaussian_profile_test): for this target the
// bisection from the continuous guess lands at 0.619, but the local minimum at the crossing
// point c_0 = 0.509... already meets it; the calibration must find the earlier branch.
TEST(DiscreteGaussianCalibration, FindsTheEarlierFeasibleBranch) {
  const mpq_class eps = q("245587/250000");
  const DiscreteGaussianCalibration c = calibrate_discrete_gaussian(eps, q("0.192"), mpz_class(1));
  EXPECT_LT(c.sigma2, q("0.51"));
  EXPECT_GT(c.optimum_lower, q("0.5078"));
  EXPECT_TRUE(upper_at_most(discrete_gaussian_delta_at(eps, c.sigma2, mpz_class(1), 400), q("0.192")));
  EXPECT_TRUE(lower_above(discrete_gaussian_delta_at(eps, c.optimum_lower, mpz_class(1), 400), q("0.192")));
  // A target below the local minimum keeps the later crossing.
  const DiscreteGaussianCalibration later = calibrate_discrete_gaussian(eps, q("0.19"), mpz_class(1));
  EXPECT_GT(later.optimum_lower, q("0.65"));
}

// Huge eps with a sensitivity > 1: the optimum is a tiny sigma2 where k1 = -1, and the range sum
// from a negative k overflowed (its first ratio exp(1/(2 sigma2)) is beyond MPFR's range), so
// delta came out [0, 1] at any precision and the lower bracket was never found: the squared
// widening factor then exhausted memory (accounting_fuzzer, session 2).
TEST(DiscreteGaussianCalibration, HugeEpsilonWithLargeSensitivity) {
  expect_good("1e30", "1e-5", 217);
  expect_good("1e38", "1e-18", 217);
  expect_good("1e12", "1e-5", 4096);
}

// Targets above 1/2 are compared on 1 - delta (discrete_gaussian_delta_complement_at):
// 1 - 10^-5000 took 3 s at 32,768 bits through delta itself.
TEST(DiscreteGaussianCalibration, TargetsNearOne) {
  expect_good("1", "0.6", 1);
  expect_good("2", "0.99999999999999999999999999999", 3);
  mpq_class one_minus_tiny(1);
  mpz_ui_pow_ui(one_minus_tiny.get_den_mpz_t(), 10, 5000);
  one_minus_tiny = 1 - one_minus_tiny;
  const DiscreteGaussianCalibration c = calibrate_discrete_gaussian(q("1"), one_minus_tiny, mpz_class(1));
  const mpq_class level = 1 - one_minus_tiny;
  EXPECT_TRUE(upper_at_most(c.delta_at_sigma2, one_minus_tiny));
  EXPECT_TRUE(lower_above(c.delta_at_optimum_lower, one_minus_tiny));
  const Interval meets = discrete_gaussian_delta_complement_at(q("1"), c.sigma2, mpz_class(1), 600);
  const Interval misses = discrete_gaussian_delta_complement_at(q("1"), c.optimum_lower, mpz_class(1), 600);
  EXPECT_GE(mpfr_cmp_q(meets.lower(), level.get_mpq_t()), 0);
  EXPECT_LT(mpfr_cmp_q(misses.upper(), level.get_mpq_t()), 0);
  EXPECT_TRUE(c.bracket_tolerance_met);
}

TEST(DiscreteGaussianCalibration, RoundUpSignificant) {
  EXPECT_EQ(round_up_significant(q("13.912"), 3), q("14"));
  EXPECT_EQ(round_up_significant(q("13.9"), 3), q("13.9"));
  EXPECT_EQ(round_up_significant(q("0.0494788"), 3), q("0.0495"));
  EXPECT_EQ(round_up_significant(q("999.1"), 3), q("1000"));
  EXPECT_EQ(round_up_significant(q("1e100") + 1, 3), q("1.01e100"));
}

TEST(DiscreteGaussianCalibration, RejectsBadParameters) {
  EXPECT_THROW((void)calibrate_discrete_gaussian(q("1"), q("1"), mpz_class(1)), ParameterError);
  EXPECT_THROW((void)calibrate_discrete_gaussian(q("1"), q("0.1"), mpz_class(0)), ParameterError);
  EXPECT_THROW((void)calibrate_discrete_gaussian(q("-1"), q("0.1"), mpz_class(1)), ParameterError);
}

}  // namespace
}  // namespace exactdp::accounting
