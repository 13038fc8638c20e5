// The operations through the C++ facade (<exactdp/operations.h>): each public request answers
// the numbers of the operation it translates to (operations/), and is refused by the operation's
// own checks and limits, naming the parameter in the C spelling.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <string>

#include <exactdp/operations.h>
#include <exactdp/operations/calibrate.h>
#include <exactdp/operations/calibrate_dp_sgd.h>
#include <exactdp/operations/compose.h>
#include <exactdp/operations/convert.h>
#include <exactdp/operations/profile.h>
#include "tests/operations/thrown.h"

namespace exactdp {
namespace {

using operations::thrown;

bool same(const Interval& a, const Interval& b) {
  return mpfr_equal_p(a.lower(), b.lower()) != 0 && mpfr_equal_p(a.upper(), b.upper()) != 0;
}

TEST(OperationsFacade, ProfileIsTheOperationsProfile) {
  const ProfileReport r = profile({.law = "gaussian", .parameters = {{"sigma", "2"}}, .epsilons = {"1", "1/2"}});
  operations::ProfileRequest internal{.mechanism = "gaussian", .parameters = {{"sigma", "2"}}};
  const operations::MechanismSpec m = operations::plan_profile(internal).mechanism;
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[1].epsilon, mpq_class(1, 2));
  EXPECT_TRUE(same(r.rows[0].delta, m.delta(1, accounting::ZivOptions{}).value));
  EXPECT_TRUE(same(r.rows[1].delta, m.delta(mpq_class(1, 2), accounting::ZivOptions{}).value));
  EXPECT_EQ(r.parameters, (LawArguments{{"sigma", "2"}, {"sensitivity", "1"}}));
  EXPECT_FALSE(r.tau_upper);
  // The hardened sampler's tau is charged, and tau_bits is no parameter of the law.
  const ProfileReport h = profile({.law = "discrete-gaussian", .parameters = {{"sigma2", "4"}}, .epsilons = {"1"},
                                   .hardened = true, .tau_bits = "40"});
  ASSERT_TRUE(h.tau_upper);
  EXPECT_EQ(h.parameters.size(), 2u);
  EXPECT_EQ(h.law, "discrete-gaussian");
}

TEST(OperationsFacade, ProfileRefusesAsTheOperationDoes) {
  EXPECT_EQ(thrown<ParameterError>([] { (void)profile({.law = "bernoulli-exp", .epsilons = {"1"}}); }).parameter(),
            "law");
  EXPECT_STREQ(thrown<ParameterError>([] { (void)profile({.law = "gaussian", .epsilons = {"1"}}); }).what(),
               "missing required parameter sigma");
  EXPECT_EQ(thrown<ParameterError>([] { (void)profile({.law = "gaussian", .parameters = {{"sigma", "1"}}}); })
                .parameter(),
            "epsilons");
  EXPECT_EQ(thrown<ParameterError>([] {
              (void)profile({.law = "gaussian", .parameters = {{"sigma", "1"}}, .epsilons = {"1"}, .tau_bits = "64"});
            }).what(),
            std::string("tau_bits applies only with hardened = true"));
  // The tolerance's cost limit, before any work.
  const LimitError limit = thrown<LimitError>([] {
    (void)profile({.law = "gaussian", .parameters = {{"sigma", "1"}}, .epsilons = {"1"}, .tolerance = "1e-700"});
  });
  EXPECT_EQ(limit.parameter(), "tolerance");
}

TEST(OperationsFacade, CalibrateIsTheOperationsCalibrate) {
  const CalibrateReport g = calibrate({.law = "gaussian", .epsilon = "1", .delta = "1e-5"});
  operations::CalibrateRequest internal{.law = "gaussian", .epsilon = 1, .delta = mpq_class(1, 100000)};
  const operations::CalibrateReport expected = operations::calibrate(internal, operations::plan_calibration(internal));
  EXPECT_EQ(g.parameter, "sigma");
  EXPECT_EQ(g.value, expected.calibration.value);
  EXPECT_TRUE(same(g.delta_at, expected.calibration.delta_at));
  EXPECT_TRUE(g.sigma_lower && g.delta_at_sigma_lower);
  EXPECT_EQ(g.value, law_calibrate("gaussian", {}, 1, mpq_class(1, 100000)).value);
  const CalibrateReport z = calibrate({.law = "discrete-gaussian", .epsilon = "1", .delta = "1e-5", .sensitivity = "2"});
  EXPECT_EQ(z.parameter, "sigma2");
  EXPECT_TRUE(z.significant_digits && z.optimum_lower && z.optimum_upper);
  EXPECT_EQ(thrown<ParameterError>([] { (void)calibrate({.law = "gaussian", .epsilon = "1", .delta = "1"}); })
                .parameter(),
            "delta");
  EXPECT_EQ(thrown<ParameterError>([] { (void)calibrate({.law = "staircase", .epsilon = "1", .delta = "0"}); })
                .parameter(),
            "mechanism");
}

TEST(OperationsFacade, CalibrateDpSgdIsTheOperationsCalibration) {
  const CalibrateDpSgdReport r = calibrate_dp_sgd({.q = "1", .steps = 1, .epsilon = "2", .delta = "1e-5", .route = "rdp"});
  operations::CalibrateDpSgdRequest internal{.q = 1, .steps = 1, .epsilon = 2, .delta = mpq_class(1, 100000), .route = "rdp"};
  const operations::CalibrateDpSgdReport expected = operations::calibrate_dp_sgd(internal);
  EXPECT_EQ(r.sigma_upper, expected.answer.calibration.sigma_upper);
  EXPECT_EQ(r.sigma_to_use, expected.sigma_to_use);
  EXPECT_TRUE(same(r.epsilon_at_sigma_upper, expected.answer.calibration.epsilon_at_upper));
  EXPECT_EQ(r.rdp_order, expected.answer.calibration.order_at_upper);
  EXPECT_FALSE(r.resolution);
  EXPECT_EQ(r.neighbouring, "add/remove-one");
  const auto steps = [] { (void)calibrate_dp_sgd({.q = "1/100", .steps = 0, .epsilon = "1", .delta = "1e-5"}); };
  EXPECT_EQ(thrown<ParameterError>(steps).parameter(), "steps");
  const auto route = [] {
    (void)calibrate_dp_sgd({.q = "1/100", .steps = 10, .epsilon = "1", .delta = "1e-5", .route = "other"});
  };
  EXPECT_EQ(thrown<ParameterError>(route).parameter(), "route");
}

TEST(OperationsFacade, ConvertAndComposeAreTheOperations) {
  const ConvertReport c = convert({.source = "zcdp", .rho = "1/2", .delta = "1e-6"});
  operations::ConvertRequest internal{.source = "zcdp", .rho = mpq_class(1, 2), .delta = mpq_class(1, 1000000)};
  const operations::ConvertReport expected = operations::convert(internal);
  EXPECT_EQ(c.result, "epsilon");
  EXPECT_TRUE(same(c.value, expected.value.value));
  EXPECT_EQ(c.alpha, expected.alpha);
  EXPECT_EQ(c.route, expected.route);
  EXPECT_EQ(thrown<ParameterError>([] { (void)convert({.source = "zcdp", .rho = "1/2"}); }).parameter(), "delta");

  const ComposePureDpReport r = compose_pure_dp({.epsilon = "1/10", .k = 10, .delta = "1e-5", .method = "all"});
  ASSERT_EQ(r.results.size(), 5u);
  EXPECT_EQ(r.results[0].method, "basic");
  EXPECT_EQ(mpfr_cmp_ui(r.results[0].epsilon.upper(), 1), 0);  // k epsilon, exact
  EXPECT_EQ(r.k, 10u);
  EXPECT_EQ(thrown<ParameterError>([] { (void)compose_pure_dp({.epsilon = "1", .k = 0, .delta = "1e-5"}); })
                .parameter(),
            "k");
}

TEST(OperationsFacade, MeasureGdpBracketsTheGaussiansMu) {
  // gaussian(sigma=1) is exactly 1-GDP.
  const MeasureGdpReport r = measure_gdp({.mechanism = "gaussian", .parameters = {{"sigma", "1"}}, .eps_max = "2"});
  EXPECT_LE(mpfr_cmp_ui(r.mu.lower(), 1), 0);
  EXPECT_GE(mpfr_cmp_ui(r.mu.upper(), 1), 0);
  EXPECT_TRUE(r.bounded);
  EXPECT_EQ(r.eps_max, 2);
  EXPECT_EQ(r.mechanism, "gaussian(sigma=1, sensitivity=1)");
  EXPECT_EQ(r.tail_limit, std::optional<std::string>("1"));
  const auto bad = [] { (void)measure_gdp({.mechanism = "gaussian", .parameters = {{"sigma", "1"}}, .mu_max = "0"}); };
  EXPECT_EQ(thrown<ParameterError>(bad).parameter(), "mu-max");  // as every face names it
}

}  // namespace
}  // namespace exactdp
