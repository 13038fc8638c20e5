#include "accounting/discrete_gaussian_calibration.h"

#include <gtest/gtest.h>

#include "accounting/discrete_gaussian_profile.h"
#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::accounting {
namespace {

mpq_class q(const char* s) { return parse_rational("test", s); }

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
