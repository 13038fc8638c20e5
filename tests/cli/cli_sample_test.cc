// exactdp sample, run in process: seeds reproduce, unseeded runs differ, bad input exits 2 with a
// message naming the parameter and nothing on stdout.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tests/cli/cli_runner.h"

namespace exactdp::cli {
namespace {
namespace cli_sample_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using Result = testing_support::CliRun;
Result run(const std::vector<std::string>& args) { return testing_support::run_cli(args); }

const std::string kSeed(64, '1');

int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(CliSample, SeededRunsReproduceAndPrintOneIntegerPerLine) {
  for (const auto& law : std::vector<std::vector<std::string>>{
           {"discrete-gaussian", "--sigma2", "9/4"},
           {"discrete-laplace", "--scale", "1.5", "--mean", "-100000000000000000000000"},
           {"bernoulli-exp", "--gamma", "1e-1"}}) {
    auto args = std::vector<std::string>{"sample"};
    args.insert(args.end(), law.begin(), law.end());
    args.insert(args.end(), {"-n", "50", "--seed", kSeed});
    const Result a = run(args), b = run(args);
    EXPECT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(count_lines(a.out), 50);
    std::istringstream lines(a.out);
    std::string line;
    while (std::getline(lines, line)) {
      ASSERT_FALSE(line.empty());
      EXPECT_EQ(line.find_first_not_of("-0123456789"), std::string::npos) << line;
    }
  }
}

TEST(CliSample, UnseededRunsDiffer) {
  const Result a = run({"sample", "discrete-gaussian", "--sigma2", "1e6", "-n", "20"});
  const Result b = run({"sample", "discrete-gaussian", "--sigma2", "1e6", "-n", "20"});
  ASSERT_EQ(a.status, 0);
  EXPECT_NE(a.out, b.out);  // 20 draws of sd 1000 agree with probability < 1e-60
}

TEST(CliSample, ZeroSamplesPrintNothing) {
  const Result r = run({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "0"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
}

void expect_usage_error(const std::vector<std::string>& args, const std::string& fragment) {
  const Result r = run(args);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

TEST(CliSample, BadInputExitsTwoNamingTheParameter) {
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "0", "-n", "3"}, "sigma2 > 0");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "-2", "-n", "3"}, "sigma2");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "abc", "-n", "3"}, "sigma2");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1e999999999", "-n", "3"}, "exponent");
  expect_usage_error({"sample", "discrete-laplace", "--scale", "0", "-n", "3"}, "scale > 0");
  expect_usage_error({"sample", "bernoulli-exp", "--gamma", "-1", "-n", "3"}, "gamma >= 0");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "-1"}, "0 <= n <= ");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "1e11"}, "n");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "2.5"}, "not an integer");
  // Say what is really wrong.
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "5x"}, "unexpected character 'x' after '5'");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "-n", "3"},
                     "option --sigma2 needs a value, but the word after it is the option -n");
  expect_usage_error({"sample", "discrete-gaussian", "-n", "--sigma2", "1"},
                     "option -n needs a value, but the word after it is the option --sigma2");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"sample", "discrete-gaussian", "--sigma2", "1", "-n", "5x"},
           {"sample", "discrete-gaussian", "--sigma2", "-n", "3"}}) {
    const Result r = run(args);
    EXPECT_EQ(r.err.find("hexadecimal"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("NaN"), std::string::npos) << r.err;
  }
  // INT (--mean) has the 10,000-digit limit the help states.
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "--mean", std::string(10'001, '7'), "-n", "1"}, "mean");
  EXPECT_EQ(run({"sample", "discrete-gaussian", "--sigma2", "1", "--mean", std::string(10'000, '7'), "-n", "1"}).status, 0);
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1"}, "-n");
  expect_usage_error({"sample", "discrete-gaussian", "-n", "3"}, "--sigma2");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "--mean", "0.5", "-n", "3"}, "mean");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "3", "--seed", "xyz"}, "seed");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "--scale", "2", "-n", "3"}, "--scale");
  expect_usage_error({"sample", "bernoulli-exp", "--gamma", "1", "--mean", "2", "-n", "3"}, "--mean");
  expect_usage_error({"sample", "gaussian", "--sigma2", "1", "-n", "3"}, "unknown law");
  expect_usage_error({"sample", "--sigma2", "1", "-n", "3"}, "exactly one law");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "3", "--bogus"}, "unknown option");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "--sigma2", "2", "-n", "3"}, "more than once");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1e31", "-n", "3", "--hardened"}, "sigma2");
  expect_usage_error({"sample", "discrete-laplace", "--scale", "1/1000", "-n", "3", "--hardened"}, "scale");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "3", "--hardened", "--mean", "1e19"}, "mean");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "3", "--hardened", "--tau-bits", "129"}, "tau-bits");
  expect_usage_error({"sample", "discrete-gaussian", "--sigma2", "1", "-n", "3", "--tau-bits", "64"}, "--hardened");
  expect_usage_error({"sample", "bernoulli-exp", "--gamma", "1", "-n", "3", "--hardened"}, "--hardened");
  expect_usage_error({"nonsense"}, "unknown command");
}

TEST(CliSample, HelpDescribesTheLaws) {
  const Result r = run({"sample", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("discrete-gaussian"), std::string::npos);
  EXPECT_NE(r.out.find("TESTS AND"), std::string::npos);
  EXPECT_NE(r.out.find("--seed-file FILE"), std::string::npos);
  EXPECT_NE(r.out.find("/proc/PID/environ"), std::string::npos);
  EXPECT_NE(r.out.find("INT is a whole number written as R is (-7, 1e6), at most 10000 digits"), std::string::npos);
  EXPECT_EQ(r.out.find("any size"), std::string::npos);
  EXPECT_EQ(run({"--help"}).status, 0);
  EXPECT_EQ(run({}).status, 2);
}

}  // namespace cli_sample_test
}  // namespace
}  // namespace exactdp::cli
