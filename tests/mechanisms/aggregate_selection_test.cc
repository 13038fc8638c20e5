// Partition selection and the budget of mechanisms/aggregate/: the threshold is the smallest
// certified one (known answer and minimality), its delta is L0 P[Z >= tau - 1] (checked against
// the exact release frequency of a one-unit group, fixed seed, |z| < 4.5, alpha ~ 7e-6), the
// split composes to at most the request (re-derived with the accounting layer), and bad requests
// are refused naming the parameter.
#include <gtest/gtest.h>

#include <cmath>

#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_selection_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;

constexpr unsigned kSuite = 9303;

TEST(AggregateSelection, ThresholdKnownAnswer) {
  // L0 = 1, epsilon = 1: t = 1 and delta(tau) = e^-(tau-1) / (1 + e^-1); for delta = 1e-6,
  // tau - 1 >= ln(10^6 / (1 + e^-1)) = 13.50..., so tau = 15.
  const auto s = mechanisms::calibrate_partition_selection(1, 1, mpq_class(1, 1000000));
  EXPECT_EQ(s.threshold, 15);
  EXPECT_TRUE(upper_at_most(s.delta, mpq_class(1, 1000000)));
  EXPECT_FALSE(upper_at_most(mechanisms::partition_selection_delta(1, 1, 14), mpq_class(1, 1000000)));
}

TEST(AggregateSelection, ThresholdIsTheSmallestCertifiedOne) {
  for (const unsigned long l0 : {1UL, 2UL, 10UL, 1000UL}) {
    for (const mpq_class& eps : {mpq_class(1, 10), mpq_class(1), mpq_class(5)}) {
      for (const mpq_class& delta : {mpq_class(1, 100), mpq_class(1, 1000000000)}) {
        const auto s = mechanisms::calibrate_partition_selection(l0, eps, delta);
        EXPECT_TRUE(upper_at_most(s.delta, delta));
        if (s.threshold > 1) {
          EXPECT_TRUE(lower_above(mechanisms::partition_selection_delta(l0, s.scale, s.threshold - 1), delta))
              << "L0 = " << l0 << ", eps = " << eps << ", delta = " << delta;
        }
      }
    }
  }
}

TEST(AggregateSelection, OneUnitGroupIsReleasedWithProbabilityDeltaOverL0) {
  // L0 = 1, epsilon = 1, delta = 3/10: tau = 2 and P[release | 1 unit] = P[Z >= 1] = e^-1/(1+e^-1).
  const auto s = mechanisms::calibrate_partition_selection(1, 1, mpq_class(3, 10));
  ASSERT_EQ(s.threshold, 2);
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  mechanisms::PartitionSelector selector(s);
  const int n = 40000;
  int kept = 0;
  for (int i = 0; i < n; ++i) kept += selector.keep(bits, 1) ? 1 : 0;
  const double p = std::exp(-1.0) / (1 + std::exp(-1.0));  // test statistic only
  const double z = (kept - n * p) / std::sqrt(n * p * (1 - p));
  EXPECT_LT(std::abs(z), 4.5) << kept << " of " << n;
  EXPECT_FALSE(selector.keep(bits, 0)) << "a group without units is never released";
}

AggregateRequest request(const std::string& m, bool keys) {
  AggregateRequest r;
  r.privacy_unit = "u";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCount, ""}, {AggregateKind::kMean, "x"}};
  r.value_columns.push_back({"x", mechanisms::parse_value_bounds("0,5.5")});
  r.bounding = {3, 2};
  r.mechanism = m;
  r.epsilon = 2;
  r.delta = mpq_class(1, 100000);
  r.public_keys = keys;
  return r;
}

TEST(AggregateCalibration, LaplaceSplitIsExact) {
  const auto g = mechanisms::calibrate_aggregate(request("discrete-laplace", false));
  ASSERT_TRUE(g.selection.has_value());
  EXPECT_EQ(g.selection->epsilon, mpq_class(2, 3));
  ASSERT_EQ(g.noise.size(), 2U);  // count (shared with the mean) and the mean's centred_sum_x
  mpq_class total = g.selection->epsilon;
  for (const auto& q : g.noise) total += q.epsilon;
  EXPECT_EQ(total, 2);
  EXPECT_TRUE(g.epsilon_is_exact);
  EXPECT_EQ(g.epsilon, 2);
  EXPECT_LE(g.delta, mpq_class(1, 100000));
  // n L0 Linf H / eps_agg, H = ceil(55 / 2) grid steps: the half width, the mean's sum is centred
  EXPECT_EQ(g.noise[1].scale, mpq_class(2 * 3 * 2 * 28) / mpq_class(4, 3));
}

TEST(AggregateCalibration, GaussianComposesWithinTheBudget) {
  for (const bool keys : {false, true}) {
    const auto g = mechanisms::calibrate_aggregate(request("discrete-gaussian", keys));
    // L0 = 3: the zCDP split, then lowered to the smoothed product profile's optimum
    ASSERT_EQ(g.aggregates_route, "product-profile (smoothed)");
    ASSERT_TRUE(g.aggregates_delta_certified.has_value());
    EXPECT_TRUE(upper_at_most(*g.aggregates_delta_certified, g.aggregates_delta));
    mpq_class split_rho = 0;  // the split the product route started from composes within the budget
    for (const auto& q : g.noise) {
      EXPECT_EQ(q.rho, mpq_class(q.sensitivity.l2_squared) / (2 * q.sigma2));
      EXPECT_LT(q.sigma2, q.zcdp_sigma2);
      split_rho += mpq_class(q.sensitivity.l2_squared) / (2 * q.zcdp_sigma2);
    }
    const auto independent = accounting::zcdp_epsilon(split_rho, g.aggregates_delta);
    EXPECT_TRUE(upper_at_most(independent.bound.value, g.aggregates_epsilon));
    EXPECT_LE(g.epsilon, 2);
    EXPECT_LE(g.delta, mpq_class(1, 100000));
    EXPECT_EQ(g.selection.has_value(), !keys);
  }
}

TEST(AggregateCalibration, BadRequestsNameTheParameter) {
  auto expect_naming = [](AggregateRequest r, const std::string& name) {
    try {
      (void)mechanisms::calibrate_aggregate(r);
      ADD_FAILURE() << "accepted; expected an error naming " << name;
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), name) << e.what();
    }
  };
  AggregateRequest r = request("discrete-laplace", false);
  r.delta.reset();
  expect_naming(r, "delta");
  r = request("discrete-laplace", true);
  r.split = mpq_class(1, 2);
  expect_naming(r, "split");
  r = request("discrete-laplace", false);
  r.split = 1;
  expect_naming(r, "split");
  r.split.reset();
  r.bounding.max_groups = 0;
  expect_naming(r, "max-groups");
  for (const char* bad : {"1", "2,1", "0,0", "a,1", "1e3,5", "1.,2", ",3", "-0,0.00"}) {
    try {
      (void)mechanisms::parse_value_bounds(bad);
      ADD_FAILURE() << bad;
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), "bounds");
    }
  }
}

}  // namespace aggregate_selection_test
}  // namespace
}  // namespace exactdp
