// exactdp calibrate dp-sgd through the pld route (default) and --route rdp, in process, at
// q = 0.01, 1000 steps, delta = 10^-5: every target answered (3, 3.14, 4 and 6 once exited 2
// with "fractional orders are not available ... sigma=1/1000"), the JSON naming the route.
// Checked: containment, not closeness — epsilon at sigma has certified upper end <= target, at
// sigma - resolution > target (and the sigma to use, composed back through `compose --route pld`
// on the same grid, meets the target); tests/accounting/dp_sgd_calibration_test.cc rechecks both
// sides independently.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

using test_support::CliRun;
using test_support::json_interval_field;
using test_support::json_string_field;

CliRun calibrate(const std::string& epsilon, const std::string& route) {
  std::vector<std::string> args = {"dp-sgd", "--q", "0.01", "--steps", "1000", "--epsilon", epsilon,
                                   "--delta", "1e-5", "--json"};
  if (!route.empty()) args.insert(args.end(), {"--route", route});
  return test_support::run_command("calibrate", std::move(args));
}

class CliCalibrateDpSgdPld : public ::testing::TestWithParam<const char*> {};

TEST_P(CliCalibrateDpSgdPld, AnsweredAndBracketedByOneResolutionStep) {
  const mpq_class target = parse_rational("epsilon", GetParam());
  const CliRun r = calibrate(GetParam(), "");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string_field(r.out, "route").rfind("pld", 0), 0U) << r.out;
  EXPECT_LE(json_interval_field(r.out, "epsilon_at_sigma_upper").second, target);
  EXPECT_GT(json_interval_field(r.out, "epsilon_at_sigma_lower").second, target);
  const mpq_class use = parse_rational("s", json_string_field(r.out, "sigma_to_use"));
  const mpq_class resolution = parse_rational("r", json_string_field(r.out, "resolution"));
  const auto [lo, hi] = json_interval_field(r.out, "sigma");  // outward-rounded decimals
  EXPECT_TRUE(lo <= use - resolution && use - resolution < hi && lo < use && use <= hi) << r.out;
  EXPECT_LT(use, parse_rational("s", json_string_field(r.out, "rdp_sigma")));
}

INSTANTIATE_TEST_SUITE_P(Targets, CliCalibrateDpSgdPld, ::testing::Values("2", "3", "3.14", "4", "6"));

// The sigma to use, composed back by `compose --route pld` on the grid the search used, meets
// the target; one resolution step lower it does not.
TEST(CliCalibrateDpSgd, SigmaToUseComposedBackMeetsTheTarget) {
  const CliRun r = calibrate("3.14", "pld");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string grid = json_string_field(r.out, "pld_grid");  // "step 1/N, masses at ..."
  const std::string step = grid.substr(5, grid.find(',') - 5);
  const mpq_class use = parse_rational("s", json_string_field(r.out, "sigma_to_use"));
  const mpq_class resolution = parse_rational("r", json_string_field(r.out, "resolution"));
  const auto composed_upper = [&](const mpq_class& sigma) {
    const CliRun back = test_support::run_command(
        "compose", {"--event", "poisson-gaussian:sigma=" + to_string(sigma) + ",q=0.01", "--count", "1000",
                    "--delta", "1e-5", "--route", "pld", "--pld-step", step, "--json"});
    EXPECT_EQ(back.status, 0) << back.err;
    return json_interval_field(back.out, "epsilon").second;
  };
  EXPECT_LE(composed_upper(use), parse_rational("t", "3.14"));
  EXPECT_GT(composed_upper(use - resolution), parse_rational("t", "3.14"));
}

TEST(CliCalibrateDpSgd, RouteRdpKeepsTheRdpBracket) {
  const CliRun r = calibrate("3.14", "rdp");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string_field(r.out, "route").rfind("rdp", 0), 0U) << r.out;
  EXPECT_NE(r.out.find("\"rdp_order\": "), std::string::npos) << r.out;
  const mpq_class target = parse_rational("t", "3.14");
  EXPECT_LE(json_interval_field(r.out, "epsilon_at_sigma_upper").second, target);
  EXPECT_GT(json_interval_field(r.out, "epsilon_at_sigma_lower").first, target);
}

}  // namespace
}  // namespace exactdp::cli
