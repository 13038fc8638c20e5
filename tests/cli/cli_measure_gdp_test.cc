// exactdp measure-gdp, in process: the Gaussian mechanism's bracket contains mu = Delta/sigma,
// a pure-DP bracket contains 2 Phi^-1(e^eps/(1+e^eps)) (mpmath: 0.2504839050688713 for 0.2),
// the SVG file is written, and bad input exits 2 naming the parameter.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {
namespace cli_measure_gdp_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using CmdResult = test_support::CliRun;
CmdResult run(std::vector<std::string> args) { return test_support::run_command("measure-gdp", std::move(args)); }

using test_support::json_interval_field;

TEST(CliMeasureGdpTest, GaussianContainsDeltaOverSigma) {
  const CmdResult r = run({"gaussian", "--sigma", "2", "--sensitivity", "1", "--eps-max", "3",
                     "--tolerance", "0.01", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto mu = json_interval_field(r.out, "mu");
  EXPECT_LE(mu.first, mpq_class(1, 2));
  EXPECT_GE(mu.second, mpq_class(1, 2));
  EXPECT_LE(mu.second - mu.first, mpq_class(1, 100));
  EXPECT_NE(r.out.find("\"limit\": \"1/2\""), std::string::npos) << r.out;
}

TEST(CliMeasureGdpTest, PureDpAndSvg) {
  const std::string file = ::testing::TempDir() + "exactdp_gdpt_test.svg";
  const CmdResult r = run({"pure-dp", "--epsilon", "0.2", "--tolerance", "0.002", "--svg", file,
                     "--points", "20", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto mu = json_interval_field(r.out, "mu");
  EXPECT_LE(mu.first, parse_rational("t", "0.2504839050688713"));
  EXPECT_GE(mu.second, parse_rational("t", "0.2504839050688714"));
  EXPECT_NE(r.out.find("\"complete\": true"), std::string::npos);
  const std::string svg = test_support::read_text_file(file);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  std::remove(file.c_str());
}

TEST(CliMeasureGdpTest, LaplaceFamilies) {
  // Laplace b = 5 (0.2-DP): sup of the GDPT at eps = 0, mu = 2 Phi^-1((1 + delta(0))/2) with
  // delta(0) = 1 - e^-0.1: 0.2391055837365138 (mpmath).
  CmdResult r = run({"laplace", "--scale", "5", "--tolerance", "0.001", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto mu = json_interval_field(r.out, "mu");
  EXPECT_LE(mu.first, parse_rational("t", "0.2391055837365138"));
  EXPECT_GE(mu.second, parse_rational("t", "0.2391055837365139"));
  // Discrete Laplace t = 5 with Delta = 1 is randomized response in disguise (loss +-0.2 only):
  // mu = 2 Phi^-1(e^0.2/(1+e^0.2)) = 0.2504839050688713 (gdp_bridge Thm 5.1, mpmath).
  r = run({"discrete-laplace", "--scale", "5", "--tolerance", "0.001", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  mu = json_interval_field(r.out, "mu");
  EXPECT_LE(mu.first, parse_rational("t", "0.2504839050688713"));
  EXPECT_GE(mu.second, parse_rational("t", "0.2504839050688714"));
  // Discrete Gaussian sigma2 = 4: NOT 1/2-GDP; its total variation P[Z = 0] = 1/N exceeds the
  // continuous 2 Phi(1/4) - 1, so the GDPT at eps = 0 is above 1/2.
  r = run({"discrete-gaussian", "--sigma2", "4", "--eps-max", "2", "--tolerance", "0.001",
           "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  mu = json_interval_field(r.out, "mu");
  EXPECT_GT(mu.first, mpq_class(1, 2));
  EXPECT_LT(mu.second, mpq_class(52, 100));
}

TEST(CliMeasureGdpTest, CompositionTextOutput) {
  const CmdResult r = run({"pure-dp-composition", "--epsilon", "0.2", "--k", "50", "--eps-max", "3",
                     "--tolerance", "0.01"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("mu_upper = "), std::string::npos);
  EXPECT_NE(r.out.find("binary searches"), std::string::npos);
}

TEST(CliMeasureGdpTest, BadInputExitsTwo) {
  for (const test_support::BadInput& b : std::vector<test_support::BadInput>{
           {{"gaussian", "--sigma", "0"}, "sigma"},
           {{"gaussian", "--sigma", "-1"}, "sigma"},
           {{"gaussian", "--sigma", "1", "--eps-max", "0"}, "eps-max"},
           {{"gaussian", "--sigma", "1", "--eps-max", "1e9"}, "eps-max"},
           {{"gaussian", "--sigma", "1", "--tolerance", "0"}, "tolerance"},
           {{"gaussian", "--sigma", "1", "--tolerance", "1e-30"}, "tolerance"},
           {{"gaussian", "--sigma", "1", "--mu", "1"}, "does not take --mu"},
           {{"gdp", "--mu", "0"}, "mu"},
           {{"pure-dp", "--epsilon", "-1"}, "epsilon"},
           {{"pure-dp-composition", "--epsilon", "1", "--k", "0"}, "k"},
           {{"gaussian", "--sigma", "1", "--points", "1"}, "points"},
           {{"laplace-ish", "--scale", "1"}, "unknown mechanism"},
           {{}, "exactly one mechanism"}}) {
    test_support::expect_rejected_naming(run(b.args), b.needle);
  }
}

}  // namespace cli_measure_gdp_test
}  // namespace
}  // namespace exactdp::cli
