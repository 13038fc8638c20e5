// Cost limits checked before the work starts: the pld route's cost model (pld_cost.h), --tolerance
// and --digits (cli/accounting_options.h) and the audit's reference law. Each case once ran for
// a minute, used over 1 GiB or ended in "internal error"; now it exits 2 naming the parameter
// with nothing on stdout (or, under --route auto, answers through another route and says why
// pld was not used). No timed assertion: bench/pld_cost_refusals.sh times the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace exactdp::cli {
namespace {

using test_support::run_cli;

void expect_refused(const std::vector<std::string>& args, const std::string& parameter) {
  const auto r = run_cli(args);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 300);
  EXPECT_NE(r.err.find(parameter + ":"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
}

const std::vector<std::string> kSubsampledGaussian = {"compose", "--event", "poisson-gaussian:sigma=1,q=0.01",
                                                      "--delta", "1e-5"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliCostLimits, PldStepTooFineIsRefused) {
  expect_refused(with(kSubsampledGaussian, {"--count", "1000", "--route", "pld", "--pld-step", "1/10000000"}), "pld-step");
  expect_refused({"compose", "--event", "poisson-discrete-gaussian:sigma2=1,q=0.01", "--count", "1000", "--delta", "1e-5",
                  "--route", "pld", "--pld-step", "1/10000000"},
                 "pld-step");
}

TEST(CliCostLimits, PldStepTooCoarseIsRefusedNotAnInternalError) {
  expect_refused(with(kSubsampledGaussian, {"--count", "1000", "--route", "pld", "--pld-step", "1"}), "pld-step");
  // Under auto the rdp route answers and the report says why pld was not used.
  const auto r = run_cli(with(kSubsampledGaussian, {"--count", "1000", "--pld-step", "1"}));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("pld_detail = not used: pld-step:"), std::string::npos) << r.out;
}

TEST(CliCostLimits, PldCountTooLargeIsRefused) {
  expect_refused(with(kSubsampledGaussian, {"--count", "1000000000", "--route", "pld"}), "count");
}

TEST(CliCostLimits, PldWithinBudgetStillAnswers) {
  const auto r = run_cli(with(kSubsampledGaussian, {"--count", "1000", "--route", "pld"}));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("route = pld"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace exactdp::cli
