// release_calibration_limits_test.cc — the zCDP calibration of `release` and `aggregate`
// (max_zcdp_rho) at tiny epsilon and delta: it answers, or refuses with a LimitError naming
// epsilon that gives the least epsilon served at that delta, after a bounded search (CKS20
// Cor. 13's alpha is at most 1 + 2^2000, so at delta = 10^-1000 no rho reaches epsilon below
// ~8e-600; the search used to gallop towards rho = 2^-(2^40) and never came back).
#include <gtest/gtest.h>

#include <string>

#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/release/release_calibration.h>

namespace exactdp {
namespace {

mpq_class q(const char* text) { return parse_rational("x", text); }

void expect_refused_naming_epsilon_and_delta(const char* eps, const char* delta) {
  try {
    (void)mechanisms::max_zcdp_rho(q(eps), q(delta));
    FAIL() << "epsilon = " << eps << ", delta = " << delta << " was not refused";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "epsilon");
    const std::string what = e.what();
    EXPECT_NE(what.find("delta = "), std::string::npos) << what;
    EXPECT_NE(what.find("allowed: epsilon >= "), std::string::npos) << what;
  }
}

TEST(ReleaseCalibrationLimits, TinyEpsilonAndDeltaAreRefusedNamingThem) {
  expect_refused_naming_epsilon_and_delta("1e-1000", "1e-1000");
  expect_refused_naming_epsilon_and_delta("1e-3000", "1e-3000");
  expect_refused_naming_epsilon_and_delta("1e-100000", "1e-100000");
  expect_refused_naming_epsilon_and_delta("1e-700", "1e-1000");
}

TEST(ReleaseCalibrationLimits, NeighboursThatCanBeServedAnswer) {
  for (const auto& [eps, delta] : {std::pair{"1e-500", "1e-500"}, std::pair{"1e-500", "1e-1000"},
                                   std::pair{"1e-599", "1e-1000"}, std::pair{"1e-1000", "1e-6"}}) {
    const mpq_class rho = mechanisms::max_zcdp_rho(q(eps), q(delta));
    const accounting::ZcdpConversion c = accounting::zcdp_epsilon(rho, q(delta));
    EXPECT_TRUE(upper_at_most(c.bound.value, q(eps))) << eps << " " << delta;
  }
}

TEST(ReleaseCalibrationLimits, CalibrateReleaseRefusesThroughTheZcdpRoute) {
  mechanisms::ReleaseBudget b;
  b.epsilon = q("1e-1000");
  b.delta = q("1e-1000");
  mechanisms::ContributionModel m;
  m.contributions = 2;
  try {
    (void)mechanisms::calibrate_release(b, m, 10);
    FAIL() << "not refused";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "epsilon");
  }
  // One column and one contribution take the exact profile, which serves it.
  m.contributions = 1;
  EXPECT_GT(mechanisms::calibrate_release(b, m, 10).sigma2, 0);
}

}  // namespace
}  // namespace exactdp
