// exactdp compose --event ... and exactdp calibrate dp-sgd, in process: the DP-SGD
// reference values (mpmath), route choice and naming, the neighbouring relation in every
// answer, and bad input (exit 2, the parameter or complaint named).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {
namespace cli_compose_events_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using test_support::CliRun;
using test_support::expect_rejected_naming;
using test_support::json_interval_field;
using test_support::json_string_field;

CliRun compose(std::vector<std::string> args) {
  return test_support::run_command("compose", std::move(args));
}

mpq_class q(const char* s) { return parse_rational("t", s); }

TEST(CliComposeEventsTest, DpSgdThousandSteps) {
  const CliRun r = compose({"--event", "poisson-gaussian:sigma=1,q=0.01", "--count", "1000",
                            "--delta", "1e-5", "--route", "rdp", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto [lo, hi] = json_interval_field(r.out, "epsilon");
  // mpmath (30 digits, quadrature): the optimum over real orders is 2.10132213123462632118 at
  // 7.78083 (the integer orders alone give 2.10775307545156529446); the route's search lands
  // within 1e-8 of it, and its upper end is at least it.
  EXPECT_LE(lo, q("2.10132214"));
  EXPECT_GE(hi, q("2.10132213123462632117"));
  EXPECT_NE(json_string_field(r.out, "rdp_detail").find("order 7.78"), std::string::npos) << r.out;
  EXPECT_EQ(json_string_field(r.out, "neighbouring"), "add/remove-one");
  EXPECT_EQ(json_string_field(r.out, "route"), "rdp (exact RDP)");
  // auto also runs pld on a subsampled composition, and picks it: tighter than the RDP bound.
  const CliRun a = compose({"--event", "poisson-gaussian:sigma=1,q=0.01", "--count", "1000",
                            "--delta", "1e-5", "--json"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(json_string_field(a.out, "route"), "pld");
  const auto [alo, ahi] = json_interval_field(a.out, "epsilon");
  EXPECT_LT(ahi, lo);
  EXPECT_LT(alo, ahi);
  EXPECT_NE(a.out.find("\"rdp (exact RDP)\""), std::string::npos) << a.out;  // both listed
}

TEST(CliComposeEventsTest, VectorDiscreteGaussianDpSgdTakesTheSmoothedPldRoute) {
  // The 1 % target: d = 10^6, g = 2^-20, sigma 1.1, q 0.01, 1000 steps, delta 1e-5. auto picks
  // smoothed-pld (Theorem 5): above the continuous Gaussian's pld lower end (1.5154 upper end on
  // the same route) and within 1 % of it, far below the rdp route's Theorem 4 bound (1.7150).
  const CliRun r = compose({"--event",
                            "poisson-vector-discrete-gaussian:sigma=1.1,sensitivity=1,dim=1000000,"
                            "granularity=1/1048576,q=0.01",
                            "--count", "1000", "--delta", "1e-5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string_field(r.out, "route"), "smoothed-pld") << r.out;
  EXPECT_NE(json_string_field(r.out, "smoothed_pld_detail").find("Theorem 5"), std::string::npos) << r.out;
  const auto [lo, hi] = json_interval_field(r.out, "epsilon");
  const CliRun g = compose({"--event", "poisson-gaussian:sigma=1.1,q=0.01", "--count", "1000", "--delta", "1e-5",
                            "--route", "pld", "--json"});
  ASSERT_EQ(g.status, 0) << g.err;
  const auto [glo, ghi] = json_interval_field(g.out, "epsilon");
  EXPECT_GE(hi, glo);
  EXPECT_LE(hi, ghi * q("1.01"));
  EXPECT_LT(hi, q("1.6"));
  EXPECT_LE(lo, hi);
  EXPECT_NE(r.out.find("\"rdp\""), std::string::npos) << r.out;  // the rdp route, listed and larger
}

TEST(CliComposeEventsTest, OneSubsampledStepIsAnsweredExactly) {
  // sigma 0.8 at eps 4 and sigma 2 at eps 1/2 (true delta 1.26e-19), q 0.01: relative width
  // below 1e-6 (the closed form, to the default tolerance 2^-100).
  for (const auto& [sigma, eps] : std::vector<std::pair<std::string, std::string>>{{"0.8", "4"}, {"2", "1/2"}}) {
    const CliRun r = compose({"--event", "poisson-gaussian:sigma=" + sigma + ",q=0.01", "--epsilon", eps, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json_string_field(r.out, "route"), "exact") << r.out;
    const auto [lo, hi] = json_interval_field(r.out, "delta");
    EXPECT_GT(lo, 0);
    EXPECT_LE(hi - lo, lo * q("1e-6")) << r.out;
    if (sigma == "2") {
      EXPECT_GT(lo, q("1.25e-19"));
      EXPECT_LT(hi, q("1.27e-19"));
    }
  }
}

TEST(CliComposeEventsTest, DeltaQueryAndTextOutput) {
  const CliRun r = compose({"--event=poisson-gaussian:sigma=1,q=0.01", "--count=1000",
                            "--epsilon", "2.2", "--route", "rdp"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("neighbouring = add/remove-one"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("delta_upper = "), std::string::npos) << r.out;
  // delta(2.2) < 1e-5 since epsilon(1e-5) = 2.108 < 2.2 at the same order set.
  const CliRun j = compose({"--event=poisson-gaussian:sigma=1,q=0.01", "--count=1000",
                            "--epsilon", "2.2", "--route", "rdp", "--json"});
  EXPECT_LT(json_interval_field(j.out, "delta").second, q("1e-5"));
}

TEST(CliComposeEventsTest, PlainEventsPickTheBestRoute) {
  // Gaussians only: the gdp route is exact and beats rdp.
  const CliRun r = compose({"--event", "gaussian:sigma=5", "--count", "100", "--delta", "1e-6",
                            "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string_field(r.out, "route"), "gdp (exact)");
  EXPECT_NE(r.out.find("\"rdp (exact RDP)\""), std::string::npos) << r.out;
  const CliRun forced = compose({"--event", "gaussian:sigma=5", "--count", "100", "--delta",
                                 "1e-6", "--route", "rdp", "--json"});
  ASSERT_EQ(forced.status, 0) << forced.err;
  EXPECT_GT(json_interval_field(forced.out, "epsilon").first,
            json_interval_field(r.out, "epsilon").second);
  // replace-one is named when asked for.
  const CliRun rep = compose({"--event", "laplace:scale=2", "--event", "pure-dp:epsilon=0.1",
                              "--count", "3", "--delta", "1e-6", "--neighbouring", "replace-one"});
  ASSERT_EQ(rep.status, 0) << rep.err;
  EXPECT_NE(rep.out.find("neighbouring = replace-one"), std::string::npos) << rep.out;
}

TEST(CliComposeEventsTest, MonotoneInCountAndQ) {
  auto eps = [](const char* event, const char* count) {
    const CliRun r = compose({"--event", event, "--count", count, "--delta", "1e-5", "--route", "rdp", "--json"});
    EXPECT_EQ(r.status, 0) << r.err;
    return json_interval_field(r.out, "epsilon").second;
  };
  EXPECT_LT(eps("poisson-gaussian:sigma=1,q=0.01", "100"), eps("poisson-gaussian:sigma=1,q=0.01", "1000"));
  EXPECT_LT(eps("poisson-gaussian:sigma=1,q=0.01", "100"), eps("poisson-gaussian:sigma=1,q=0.02", "100"));
  EXPECT_LT(eps("poisson-gaussian:sigma=2,q=0.01", "100"), eps("poisson-gaussian:sigma=1,q=0.01", "100"));
}

TEST(CliComposeEventsTest, CalibrateDpSgd) {
  const CliRun r = test_support::run_command(
      "calibrate", {"dp-sgd", "--q", "0.01", "--steps", "1000", "--epsilon", "2", "--delta",
                    "1e-5", "--route", "rdp", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto [lo, hi] = json_interval_field(r.out, "sigma");
  // [1.02226, 1.02227] with the real-order search's orders (integer orders alone: 1.02289).
  EXPECT_GT(lo, q("1.0222"));
  EXPECT_LT(hi, q("1.0224"));
  const mpq_class use = parse_rational("s", json_string_field(r.out, "sigma_to_use"));
  EXPECT_GE(use, hi);
  EXPECT_EQ(json_string_field(r.out, "neighbouring"), "add/remove-one");
  // The sigma to use meets the target when composed back.
  const CliRun back = compose({"--event", "poisson-gaussian:sigma=" + json_string_field(r.out, "sigma_to_use") + ",q=0.01",
                               "--count", "1000", "--delta", "1e-5", "--route", "rdp", "--json"});
  ASSERT_EQ(back.status, 0) << back.err;
  EXPECT_LE(json_interval_field(back.out, "epsilon").second, mpq_class(2));
}

TEST(CliComposeEventsTest, BadInput) {
  using V = std::vector<std::string>;
  expect_rejected_naming(compose(V{"--event", "poisson-gaussian:sigma=1,q=0", "--delta", "1e-5"}), "q");
  expect_rejected_naming(compose(V{"--event", "poisson-gaussian:sigma=1,q=2", "--delta", "1e-5"}), "q");
  expect_rejected_naming(compose(V{"--event", "poisson-gaussian:sigma=1", "--delta", "1e-5"}), "q=R");
  expect_rejected_naming(compose(V{"--event", "poisson-gaussian:sigma=1,q=0.1,x=2", "--delta", "1e-5"}),
                         "unknown key");
  expect_rejected_naming(compose(V{"--event", "poisson-gaussian:sigma=-1,q=0.1", "--delta", "1e-5"}), "sigma");
  expect_rejected_naming(compose(V{"--event", "frob:x=1", "--delta", "1e-5"}), "unknown event kind");
  expect_rejected_naming(compose(V{"--event", "gaussian", "--delta", "1e-5"}), "kind:key=value");
  expect_rejected_naming(compose(V{"--event", "gaussian:sigma=1", "--count", "0", "--delta", "1e-5"}), "count");
  expect_rejected_naming(compose(V{"--count", "3", "--event", "gaussian:sigma=1", "--delta", "1e-5"}), "--count");
  expect_rejected_naming(compose(V{"--event", "gaussian:sigma=1", "--delta", "0"}), "delta");
  expect_rejected_naming(compose(V{"--event", "gaussian:sigma=1"}), "--delta");
  expect_rejected_naming(compose(V{"--event", "gaussian:sigma=1", "--delta", "1e-5", "--epsilon", "1"}), "--delta");
  expect_rejected_naming(compose(V{"--event", "gaussian:sigma=1", "--delta", "1e-5", "--route", "x"}), "route");
  expect_rejected_naming(compose(V{"--event", "poisson-gaussian:sigma=1,q=0.1", "--delta", "1e-5", "--route", "gdp"}),
                         "subsampled");
  expect_rejected_naming(compose(V{"--event", "poisson-gaussian:sigma=1,q=0.1", "--delta", "1e-5",
                                   "--neighbouring", "replace-one", "--route", "rdp"}),
                         "route");
  expect_rejected_naming(compose(V{"--event", "poisson-gaussian:sigma=1,q=0.1", "--event", "gaussian:sigma=2",
                                   "--delta", "1e-5", "--neighbouring", "replace-one"}),
                         "q=1");
  expect_rejected_naming(compose(V{"--event", "gaussian:sigma=1", "--delta", "1e-5", "--neighbouring", "x"}),
                         "neighbouring");
  auto cal = [](V args) {
    args.insert(args.begin(), "dp-sgd");
    return test_support::run_command("calibrate", std::move(args));
  };
  expect_rejected_naming(cal(V{"--q", "0", "--steps", "10", "--epsilon", "1", "--delta", "1e-5"}), "q");
  expect_rejected_naming(cal(V{"--q", "0.1", "--steps", "0", "--epsilon", "1", "--delta", "1e-5"}), "steps");
  expect_rejected_naming(cal(V{"--q", "0.1", "--steps", "10", "--epsilon", "0", "--delta", "1e-5"}), "epsilon");
  expect_rejected_naming(cal(V{"--q", "0.1", "--steps", "10", "--epsilon", "1", "--delta", "1"}), "delta");
  expect_rejected_naming(cal(V{"--q", "0.1", "--steps", "10", "--epsilon", "1"}), "--delta");
  expect_rejected_naming(cal(V{"--q", "0.1", "--steps", "10", "--epsilon", "1", "--delta", "1e-5", "--route", "kov"}),
                         "route");
}

}  // namespace cli_compose_events_test
}  // namespace
}  // namespace exactdp::cli

namespace exactdp::cli {
namespace {
namespace cli_compose_events_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

// The pld route: both ends are proven; it brackets the rdp route's optimum from below on
// DP-SGD (pld is tighter) and the exact Gaussian composition.
TEST(CliComposeEventsPld, DpSgdBracketIsBelowTheRdpBound) {
  const CliRun p = test_support::run_command(
      "compose", {"--event", "poisson-gaussian:sigma=2,q=0.01", "--count", "200", "--delta", "1e-5",
                  "--route", "pld", "--pld-step", "1/2000", "--json"});
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(json_string_field(p.out, "route"), "pld");
  EXPECT_NE(json_string_field(p.out, "pld_detail").find("step 1/2000"), std::string::npos) << p.out;
  const auto [lo, hi] = json_interval_field(p.out, "epsilon");
  const CliRun r = test_support::run_command(
      "compose", {"--event", "poisson-gaussian:sigma=2,q=0.01", "--count", "200", "--delta", "1e-5",
                  "--route", "rdp", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_LT(lo, hi);
  EXPECT_LT(hi, json_interval_field(r.out, "epsilon").second);  // pld is tighter than rdp here
  // The lower end is a test on the composed pair, not losses rounded down (which would lose
  // up to 200 steps x 1/2000 = 0.1): the bracket is far narrower than that.
  EXPECT_LT(hi - lo, mpq_class(1, 100));
}

// Subsampled discrete Gaussian / Laplace: only pld covers them, and auto picks it (naming it);
// subsampled discrete Laplace steps have a finite loss, and auto answers them exactly (route exact,
// docs/ACCOUNTING_SUBSAMPLED.md). The interval is proven at both ends and narrow.
TEST(CliComposeEventsPld, AutoUsesPldForTheOtherSubsampledNoises) {
  for (const char* ev : {"poisson-discrete-gaussian:sigma2=4,q=0.01", "poisson-laplace:scale=2,q=0.01",
                         "poisson-discrete-laplace:scale=2,q=0.01,sensitivity=2"}) {
    const CliRun p = test_support::run_command(
        "compose", {"--event", ev, "--count", "100", "--delta", "1e-5", "--pld-step", "1/2000", "--json"});
    ASSERT_EQ(p.status, 0) << ev << ": " << p.err;
    const bool finite_loss = std::string(ev).starts_with("poisson-discrete-laplace");
    EXPECT_EQ(json_string_field(p.out, "route"), finite_loss ? "exact" : "pld") << ev;
    const auto [lo, hi] = json_interval_field(p.out, "epsilon");
    EXPECT_LT(lo, hi) << ev;
    EXPECT_LT(hi - lo, mpq_class(1, 100)) << ev;
    EXPECT_GT(lo, 0) << ev;
  }
}

// auto runs pld beside rdp only while it is cheap: a loss range too wide for the default grid
// (sigma 0.03 at q = 1/2) is reported as not used and rdp answers, promptly; forced, pld refuses
// with the parameter named instead of running for minutes.
TEST(CliComposeEventsPld, AutoSkipsAnExpensivePldAndSaysWhy) {
  const CliRun a = test_support::run_command(
      "compose", {"--event", "poisson-gaussian:sigma=0.03,q=0.5", "--count", "10", "--delta", "1e-5", "--json"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(json_string_field(a.out, "route").rfind("rdp", 0), 0u) << a.out;
  EXPECT_EQ(json_string_field(a.out, "pld_detail").rfind("not used: ", 0), 0u) << a.out;
  EXPECT_NE(json_string_field(a.out, "pld_detail").find("pld-step"), std::string::npos) << a.out;
}

TEST(CliComposeEventsPld, RefusalsNameTheParameter) {
  using V = std::vector<std::string>;
  const auto run = [](V args) { return test_support::run_command("compose", std::move(args)); };
  expect_rejected_naming(run(V{"--event", "pure-dp:epsilon=1", "--delta", "1e-5", "--route", "pld"}), "route");
  expect_rejected_naming(run(V{"--event", "poisson-laplace:scale=1/2000,q=0.01", "--delta", "1e-5", "--route", "rdp"}),
                         "route");
  expect_rejected_naming(run(V{"--event", "poisson-laplace:scale=1,q=0", "--delta", "1e-5"}), "q");
  expect_rejected_naming(run(V{"--event", "poisson-discrete-gaussian:sigma2=1,q=0.5,sensitivity=1/2", "--delta",
                               "1e-5"}),
                         "sensitivity");
  expect_rejected_naming(run(V{"--event", "gaussian:sigma=1", "--delta", "1e-5", "--route", "pld", "--pld-step", "2"}),
                         "pld-step");
  expect_rejected_naming(run(V{"--event", "gaussian:sigma=1", "--delta", "1e-5", "--route", "pld", "--pld-step", "1/0"}),
                         "pld-step");
  expect_rejected_naming(run(V{"--event", "gaussian:sigma=1", "--delta", "1e-5", "--pld-step", "1/100"}), "--pld-step");
}

// Replace-one with subsampled events: pld alone (auto picks it), the relation named, the
// interval above the add/remove one and narrow (the +Delta/-Delta records, a proven dominating
// pair for poisson-gaussian; the accounting tests check containment of the exact values); a
// poisson-laplace event falls back to the group bound.
TEST(CliComposeEventsPld, ReplaceOneSubsampledUsesTheDominatingPair) {
  const auto run = [](const char* relation) {
    return test_support::run_command("compose", {"--event", "poisson-gaussian:sigma=1,q=0.01", "--count", "100",
                                                 "--delta", "1e-5", "--neighbouring", relation, "--pld-step", "1/2000",
                                                 "--route", "pld", "--json"});
  };
  const CliRun rep = run("replace-one");
  ASSERT_EQ(rep.status, 0) << rep.err;
  EXPECT_EQ(json_string_field(rep.out, "route"), "pld");
  EXPECT_EQ(json_string_field(rep.out, "neighbouring"), "replace-one");
  EXPECT_NE(json_string_field(rep.out, "pld_detail").find("proven dominating pair"), std::string::npos) << rep.out;
  const CliRun ar = run("add-remove");
  ASSERT_EQ(ar.status, 0) << ar.err;
  const auto [lo, hi] = json_interval_field(rep.out, "epsilon");
  const auto [ar_lo, ar_hi] = json_interval_field(ar.out, "epsilon");
  EXPECT_LT(lo, hi);
  EXPECT_GT(lo, ar_hi);  // the +Delta/-Delta records are worse than one record added or removed
  EXPECT_LT(hi, lo * 1.01);
  const CliRun lap = test_support::run_command(
      "compose", {"--event", "poisson-laplace:scale=2,q=0.01", "--count", "10", "--delta", "1e-5",
                  "--neighbouring", "replace-one", "--pld-step", "1/1000", "--json"});
  ASSERT_EQ(lap.status, 0) << lap.err;
  EXPECT_NE(json_string_field(lap.out, "pld_detail").find("group bound"), std::string::npos) << lap.out;
  // auto: rdp does not apply, pld answers.
  const CliRun a = test_support::run_command(
      "compose", {"--event", "poisson-gaussian:sigma=1,q=0.01", "--count", "100", "--delta", "1e-5",
                  "--neighbouring", "replace-one", "--json"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(json_string_field(a.out, "route"), "pld");
}

}  // namespace cli_compose_events_test
}  // namespace
}  // namespace exactdp::cli
