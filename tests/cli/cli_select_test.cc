// exactdp select, run in process: seeded runs reproduce, every index is in range, peeling gives
// distinct indices, the guarantee is on stderr and in --json (basic and optimal composition of
// all rounds printed), and bad input exits 2 naming the parameter with nothing on stdout.
// The laws themselves are tested in tests/mechanisms/selection_law_test.cc.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"

namespace exactdp {
namespace {
namespace cli_select_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using namespace test_support;

const std::string kSeed(64, '3');
const std::string kScores = "1\n2\n3\n-1/2\n0.25\n";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> select_args(const std::string& mechanism, std::vector<std::string> more = {}) {
  std::vector<std::string> a = {"select", "--mechanism", mechanism, "--epsilon", "1", "--sensitivity", "1"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST(CliSelect, HelpListsTheMechanisms) {
  const auto r = run_cli({"select", "--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* m : {"exponential", "permute-and-flip", "report-noisy-max", "--top", "--monotonic"}) {
    EXPECT_NE(r.out.find(m), std::string::npos) << m;
  }
  EXPECT_NE(run_cli({"--help"}).out.find("select"), std::string::npos);
}

TEST(CliSelect, SeededRunsReproduceAndIndicesAreInRange) {
  for (const std::string m : {"exponential", "permute-and-flip", "report-noisy-max"}) {
    const auto args = select_args(m, {"-n", "200", "--seed", kSeed});
    const auto a = run_cli(args, kScores);
    const auto b = run_cli(args, kScores);
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out, b.out) << m;
    const auto lines = lines_of(a.out);
    ASSERT_EQ(lines.size(), 200u) << m;
    std::set<std::string> seen(lines.begin(), lines.end());
    for (const auto& l : seen) EXPECT_TRUE(l.size() == 1 && l[0] >= '0' && l[0] <= '4') << m << ": " << l;
    EXPECT_GE(seen.size(), 2u) << m << ": 200 draws all gave the same index";
    EXPECT_NE(a.err.find("guarantee"), std::string::npos) << a.err;
    EXPECT_NE(a.err.find("(200, 0)-DP"), std::string::npos) << a.err;  // 200 rounds of epsilon 1
  }
}

TEST(CliSelect, ExponentialNoiseOptionAndMonotonic) {
  EXPECT_EQ(run_cli(select_args("report-noisy-max", {"--noise", "exponential", "--seed", kSeed}), kScores).status, 0);
  EXPECT_EQ(run_cli(select_args("exponential", {"--monotonic", "--seed", kSeed}), kScores).status, 0);
  EXPECT_EQ(run_cli(select_args("report-noisy-max", {"--monotonic", "--seed", kSeed}), kScores).status, 0);
}

TEST(CliSelect, OneCandidateIsAlwaysChosen) {
  for (const std::string m : {"exponential", "permute-and-flip", "report-noisy-max"}) {
    const auto r = run_cli(select_args(m, {"-n", "5", "--seed", kSeed}), "7/3\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "0\n0\n0\n0\n0\n") << m;
  }
}

TEST(CliSelect, PeelingGivesDistinctIndicesInOrder) {
  for (const std::string m : {"exponential", "permute-and-flip", "report-noisy-max"}) {
    const auto r = run_cli(select_args(m, {"--top", "5", "-n", "50", "--seed", kSeed}), kScores);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 50u);
    for (const auto& l : lines) {
      std::istringstream in(l);
      std::set<int> s;
      int v = 0, count = 0;
      while (in >> v) {
        EXPECT_TRUE(v >= 0 && v < 5) << l;
        s.insert(v);
        ++count;
      }
      EXPECT_EQ(count, 5) << l;
      EXPECT_EQ(s.size(), 5u) << m << ": not distinct: " << l;
    }
  }
}

TEST(CliSelect, JsonCarriesSelectionsAndCertifiedGuarantee) {
  const auto r = run_cli(select_args("permute-and-flip", {"--top", "2", "-n", "3", "--delta", "1e-6",
                                                          "--json", "--seed", kSeed}),
                         kScores);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string_field(r.out, "basic_epsilon"), "6");
  EXPECT_EQ(json_string_field(r.out, "rounds"), "6");
  const auto [lo, hi] = json_interval_field(r.out, "optimal_epsilon");
  EXPECT_LE(lo, hi);
  EXPECT_GT(hi, 0);
  EXPECT_LE(hi, 6);  // never worse than basic composition
  EXPECT_NE(r.out.find("\"selections\": [["), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("Kairouz-Oh-Viswanath"), std::string::npos) << r.err;
  // Report-noisy-max states its grid and noise scale: scores on 1/4, scale 2 * 4 * 1 / 1 = 8.
  const auto n = run_cli(select_args("report-noisy-max", {"--json", "--seed", kSeed}), kScores);
  ASSERT_EQ(n.status, 0) << n.err;
  EXPECT_EQ(json_string_field(n.out, "grid_denominator"), "4");
  EXPECT_EQ(json_string_field(n.out, "noise_scale"), "8");
}

TEST(CliSelect, BadInputExitsTwoNamingTheParameter) {
  const std::vector<BadInput> bad = {
      {{"select", "--epsilon", "1", "--sensitivity", "1"}, "mechanism"},
      {select_args("gumbel"), "mechanism"},
      {{"select", "--mechanism", "exponential", "--epsilon", "0", "--sensitivity", "1"}, "epsilon"},
      {{"select", "--mechanism", "exponential", "--epsilon", "1e7", "--sensitivity", "1"}, "epsilon"},
      {{"select", "--mechanism", "exponential", "--epsilon", "1", "--sensitivity", "-1"}, "sensitivity"},
      {{"select", "--mechanism", "exponential", "--epsilon", "1"}, "sensitivity"},
      {select_args("exponential", {"--noise", "laplace"}), "noise"},
      {select_args("report-noisy-max", {"--noise", "gaussian"}), "noise"},
      {select_args("permute-and-flip", {"--monotonic"}), "monotonic"},
      {select_args("report-noisy-max", {"--noise", "exponential", "--monotonic"}), "monotonic"},
      {select_args("exponential", {"--top", "0"}), "top"},
      {select_args("exponential", {"--top", "6"}), "top"},
      {select_args("exponential", {"-n", "0"}), "n"},
      {select_args("exponential", {"-n", "2000000", "--json"}), "n"},
      {select_args("exponential", {"--delta", "1"}), "delta"},
      {select_args("exponential", {"--seed", "xyz"}), "seed"},
      {select_args("exponential", {"extra"}), "positional"},
  };
  for (const auto& b : bad) expect_rejected_naming(run_cli(b.args, kScores), b.needle);
  const auto args = select_args("exponential", {"--seed", kSeed});
  expect_rejected_naming(run_cli(args, ""), "no candidates");
  expect_rejected_naming(run_cli(args, "1\n\n2\n"), "line 2");
  expect_rejected_naming(run_cli(args, "1\n0x10\n"), "line 2");
  expect_rejected_naming(run_cli(args, "1\nnan\n"), "scores");
  expect_rejected_naming(run_cli(args, std::string(30000, '1') + "\n"), "longer than");
  expect_rejected_naming(run_cli(args, "1e999999999\n"), "scores");
  // The grid of report-noisy-max: a common denominator over 2^65536.
  expect_rejected_naming(run_cli(select_args("report-noisy-max"), "1\n1e-30000\n"), "scores");
}

TEST(CliSelect, BlanksAroundScoresAndNoFinalNewlineAreAccepted) {
  const auto r = run_cli(select_args("exponential", {"--seed", kSeed}), " 1 \r\n\t2\n3");
  EXPECT_EQ(r.status, 0) << r.err;
}

}  // namespace cli_select_test
}  // namespace
}  // namespace exactdp
