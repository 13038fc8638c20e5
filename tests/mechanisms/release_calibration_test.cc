// release_calibration_test.cc — calibrate_release (mechanisms/release/release_calibration.h):
// the per-cell parameter of each route and certified containment of the guarantee: the composed
// epsilon and delta upper ends never exceed the request, re-derived here from the accounting
// layer independently of the calibration's own final check.
#include <gtest/gtest.h>

#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/laws/law.h>
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

#include <string>
#include <vector>

namespace exactdp {
namespace {

using mechanisms::calibrate_release;
using mechanisms::ContributionModel;

using mechanisms::ReleaseBudget;

ReleaseBudget budget(std::string m, const char* eps, const char* delta, bool hardened = false) {
  ReleaseBudget b;
  b.mechanism = m;
  b.epsilon = parse_rational("epsilon", eps);
  if (delta != nullptr) b.delta = parse_rational("delta", delta);
  b.hardened = hardened;
  return b;
}

ContributionModel model(unsigned long columns, unsigned long k, long sensitivity) {
  ContributionModel m;
  m.columns = columns;
  m.contributions = k;
  m.sensitivity = sensitivity;
  return m;
}

TEST(ReleaseCalibration, LaplaceScaleIsL1OverEpsilon) {
  const auto c = calibrate_release(budget("discrete-laplace", "0.5", nullptr), model(3, 2, 5), 10);
  EXPECT_EQ(c.route, "pure-dp-l1");
  EXPECT_EQ(c.scale, mpq_class(3 * 2 * 5 * 2));  // C K Delta / eps = 30 / (1/2)
  EXPECT_EQ(c.l1_sensitivity, 30);
  EXPECT_EQ(*c.delta_exact, 0);
  EXPECT_EQ(*c.rho, mpq_class(1, 8));
  ASSERT_TRUE(c.mu.has_value());
  EXPECT_EQ(c.cells, 30u);
}

TEST(ReleaseCalibration, OneColumnOneContributionUsesTheExactProfile) {
  const auto c = calibrate_release(budget("discrete-gaussian", "1", "1e-6"), model(1, 1, 3), 5);
  EXPECT_EQ(c.route, "exact-profile");
  const auto direct = accounting::calibrate_discrete_gaussian(1, mpq_class(1, 1'000'000), 3);
  EXPECT_EQ(c.sigma2, direct.sigma2);
  // Independent re-check: the exact profile at sigma2 is certified <= delta.
  const auto d = accounting::discrete_gaussian_delta(1, c.sigma2, 3);
  EXPECT_TRUE(exactdp::upper_at_most(d.value, mpq_class(1, 1'000'000)));
  EXPECT_EQ(*c.rho, mpq_class(9) / (2 * c.sigma2));
}

TEST(ReleaseCalibration, SeveralColumnsComposeThroughZcdp) {
  const mpq_class delta(1, 1'000'000);
  const auto c = calibrate_release(budget("discrete-gaussian", "1", "1e-6"), model(4, 3, 2), 7);
  EXPECT_EQ(c.route, "zcdp");
  EXPECT_EQ(c.l2_sensitivity_squared, 4 * 9 * 4);
  EXPECT_EQ(*c.rho, mpq_class(4 * 9 * 4) / (2 * c.sigma2));
  // Independent re-check of the conversion, and near-optimality: 3 % less noise misses epsilon.
  const auto conv = accounting::zcdp_epsilon(*c.rho, delta);
  EXPECT_TRUE(exactdp::upper_at_most(conv.bound.value, 1));
  const auto tighter = accounting::zcdp_epsilon(*c.rho * mpq_class(100, 97), delta);
  EXPECT_FALSE(exactdp::upper_at_most(tighter.bound.value, 1));
}

TEST(ReleaseCalibration, GuaranteeNeverExceedsTheRequest) {
  struct Case {
    std::string m;
    const char* eps;
    const char* delta;
    unsigned long columns, k;
    long sensitivity;
    bool hardened;
  };
  const Case cases[] = {
      {"discrete-gaussian", "0.1", "1e-9", 1, 1, 1, false},
      {"discrete-gaussian", "0.1", "1e-9", 2, 1, 1, false},
      {"discrete-gaussian", "3", "1e-5", 10, 5, 100, false},
      {"discrete-gaussian", "1", "1e-6", 2, 2, 1, true},
      {"discrete-gaussian", "1", "1e-6", 1, 1, 1, true},
      {"discrete-laplace", "0.3", nullptr, 5, 7, 2, false},
      {"discrete-laplace", "2", "1e-9", 2, 1, 1, true},
  };
  for (const auto& t : cases) {
    const auto b = budget(t.m, t.eps, t.delta, t.hardened);
    const auto c = calibrate_release(b, model(t.columns, t.k, t.sensitivity), 1000);
    EXPECT_TRUE(exactdp::upper_at_most(c.epsilon, b.epsilon) ||
                (c.epsilon_exact && *c.epsilon_exact <= b.epsilon)) << t.eps;
    const mpq_class d = b.delta.value_or(0);
    EXPECT_TRUE(exactdp::upper_at_most(c.delta, d) || (c.delta_exact && *c.delta_exact <= d)) << t.eps;
    if (t.hardened) {
      EXPECT_FALSE(c.rho.has_value());
      EXPECT_GT(sgn(c.tau_upper_per_cell), 0);
      EXPECT_TRUE(exactdp::lower_above(c.delta, 0));  // the charge is in delta
    }
  }
}

TEST(ReleaseCalibration, BadParametersAreNamed) {
  auto expect_named = [](const ReleaseBudget& b, const ContributionModel& m, const std::string& name) {
    try {
      (void)calibrate_release(b, m, 10);
      ADD_FAILURE() << name;
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), name) << e.what();
    }
  };
  expect_named(budget("discrete-gaussian", "1", nullptr), model(1, 1, 1), "delta");
  expect_named(budget("discrete-laplace", "1", nullptr, true), model(1, 1, 1), "delta");
  expect_named(budget("discrete-laplace", "0", nullptr), model(1, 1, 1), "epsilon");
  expect_named(budget("discrete-gaussian", "1", "1"), model(1, 1, 1), "delta");
  expect_named(budget("discrete-laplace", "1", nullptr), model(1, 1, 0), "sensitivity");
  expect_named(budget("discrete-laplace", "1", nullptr), model(1, 0, 1), "contributions");
  // The hardened charge of 10 cells does not fit in delta = 1e-30.
  expect_named(budget("discrete-gaussian", "1", "1e-30", true), model(1, 1, 1), "delta");
  expect_named(budget("no-such-law", "1", nullptr), model(1, 1, 1), "mechanism");
}

// A registry law without a release route (the staircase: pure DP but not linear in the change;
// the continuous Gaussian: no sampler) is refused by name, never released as another law.
TEST(ReleaseCalibration, LawWithoutARouteIsRefusedByName) {
  EXPECT_EQ(mechanisms::release_laws(), (std::vector<std::string>{"discrete-gaussian", "discrete-laplace"}));
  for (const char* law : {"staircase", "gaussian", "laplace", "bernoulli-exp"}) {
    try {
      (void)calibrate_release(budget(law, "1", "1e-6"), model(1, 1, 1), 10);
      ADD_FAILURE() << law;
    } catch (const laws::UnsupportedError& e) {
      EXPECT_EQ(e.parameter(), "law") << e.what();
      EXPECT_NE(std::string(e.what()).find(law), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace exactdp
