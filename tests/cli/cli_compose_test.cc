// exactdp compose, in process: the Table 1 setting of gdp_bridge (k = 50, epsilon = 0.2; exact
// values from mpmath), every method's ordering, and bad input (exit 2, parameter named).
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
namespace cli_compose_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using CmdResult = test_support::CliRun;
CmdResult run(std::vector<std::string> args) { return test_support::run_command("compose", std::move(args)); }

// The exact value of "key": "R" in the JSON output, the first at or after `from`.
mpq_class json_rational(const std::string& json, const std::string& key, std::size_t from = 0) {
  return parse_rational(key, test_support::json_string_field(json, key, from));
}

TEST(CliComposeTest, OptimalIsTheExactKovValue) {
  const CmdResult r = run({"pure-dp", "--epsilon", "0.2", "--k", "50", "--delta", "1e-4", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const mpq_class eps = json_rational(r.out, "epsilon_upper");
  EXPECT_GT(eps, parse_rational("t", "5.5640563"));
  EXPECT_LT(eps, parse_rational("t", "5.5640564"));
}

TEST(CliComposeTest, AllMethodsOrdered) {
  const CmdResult r = run({"pure-dp", "--epsilon", "0.2", "--k", "50", "--delta", "0.01", "--method",
                     "all", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto value = [&](const std::string& m) {
    return json_rational(r.out, "epsilon_upper", r.out.find("\"" + m + "\": {"));
  };
  const mpq_class basic = value("basic"), adv = value("advanced"), opt = value("optimal"),
                  gdp = value("gdp"), zcdp = value("zcdp");
  EXPECT_EQ(basic, mpq_class(10));
  EXPECT_LT(opt, adv);
  EXPECT_LT(opt, gdp);
  EXPECT_LT(opt, zcdp);
  EXPECT_LT(adv, basic);
  // Table 1 (delta = 0.01): advanced 6.51, GDP 5.06 (mpmath: 6.50595..., 5.05914...).
  EXPECT_GT(adv, parse_rational("t", "6.5059")) << r.out;
  EXPECT_LT(adv, parse_rational("t", "6.5060")) << r.out;
  EXPECT_GT(gdp, parse_rational("t", "5.0591")) << r.out;
  EXPECT_LT(gdp, parse_rational("t", "5.0592")) << r.out;
}

// A fixed bug: the GDP route refines the per-mechanism mu inside the same precision loop, so the
// default tolerance is met (it always reported tolerance_met false at a width near 2e-30).
TEST(CliComposeTest, GdpMeetsTheTolerance) {
  for (const char* eps : {"0.1", "0.5", "1", "2"}) {
    const CmdResult r = run({"pure-dp", "--epsilon", eps, "--k", "100", "--delta", "1e-6", "--method",
                             "gdp", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"tolerance_met\": true"), std::string::npos) << eps << ": " << r.out;
  }
}

TEST(CliComposeTest, MillionFoldTextOutput) {
  const CmdResult r = run({"pure-dp", "--epsilon", "0.001", "--k", "1000000", "--delta", "1e-9",
                     "--digits", "8"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("epsilon_upper = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Kairouz"), std::string::npos) << r.out;
}

TEST(CliComposeTest, BadInputExitsTwo) {
  const std::vector<std::string> ok = {"--epsilon", "0.1", "--k", "10", "--delta", "1e-6"};
  auto with = [&](const std::string& option, const std::string& value) {
    std::vector<std::string> a = {"pure-dp"};
    for (std::size_t i = 0; i < ok.size(); i += 2) {
      a.push_back(ok[i]);
      a.push_back(ok[i] == option ? value : ok[i + 1]);
    }
    return a;
  };
  for (const test_support::BadInput& b : std::vector<test_support::BadInput>{
           {with("--epsilon", "-1"), "epsilon"},
           {with("--epsilon", "0"), "epsilon"},
           {with("--k", "0"), "k = 0"},
           {with("--k", "1000001"), "1 <= k <= 1000000"},
           {with("--k", "2.5"), "k"},
           {with("--delta", "0"), "delta"},
           {with("--delta", "1"), "delta"},
           {{"pure-dp", "--epsilon", "1", "--k", "2", "--delta", "0.1", "--method", "magic"},
            "unknown method"},
           {{"gaussian", "--epsilon", "1"}, "pure-dp"},
           {{"pure-dp", "--k", "2", "--delta", "0.1"}, "--epsilon"}}) {
    test_support::expect_rejected_naming(run(b.args), b.needle);
  }
}

}  // namespace cli_compose_test
}  // namespace
}  // namespace exactdp::cli
