// exactdp convert, in process: known values (mpmath, independent of the library), JSON shape,
// outward rounding of the printed ends, and exit 2 with the parameter named for bad input.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {
namespace cli_convert_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using CmdResult = test_support::CliRun;
CmdResult run(std::vector<std::string> args) { return test_support::run_command("convert", std::move(args)); }

using test_support::json_interval_field;

void expect_brackets(const std::pair<mpq_class, mpq_class>& iv, const char* lo, const char* hi) {
  EXPECT_GE(iv.first, parse_rational("t", lo));
  EXPECT_LE(iv.second, parse_rational("t", hi));
  EXPECT_LE(iv.first, iv.second);
}

TEST(CliConvertTest, ZcdpToEpsilon) {
  const CmdResult r = run({"zcdp", "--rho", "0.5", "--delta", "1e-6", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  // CKS20 Corollary 13 minimised over alpha (mpmath): 5.22153444453017...
  expect_brackets(json_interval_field(r.out, "epsilon"), "5.221534444530", "5.221534444531");
  EXPECT_NE(r.out.find("\"tolerance_met\": true"), std::string::npos);
}

TEST(CliConvertTest, ZcdpToDelta) {
  const CmdResult r = run({"zcdp", "--rho", "1/2", "--epsilon", "3", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_brackets(json_interval_field(r.out, "delta"), "0.0051431840638", "0.0051431840639");
}

TEST(CliConvertTest, GdpBothWays) {
  CmdResult r = run({"gdp", "--mu", "1", "--delta", "1e-5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_brackets(json_interval_field(r.out, "epsilon"), "4.3771780956812246", "4.3771780956812247");
  r = run({"gdp", "--epsilon", "1", "--delta", "1e-5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_brackets(json_interval_field(r.out, "mu"), "0.26805112321129421", "0.26805112321129422");
  EXPECT_NE(r.out.find("\"mu_lower\""), std::string::npos);
}

TEST(CliConvertTest, PureDpAndTextOutput) {
  const CmdResult r = run({"pure-dp", "--epsilon", "0.2", "--digits", "12"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("mu = [0.250483905068, 0.250483905069]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rho = 1/50"), std::string::npos) << r.out;
}

TEST(CliConvertTest, BadInputExitsTwoNamingTheParameter) {
  for (const test_support::BadInput& b : std::vector<test_support::BadInput>{
           {{"zcdp", "--rho", "-1", "--delta", "1e-6"}, "rho"},
           {{"zcdp", "--rho", "1", "--delta", "0"}, "delta"},
           {{"zcdp", "--rho", "1", "--delta", "1"}, "delta"},
           {{"gdp", "--mu", "0", "--delta", "0.1"}, "mu"},
           {{"gdp", "--epsilon", "-2", "--delta", "0.1"}, "epsilon"},
           {{"gdp", "--mu", "1", "--delta", "2"}, "delta"},
           {{"pure-dp", "--epsilon", "-1"}, "epsilon"},
           {{"zcdp", "--rho", "1", "--delta", "0.1", "--digits", "0"}, "digits"},
           {{"zcdp", "--rho", "1", "--delta", "0.1", "--tolerance", "0"}, "tolerance"},
           {{"zcdp", "--rho", "1"}, "--delta"},
           {{"gdp", "--mu", "1", "--epsilon", "1", "--delta", "0.1"}, "exactly one"},
           {{"nope", "--rho", "1"}, "unknown source"},
           {{}, "exactly one source"}}) {
    test_support::expect_rejected_naming(run(b.args), b.needle);
  }
}

TEST(CliConvertTest, Help) {
  const CmdResult r = run({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("convert zcdp"), std::string::npos);
}

}  // namespace cli_convert_test
}  // namespace
}  // namespace exactdp::cli
