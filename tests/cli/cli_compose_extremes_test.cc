// compose --event at the smallest deltas (10^-10000 .. 10^-100000, the exponent limit): the rdp
// route's best orders there are large (70-256), where the fractional-order series of the
// Poisson-subsampled Gaussian and Laplace once took 7-10 s of CPU (the add order's alternating
// series, and a tail measured against the weight instead of the sum). Each answer is pinned
// here; the rdp route's search over real orders made the Gaussian ones smaller than the fixed
// grid's (2105.7286407455539883 at 208.9375 and 637.17577030935600257 at 71.0625). No timed assertion (speed:
// bench/compose_extremes.sh, BENCHMARKS.md "Extreme compose inputs").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace exactdp::cli {
namespace {

using test_support::run_cli;

// The line "key = value" of a text answer ("" when absent).
std::string line_value(const std::string& out, const std::string& key) {
  const std::string prefix = key + " = ";
  for (std::size_t at = 0; at < out.size();) {
    const std::size_t end = out.find('\n', at);
    const std::string line = out.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return "";
}

struct Pinned {
  std::vector<std::string> args;
  std::string epsilon_upper;
  std::string order;  // the rdp route's order, as printed in rdp_detail
};

class ComposeExtremes : public ::testing::TestWithParam<Pinned> {};

TEST_P(ComposeExtremes, AnswersAsBefore) {
  const Pinned& p = GetParam();
  std::vector<std::string> args = {"compose"};
  args.insert(args.end(), p.args.begin(), p.args.end());
  const auto r = run_cli(args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(line_value(r.out, "epsilon_upper"), p.epsilon_upper) << r.out.substr(r.out.find("epsilon ="));
  EXPECT_EQ(line_value(r.out, "tolerance_met"), "true");
  EXPECT_NE(line_value(r.out, "rdp_detail").find("order " + p.order + ","), std::string::npos)
      << line_value(r.out, "rdp_detail");
}

INSTANTIATE_TEST_SUITE_P(
    SmallestDeltas, ComposeExtremes,
    ::testing::Values(
        // The case that took 10.3 s: best order ~209-216, the add order's series there ~900 terms
        // at ~1300 bits, then one series of ~210 terms a fractional order; orders above 128 are now
        // refined over the integers (0.2 s): 216 instead of 215.57, epsilon 2104.67427 instead of
        // 2104.67003 (2 parts in 10^6 looser).
        Pinned{{"--event", "poisson-gaussian:sigma=1,q=1/100", "--count", "10", "--delta", "1e-100000"},
               "2104.6742731984091112", "216"},
        Pinned{{"--event", "poisson-gaussian:sigma=1,q=1/100", "--count", "10", "--delta", "1e-10000"},
               "636.80632935917966727", "68.7872676849365234375"},
        // Poisson-subsampled Laplace: every order up to 256 through the series (no closed form).
        Pinned{{"--event", "poisson-laplace:scale=1,q=1/100", "--count", "10", "--delta", "1e-100000"},
               "903.05752250084442749", "256"}),
    [](const ::testing::TestParamInfo<Pinned>& param) { return "case" + std::to_string(param.index); });

}  // namespace
}  // namespace exactdp::cli
