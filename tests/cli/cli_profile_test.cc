// exactdp profile, in process: known values, outward rounding of printed ends, the curve mode
// (CSV, JSON, SVG), exit codes and messages.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/rational.h>
#include "tests/support/rationals.h"

namespace exactdp::cli {
namespace {
namespace cli_profile_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

const auto run = test_support::command_runner("profile");

using test_support::json_interval_field;

using test_support::q;

TEST(CliProfile, KnownValuesAcrossMechanisms) {
  struct Case {
    std::vector<std::string> args;
    const char* lo;
    const char* hi;
  };
  const std::vector<Case> cases = {
      {{"gaussian", "--sigma", "1", "--epsilon", "1"}, "0.126936735", "0.126936745"},
      {{"gdp", "--mu", "1", "--epsilon", "2"}, "0.0209236355", "0.0209236365"},
      {{"laplace", "--scale", "2", "--sensitivity", "4", "--epsilon", "0.5"}, "0.52763344725",
       "0.52763344735"},
      {{"discrete-gaussian", "--sigma2", "1e100", "--epsilon", "1e-50"}, "8.3315e-52",
       "8.3316e-52"},
      // tanh(1/6) = (1 - e^(-1/3)) / (1 + e^(-1/3)) = P[X = 0].
      {{"discrete-laplace", "--scale", "3", "--epsilon", "0"}, "0.1651404129", "0.1651404130"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = c.args;
    args.push_back("--json");
    const auto r = run(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto [lo, hi] = json_interval_field(r.out, "delta");
    EXPECT_LE(lo, hi);
    EXPECT_GT(lo, q(c.lo)) << r.out;
    EXPECT_LT(hi, q(c.hi)) << r.out;
  }
}

TEST(CliProfile, DigitsRoundOutward) {
  const auto r = run({"gaussian", "--sigma", "1", "--epsilon", "0", "--digits", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  // delta(0) = 0.38292492...: lower rounds down to 0.382, upper up to 0.383.
  EXPECT_NE(r.out.find("delta = [0.382, 0.383]"), std::string::npos) << r.out;
}

TEST(CliProfile, CurveCsvJsonAndSvg) {
  const auto r = run({"laplace", "--scale", "1", "--curve", "0", "2", "5"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "epsilon,delta_lower,delta_upper");
  int rows = 0;
  std::vector<std::string> eps;
  while (std::getline(lines, line)) {
    ++rows;
    eps.push_back(line.substr(0, line.find(',')));
  }
  EXPECT_EQ(rows, 5);
  EXPECT_EQ(eps, (std::vector<std::string>{"0", "0.5", "1", "1.5", "2"}));
  EXPECT_NE(r.out.find("\n1,0,0\n"), std::string::npos);  // Laplace delta is exactly 0 at eps >= 1

  const auto j = run({"gdp", "--mu", "1", "--curve", "0", "1", "3", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_NE(j.out.find("\"curve\": [{\"epsilon\": \"0\""), std::string::npos) << j.out;

  const std::string path = ::testing::TempDir() + "exactdp_profile_test.svg";
  const auto s = run({"discrete-gaussian", "--sigma2", "4", "--curve", "0", "4", "30",
                           "--svg", path});
  ASSERT_EQ(s.status, 0) << s.err;
  const std::string svg = test_support::read_text_file(path);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("log scale"), std::string::npos);  // delta spans > 3 decades
  std::remove(path.c_str());
}

TEST(CliProfile, BadInputExitsTwoNamingTheParameter) {
  const std::vector<test_support::BadInput> cases = {
      {{"gaussian", "--sigma", "0", "--epsilon", "1"}, "sigma > 0"},
      {{"gaussian", "--sigma", "1", "--epsilon", "-1"}, "epsilon >= 0"},
      {{"discrete-gaussian", "--sigma2", "-2", "--epsilon", "1"}, "sigma2"},
      {{"discrete-gaussian", "--sigma2", "2", "--sensitivity", "0", "--epsilon", "1"},
       "sensitivity"},
      {{"laplace", "--scale", "0", "--epsilon", "1"}, "scale"},
      {{"gdp", "--mu", "0", "--epsilon", "1"}, "mu"},
      {{"gdp", "--mu", "1", "--sigma", "1", "--epsilon", "1"}, "--sigma"},
      {{"gdp", "--mu", "1", "--curve", "0", "1", "10001"}, "POINTS <= 10000"},
      {{"gdp", "--mu", "1", "--curve", "1", "0", "5"}, "EPS_MAX"},
      {{"gdp", "--mu", "1", "--curve", "0", "1"}, "three values"},
      {{"gdp", "--mu", "1", "--epsilon", "1", "--svg", "x.svg"}, "--curve"},
      {{"gdp", "--mu", "1", "--epsilon", "1", "--digits", "0"}, "digits"},
      {{"gdp", "--mu", "1", "--epsilon", "1", "--tolerance", "1"}, "tolerance"},
      {{"gdp", "--mu", "1"}, "--epsilon"},
      {{"poisson", "--epsilon", "1"}, "unknown mechanism"},
      {{"gdp", "--mu", "1", "--curve", "0", "1", "5", "--svg", "/nonexistent/dir/x.svg"},
       "svg"},
  };
  for (const auto& c : cases) test_support::expect_rejected_naming(run(c.args), c.needle);
}

TEST(CliProfile, UnmetToleranceIsSaidNotHidden) {
  const auto r = run({"gdp", "--mu", "1/10000000000", "--epsilon", "1000000", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"tolerance_met\": false"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("still certified"), std::string::npos);
}

TEST(CliProfile, HelpStatesTheLimits) {
  const auto r = run({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("POINTS <= 10000"), std::string::npos);
  EXPECT_NE(r.out.find("1 <= D <= 1000"), std::string::npos);
  EXPECT_NE(r.out.find("65536"), std::string::npos);
}

}  // namespace cli_profile_test
}  // namespace
}  // namespace exactdp::cli
