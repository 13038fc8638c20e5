// The up-front cost limits of selections and quantiles counted in bits of the inputs
// (mechanisms/selection/selection_cost.h, aggregate_quantile.h): an epsilon, a sensitivity, a
// best score or a q with many digits is refused before anything is made, naming the option
// (exit 2), and what the estimates let through while the memory runs out exits 2 naming memory,
// never with GMP's abort().
#include <gtest/gtest.h>

#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/cli/memory_limited_child.h"

namespace exactdp {
namespace {

using test_support::CliRun;
using test_support::run_cli;

// "1\n2\n...\nn\n", the red team's `seq 1 n`.
std::string seq(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += std::to_string(i) + "\n";
  return s;
}

CliRun select(const std::string& mechanism, const std::string& epsilon, const std::string& input,
              std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"select", "--mechanism", mechanism, "--epsilon", epsilon, "--sensitivity", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args, input);
}

void expect_refused_naming(const CliRun& r, const std::string& option, const std::string& limit) {
  EXPECT_EQ(r.status, 2) << r.err.substr(0, 600);
  EXPECT_EQ(r.err.rfind("exactdp: " + option + ": ", 0), 0u) << r.err.substr(0, 600);
  EXPECT_NE(r.err.find(limit), std::string::npos) << r.err.substr(0, 600);
  EXPECT_EQ(r.out, "");
}

TEST(SelectionCost, TinyEpsilonRefusedNamingEpsilonForEveryMechanism) {
  const std::string scores = seq(50000);
  for (const auto& m : {"exponential", "permute-and-flip"}) {
    SCOPED_TRACE(m);
    expect_refused_naming(select(m, "1e-100000", scores), "epsilon", "over the limit of 2^31 bits");
  }
  expect_refused_naming(select("report-noisy-max", "1e-100000", scores, {"--noise", "exponential"}), "epsilon",
                        "over the limit of 2^31 bits");
  expect_refused_naming(select("report-noisy-max", "1e-100000", scores), "epsilon", "candidate steps");
}

// -n N repeats one selection: report-noisy-max draws n noises each time and permute-and-flip
// with spread-out scores flips about n coins, so N draws are refused up front when their work
// is over the peeling limit, naming n; the inversion table's draws (O(log n)) are served.
TEST(SelectionCost, RepeatedDrawsRefusedNamingN) {
  const std::string scores = seq(1000);
  expect_refused_naming(select("report-noisy-max", "1", scores, {"-n", "10000000"}), "n", "candidate steps");
  expect_refused_naming(select("permute-and-flip", "100", scores, {"-n", "10000000"}), "n", "candidate steps");
  // Served: fewer draws, or close scores (permute-and-flip stops after a few coins).
  EXPECT_EQ(select("report-noisy-max", "1", scores, {"-n", "2000"}).status, 0);
  EXPECT_EQ(select("permute-and-flip", "1/100", scores, {"-n", "20000"}).status, 0);
  EXPECT_EQ(select("exponential", "100", scores, {"-n", "100000"}).status, 0);
}

TEST(SelectionCost, NeighbouringEpsilons) {
  const std::string scores = seq(50000);
  // 1e-10000: 50000 weights of 33,000 bits each, twice: over 2^31 bits.
  expect_refused_naming(select("exponential", "1e-10000", scores), "epsilon", "2^31 bits");
  expect_refused_naming(select("report-noisy-max", "1e-10000", scores), "epsilon", "candidate steps");
  // 1e-1000, or fewer candidates at 1e-10000: served.
  EXPECT_EQ(select("exponential", "1e-1000", scores).status, 0);
  EXPECT_EQ(select("permute-and-flip", "1e-1000", scores).status, 0);
  EXPECT_EQ(select("report-noisy-max", "1e-1000", scores).status, 0);
  EXPECT_EQ(select("exponential", "1e-10000", seq(2000)).status, 0);
  EXPECT_EQ(select("report-noisy-max", "1e-100000", seq(20)).status, 0);
}

TEST(SelectionCost, SensitivityAndBestScoreDigitsCounted) {
  const CliRun r = run_cli({"select", "--mechanism", "exponential", "--epsilon", "1", "--sensitivity", "1e-100000"},
                           seq(50000));
  expect_refused_naming(r, "sensitivity", "2^31 bits");
  // One best score of 100,001 digits (within the scores' own 2^28-bit budget): every weight
  // c (u* - u_i) holds its digits.
  expect_refused_naming(select("exponential", "1", "1e100000\n" + seq(49999)), "scores", "2^31 bits");
}

TEST(SelectionCost, NoisyMaxPeelingCountsTheNoiseSize) {
  // One selection of 200 draws at 332,000 bits fits; five rounds do not.
  const CliRun r = select("report-noisy-max", "1e-100000", seq(200), {"--top", "5"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.rfind("exactdp: top = 5 ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("candidate steps"), std::string::npos) << r.err;
}

CliRun quantile(const std::string& q, const std::string& epsilon) {
  std::string records = "u,g,v\n";
  for (int i = 1; i <= 100; ++i) records += std::to_string(i) + ",a," + std::to_string(10 * i) + "\n";
  return run_cli({"aggregate", "--privacy-unit", "u", "--group-by", "g", "--quantile", "v", "--bounds", "0,50000",
                  "--q", q, "--epsilon", epsilon, "--delta", "1e-6"},
                 records);
}

TEST(SelectionCost, QuantileRefusedBeforeScoringNamingEpsilonOrQ) {
  expect_refused_naming(quantile("0.5", "1e-100000"), "epsilon", "2^31 bits");
  expect_refused_naming(quantile("0.5", "1e-10000"), "epsilon", "2^31 bits");
  expect_refused_naming(quantile("1e-10000", "1"), "q", "2^28 bits");
  EXPECT_EQ(quantile("0.5", "1e-1000").status, 0);
  EXPECT_EQ(quantile("1e-100", "1").status, 0);
}

TEST(SelectionCost, MemoryExhaustedExitsTwoNotAbort) {
#ifdef EXACTDP_TEST_NO_ADDRESS_LIMIT
  GTEST_SKIP() << "an address-space limit does not apply under a sanitizer";
#else
  // 31000 weights at epsilon = 1e-10000 pass the estimate (about 2^31 bits, ~270 MB resident)
  // but not a 64 MiB address-space limit: GMP's allocation fails, and the guard turns it into
  // exit 2 naming memory.
  const std::string scores = seq(31000);
  const int status = test_support::run_in_memory_limited_child(std::size_t{64} << 20, [&] {
    const CliRun r = select("exponential", "1e-10000", scores);
    std::cerr << r.err.substr(0, 300);
    return r.status == 2 && r.err.rfind("exactdp: memory: ", 0) == 0 ? 0 : 1;
  });
  ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child did not exit 2 naming memory";
#endif
}

}  // namespace
}  // namespace exactdp
