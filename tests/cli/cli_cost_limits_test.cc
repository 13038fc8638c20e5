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
  EXPECT_EQ(r.err.rfind("exactdp: " + parameter, 0), 0U) << r.err;  // the message names it first
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

TEST(CliCostLimits, ToleranceBelowTheCostLimitIsRefused) {
  const std::string tiny1500 = "1e-1500", tiny3000 = "1e-3000";
  expect_refused({"convert", "gdp", "--mu", "1", "--delta", "1e-5", "--tolerance", tiny1500}, "tolerance");
  expect_refused({"convert", "pure-dp", "--epsilon", "1", "--tolerance", tiny3000}, "tolerance");
  expect_refused({"compose", "pure-dp", "--epsilon", "1", "--k", "100", "--delta", "1e-5", "--method", "all", "--tolerance",
                  "1e-300"},
                 "tolerance");
  expect_refused(with(kSubsampledGaussian, {"--count", "100", "--digits", "10000", "--tolerance", tiny3000}), "tolerance");
  expect_refused({"calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--tolerance", tiny3000}, "tolerance");
  expect_refused({"profile", "gaussian", "--sigma", "1", "--epsilon", "1", "--tolerance", tiny3000}, "tolerance");
}

TEST(CliCostLimits, ToleranceWithinTheCostLimitStillAnswers) {
  // The limits bite only below them: these answer (2^-600 ~ 1e-180.6 for --method all).
  EXPECT_EQ(run_cli({"convert", "gdp", "--mu", "1", "--delta", "1e-5", "--tolerance", "1e-100"}).status, 0);
  EXPECT_EQ(run_cli({"compose", "pure-dp", "--epsilon", "1", "--k", "100", "--delta", "1e-5", "--method", "basic",
                     "--tolerance", "1e-300"})
                .status,
            0);
}

TEST(CliCostLimits, AuditOfAHugeLawIsBoundedUpFront) {
  expect_refused({"audit", "discrete-gaussian", "--sigma2", "1e100000", "--samples", "10000"}, "samples");
  // A small sigma2 is not limited by it (the draw is cheap).
  const auto r = run_cli({"audit", "discrete-gaussian", "--sigma2", "4", "--samples", "10000", "--seed",
                          std::string(64, 'a')});
  EXPECT_NE(r.status, 2) << r.err;
}

}  // namespace
}  // namespace exactdp::cli

namespace exactdp::cli {
namespace {

TEST(CliCostLimits, TimingAuditOfAHugeLawIsBoundedUpFront) {
  // The default 10^6 calls (plus 10^4 warm-up calls) of a draw of ~4-6 ms would run for hours;
  // even the fewest calls (1,000 plus 1,000 warm-up) are over the limit at sigma2 = 10^100000.
  expect_refused({"audit-timing", "discrete-gaussian", "--sigma2", "1e100000"}, "calls");
  expect_refused({"audit-timing", "discrete-gaussian", "--sigma2", "1e100000", "--calls", "1000"}, "calls");
  expect_refused({"audit-timing", "discrete-laplace", "--scale", "1e10000"}, "calls");
  // Fewer calls of a smaller law pass the check (10^4 digits: ~0.13 ms a draw).
  const auto r = run_cli({"audit-timing", "discrete-gaussian", "--sigma2", "1e10000", "--calls", "1000", "--seed",
                          std::string(64, 'a')});
  EXPECT_NE(r.status, 2) << r.err;
}

}  // namespace
}  // namespace exactdp::cli
