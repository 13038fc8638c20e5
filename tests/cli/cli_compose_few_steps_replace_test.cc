// exactdp compose --neighbouring replace-one over a few Poisson-subsampled Gaussian steps: the
// exact route's wide-mass pld of the proven +Delta/-Delta dominating pair
// (accounting/pld/pld_few_steps.h) answers under auto, inside the pld route's wider bracket.
// The accounting tests check containment of an independent certified reference
// (tests/accounting/pld_few_steps_replace_test.cc); here the CLI's answer, its width and route.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {
namespace cli_compose_few_steps_replace_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using test_support::CliRun;
using test_support::expect_rejected_naming;
using test_support::json_interval_field;
using test_support::json_string_field;

const auto compose = test_support::command_runner("compose");

mpq_class q(const char* s) { return parse_rational("t", s); }

TEST(CliComposeFewStepsReplaceOne, TwoStepsAreTightUnderAuto) {
  const CliRun r = compose({"--event", "poisson-gaussian:sigma=0.8,q=0.01,sensitivity=1", "--count", "2",
                            "--epsilon", "4", "--neighbouring", "replace-one", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string_field(r.out, "route"), "exact");
  EXPECT_EQ(json_string_field(r.out, "neighbouring"), "replace-one");
  EXPECT_NE(json_string_field(r.out, "exact_detail").find("proven dominating pair"), std::string::npos) << r.out;
  const auto [lo, hi] = json_interval_field(r.out, "delta");
  EXPECT_LT(lo, hi);
  EXPECT_LT(hi - lo, hi / 1000);  // under 1e-3 relative (the pld route's was 8 %)
  // Inside the pld route's bracket of before, [7.2129e-13, 7.7808e-13] (step 1/5000, masses at
  // 2^-60): its proven lower end below ours, its upper end above.
  EXPECT_GE(lo, q("7.2128e-13"));
  EXPECT_LE(hi, q("7.7809e-13"));
  const auto [pld_lo, pld_hi] = json_interval_field(r.out, "pld");
  EXPECT_LE(pld_lo, lo);
  EXPECT_GE(pld_hi, hi);
}

TEST(CliComposeFewStepsReplaceOne, EpsilonAndAGivenGrid) {
  // Epsilon at delta 1e-5, 4 steps of sigma 2, forced, on a grid given: narrow, above the
  // add/remove answer (the +Delta/-Delta records are worse than one record added or removed).
  const auto run = [](const char* relation) {
    return compose({"--event", "poisson-gaussian:sigma=2,q=0.01", "--count", "4", "--delta", "1e-5",
                    "--neighbouring", relation, "--route", "exact", "--pld-step", "1/1000", "--json"});
  };
  const CliRun rep = run("replace-one");
  ASSERT_EQ(rep.status, 0) << rep.err;
  EXPECT_NE(json_string_field(rep.out, "exact_detail").find("step 1/1000"), std::string::npos) << rep.out;
  const auto [lo, hi] = json_interval_field(rep.out, "epsilon");
  EXPECT_LT(hi - lo, hi / 1000);
  const CliRun ar = run("add-remove");
  ASSERT_EQ(ar.status, 0) << ar.err;
  EXPECT_GT(lo, json_interval_field(ar.out, "epsilon").second);
}

TEST(CliComposeFewStepsReplaceOne, UnprovenPairsAreNotAnswered) {
  // A subsampled Laplace under replace-one has no proven dominating pair: exact refuses it, auto
  // answers by the pld route's group bound.
  const std::vector<std::string> lap{"--event", "poisson-laplace:scale=2,q=0.01", "--count", "2", "--delta", "1e-5",
                                     "--neighbouring", "replace-one"};
  std::vector<std::string> forced = lap;
  forced.insert(forced.end(), {"--route", "exact"});
  expect_rejected_naming(compose(forced), "route");
  std::vector<std::string> json = lap;
  json.emplace_back("--json");
  const CliRun a = compose(json);
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(json_string_field(a.out, "route"), "pld");
  EXPECT_EQ(a.out.find("exact_detail"), std::string::npos) << a.out;
  // Over the few-step budget even at step 1/250, and no other route: refused, count named.
  expect_rejected_naming(compose({"--event", "poisson-gaussian:sigma=1/20,q=0.01", "--count", "10", "--delta", "1e-5",
                                  "--neighbouring", "replace-one"}),
                         "count");
}

}  // namespace cli_compose_few_steps_replace_test
}  // namespace
}  // namespace exactdp::cli
