// joint_gaussian_calibration_test.cc — the product profile of two discrete Gaussians against an
// independent mpmath summation, and the joint calibration of `aggregate`'s quantities below the
// zCDP split, certified and near its optimum: exact for two coordinates, smoothed for many.
#include <gtest/gtest.h>

#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/product_discrete_gaussian_profile.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>
#include <exactdp/mechanisms/aggregate/joint_gaussian_calibration.h>
#include <exactdp/mechanisms/release/release_calibration.h>

namespace exactdp {
namespace {

using accounting::GaussianCoordinate;

struct Reference {
  const char* epsilon;
  const char* sigma2_a;
  long shift_a;
  const char* sigma2_b;
  long shift_b;
  const char* delta;  // tests/mechanisms/data/product_discrete_gaussian_reference.py (mpmath, 60 digits)
};

const Reference kReferences[] = {
    {"2/3", "95", 1, "9500", 10, "8.7861725259363373323e-8"},
    {"2/3", "85", 1, "8500", 10, "3.1129940885463792348e-7"},
    {"1", "30", 2, "1200", 7, "0.0018599244677947821623"},
    {"1/4", "200", 1, "20000", 10, "0.0002268582995049079411"},
};

mpq_class decimal(const char* text) { return parse_rational("delta", text); }

TEST(ProductDiscreteGaussianProfile, ContainsTheMpmathSummation) {
  for (const Reference& r : kReferences) {
    const std::vector<GaussianCoordinate> coords = {{mpq_class(r.sigma2_a), r.shift_a},
                                                    {mpq_class(r.sigma2_b), r.shift_b}};
    const mpq_class reference = decimal(r.delta);
    const mpq_class target = reference * 2;  // sizes the truncation: charge <= target 2^-16
    const Interval d = accounting::product_discrete_gaussian_delta_at(coords, mpq_class(r.epsilon), target);
    // The reference has 20 digits: widen it by 1e-18 relative before asking for containment.
    const mpq_class tiny(1, 1000000000000000000);
    EXPECT_FALSE(lower_above(d, reference * (1 + tiny))) << "above the reference: " << d.debug_string();
    EXPECT_FALSE(upper_at_most(d, reference * (1 - tiny))) << "below the reference: " << d.debug_string();
    EXPECT_TRUE(upper_at_most(d, reference * (1 + power_of_two(-14)))) << "the tail charge is too large";
  }
}

TEST(ProductDiscreteGaussianProfile, OneCoordinateIsTheTheorem7Profile) {
  const Interval one = accounting::product_discrete_gaussian_delta_at({{mpq_class(95), 1}}, mpq_class(2, 3),
                                                                      mpq_class(1, 1000000));
  const Interval direct = accounting::discrete_gaussian_delta_at(mpq_class(2, 3), mpq_class(95), 1, kDefaultPrecision);
  EXPECT_TRUE(one.contains(direct) && direct.contains(one)) << one.debug_string() << " " << direct.debug_string();
}

// The aggregate's count (b = 1) and sum (b = 10 grid steps), L0 = Linf = 1, epsilon 1 and delta
// 1e-6 with the default selection share 1/3: the aggregates get (2/3, 2/3 10^-6).
mechanisms::AggregateRequest count_and_sum() {
  mechanisms::AggregateRequest r;
  r.privacy_unit = "u";
  r.group_by = {"g"};
  r.outputs = {{mechanisms::AggregateKind::kCount, ""}, {mechanisms::AggregateKind::kSum, "x"}};
  r.value_columns.push_back({"x", mechanisms::parse_value_bounds("0,10")});
  r.bounding = {1, 1};
  r.mechanism = "discrete-gaussian";
  r.epsilon = 1;
  r.delta = mpq_class(1, 1000000);
  return r;
}

TEST(JointGaussianCalibration, BelowTheZcdpSplitCertifiedAndNearTheOptimum) {
  const mechanisms::AggregateGuarantee g = mechanisms::calibrate_aggregate(count_and_sum());
  ASSERT_EQ(g.aggregates_route, "product-profile (exact)");
  ASSERT_EQ(g.noise.size(), 2U);
  ASSERT_TRUE(g.aggregates_delta_certified.has_value());
  EXPECT_TRUE(upper_at_most(*g.aggregates_delta_certified, g.aggregates_delta));
  std::vector<mpz_class> shifts;
  std::vector<mpq_class> sigma2, lowered;
  for (const auto& q : g.noise) {
    EXPECT_LT(q.sigma2, q.zcdp_sigma2 * mpq_class(95, 100)) << "not 5 % below the zCDP split";
    shifts.push_back(q.sensitivity.per_group);
    sigma2.push_back(q.sigma2);
    lowered.push_back(q.sigma2 * mpq_class(98, 100));
  }
  EXPECT_EQ(shifts[1], 10);
  const mpq_class eps = g.aggregates_epsilon;
  EXPECT_TRUE(upper_at_most(mechanisms::joint_gaussian_delta(shifts, 1, sigma2, eps, g.aggregates_delta),
                            g.aggregates_delta));
  // 2 % less noise misses the target: the search stopped within the 3-digit rounding of the optimum.
  EXPECT_TRUE(lower_above(mechanisms::joint_gaussian_delta(shifts, 1, lowered, eps, g.aggregates_delta),
                          g.aggregates_delta))
      << "sigma2 " << to_string(sigma2[0]) << ", " << to_string(sigma2[1]);
}

// Count, sum and mean with L0 = 3, Linf = 2 (nine coordinates): the smoothed bound of the
// product. The zCDP split gives the count sigma2 = 1640 (sd 40.5); the continuous Gaussian's
// optimum for the same ratios is about sd 37.7.
TEST(JointGaussianCalibration, ManyCoordinatesTakeTheSmoothedBound) {
  mechanisms::AggregateRequest r = count_and_sum();
  r.outputs.push_back({mechanisms::AggregateKind::kMean, "x"});
  r.value_columns[0].bounds = mechanisms::parse_value_bounds("0,100");
  r.bounding = {3, 2};
  const mechanisms::AggregateGuarantee g = mechanisms::calibrate_aggregate(r);
  ASSERT_EQ(g.aggregates_route, "product-profile (smoothed)");
  ASSERT_EQ(g.noise.size(), 3U);
  ASSERT_TRUE(g.aggregates_delta_certified.has_value());
  EXPECT_TRUE(upper_at_most(*g.aggregates_delta_certified, g.aggregates_delta));
  EXPECT_EQ(g.noise[0].zcdp_sigma2, 1640);
  EXPECT_LE(g.noise[0].sigma2, 1440) << "count sd above 37.95";
  std::vector<mpz_class> shifts;
  std::vector<mpq_class> sigma2;
  mpq_class mu2_lowered = 0;  // the continuous Gaussians at 2 % less variance, no smoothing
  for (const auto& q : g.noise) {
    shifts.push_back(q.sensitivity.per_group);
    sigma2.push_back(q.sigma2);
    mu2_lowered += 3 * mpq_class(q.sensitivity.per_group * q.sensitivity.per_group) / (q.sigma2 * mpq_class(98, 100));
  }
  EXPECT_TRUE(upper_at_most(mechanisms::joint_gaussian_smoothed_delta(shifts, 3, sigma2, g.aggregates_epsilon),
                            g.aggregates_delta));
  // 2 % less noise misses delta even for the continuous Gaussians (which the discrete ones match
  // to within t2 / sigma2): the search stopped within the 3-digit rounding of the optimum.
  const Interval mu = sqrt(Interval(mu2_lowered, kDefaultPrecision));
  EXPECT_TRUE(lower_above(accounting::gdp_delta_at(Interval(g.aggregates_epsilon, kDefaultPrecision), mu,
                                                   kDefaultPrecision),
                          g.aggregates_delta));
}

// Past kMaxSmoothedQuantities the smoothed route is not tried (its width choice is quadratic in
// the quantities: 1,500 columns took 14.8 s). The start is the zCDP split's (sigma2 about 24.2 n
// at epsilon 1, delta 10^-5), where the smoothed route would answer (ManyCoordinates... above).
TEST(JointGaussianCalibration, TheSmoothedRouteIsNotTriedPastItsQuantityCap) {
  const std::size_t n = mechanisms::kMaxSmoothedQuantities + 1;
  const std::vector<mpz_class> shifts(n, mpz_class(1));
  const std::vector<mpq_class> start(n, mpq_class(30 * static_cast<long>(n)));
  const auto joint = mechanisms::calibrate_joint_gaussian(shifts, 1, mpq_class(1), mpq_class(1, 100'000), start);
  EXPECT_FALSE(joint && joint->route == "product-profile (smoothed)");
}

TEST(JointGaussianCalibration, QuantilesKeepTheZcdpSplit) {
  mechanisms::AggregateRequest r = count_and_sum();
  mechanisms::AggregateOutput quantile{mechanisms::AggregateKind::kQuantile, "x"};
  quantile.q = mpq_class(1, 2);
  r.outputs.push_back(quantile);
  const mechanisms::AggregateGuarantee g = mechanisms::calibrate_aggregate(r);
  EXPECT_EQ(g.aggregates_route.rfind("product-profile", 0), std::string::npos);
  EXPECT_FALSE(g.aggregates_delta_certified.has_value());
  for (const auto& q : g.noise) EXPECT_EQ(q.zcdp_sigma2, 0);
}

TEST(JointGaussianCalibration, ReleaseOfTwoColumnsWithOneContribution) {
  mechanisms::ReleaseBudget budget;
  budget.epsilon = 1;
  budget.delta = mpq_class(1, 1000000);
  mechanisms::ContributionModel model;
  model.columns = 2;
  model.column_sensitivities = {1, 3};
  const mechanisms::ReleaseCalibration c = mechanisms::calibrate_release(budget, model, 10);
  ASSERT_EQ(c.route, "product-profile");
  ASSERT_EQ(c.column_noise.size(), 2U);
  EXPECT_TRUE(upper_at_most(c.delta, *budget.delta));
  const mpq_class rho = mechanisms::max_zcdp_rho(budget.epsilon, *budget.delta);
  const std::vector<mpz_class> shifts = {1, 3};
  std::vector<mpq_class> lowered;
  for (std::size_t i = 0; i < 2; ++i) {
    const mpq_class split = accounting::round_up_significant(2 * mpq_class(shifts[i] * shifts[i]) / (2 * rho), 3);
    EXPECT_LT(c.column_noise[i], split * mpq_class(95, 100)) << "column " << i;
    lowered.push_back(c.column_noise[i] * mpq_class(98, 100));
  }
  EXPECT_TRUE(lower_above(mechanisms::joint_gaussian_delta(shifts, 1, lowered, budget.epsilon, *budget.delta),
                          *budget.delta));
  model.contributions = 2;  // a person may change two rows: the product is not the worst pair
  EXPECT_EQ(mechanisms::calibrate_release(budget, model, 10).route, "zcdp");
}

}  // namespace
}  // namespace exactdp
