// Slow inputs: the commands that once took 7-120 s (or 3 GB) now answer or are refused up front. Each
// case checks the exit code and the shape of the output (no timed assertion: a watchdog stops
// the program if a case has not returned after 60 s, as in cli_hostile_inputs_test.cc; times
// are in docs/FUZZING.md "Slow inputs" and SECURITY.md "Limits").
#include <gtest/gtest.h>
#include <mpfr.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/core/rational.h>
#include "cli/commands.h"

namespace exactdp::cli {
namespace {

struct Outcome {
  int status = -1;
  std::string out, err;
};

Outcome run_watched(const std::vector<std::string>& args) {
  std::packaged_task<Outcome()> task([&args] {
    Outcome o;
    std::istringstream in;
    std::ostringstream out, err;
    Io io{in, out, err, false};
    o.status = run_exactdp(args, io);
    o.out = out.str();
    o.err = err.str();
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);  // per-thread MPFR caches (LeakSanitizer)
    return o;
  });
  auto result = task.get_future();
  std::thread worker(std::move(task));
  if (result.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    std::fprintf(stderr, "slow-input case %s ...: no result after 60 s; stopping\n", args[0].c_str());
    std::fflush(stderr);
    std::_Exit(1);
  }
  worker.join();
  return result.get();
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

void expect_refused(const Outcome& o, const std::vector<std::string>& names) {
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out.substr(0, 300);
  for (const auto& n : names) EXPECT_NE(o.err.find(n), std::string::npos) << n << ": " << o.err;
}

TEST(SlowInputLimits, CurveToTenToTheHundredThousandIsShortJson) {
  const Outcome o = run_watched(
      {"profile", "gaussian", "--sigma", "1", "--curve", "0", "1e100000", "10000", "--json"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(count(o.out, "\"epsilon\": "), 10000u);
  EXPECT_LT(o.out.size(), 3'000'000u);  // was ~1 GB: 100,000-digit epsilons
  EXPECT_NE(o.out.find("{\"epsilon\": \"1e+100000\""), std::string::npos);
  EXPECT_NE(o.out.find("\"tolerance_met\": false}\n"), std::string::npos);  // the tail
  EXPECT_EQ(o.out.back(), '\n');
}

// Huge parameters cost time per point: a curve at sigma2 = 10^100000 (332,000 bits) is limited
// to 10,000 * 2^16 / bits points (1,972 here; 10,000 points took 12 s of CPU).
TEST(SlowInputLimits, CurvePointsShrinkWithTheParameterSize) {
  expect_refused(run_watched({"profile", "discrete-gaussian", "--sigma2", "1e100000", "--curve", "0",
                              "1e100000", "10000"}),
                 {"points", "2^16 bits"});
  const Outcome o = run_watched(
      {"profile", "discrete-gaussian", "--sigma2", "1e100000", "--curve", "0", "1e100000", "100"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(count(o.out, "\n"), 101u);  // the header and 100 rows
  // Ordinary parameters keep the full 10,000 points.
  expect_refused(run_watched({"profile", "gaussian", "--sigma", "1", "--curve", "0", "1", "10001"}),
                 {"points", "10000"});
}

TEST(SlowInputLimits, CurveCsvEpsilonsReadBackAndBoundsContainTheSinglePoint) {
  const Outcome o =
      run_watched({"profile", "gaussian", "--sigma", "1", "--curve", "0", "1e100000", "1000"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(count(o.out, "\n"), 1001u);
  EXPECT_LT(o.out.size(), 200'000u);
  // Point 1: an exact 12-digit epsilon; the same epsilon through --epsilon gives an interval
  // inside the curve's (both certified; the curve's is printed outward too).
  std::istringstream lines(o.out);
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  const std::string eps = second.substr(0, second.find(','));
  EXPECT_EQ(eps, "1.00100100101e+99997");  // 10^100000 / 999 rounded up to 12 digits
  EXPECT_EQ(parse_rational("epsilon", eps), parse_rational("e", "100100100101e+99986"));
  const Outcome single = run_watched({"profile", "gaussian", "--sigma", "1", "--epsilon", eps});
  ASSERT_EQ(single.status, 0) << single.err;
  EXPECT_NE(single.out.find("epsilon = 1.00100100101e+99997\n"), std::string::npos) << single.out;
  const std::string upper = second.substr(second.rfind(',') + 1);
  EXPECT_NE(single.out.find("delta_upper = " + upper + "\n"), std::string::npos) << single.out;
  // Row 0 is epsilon = 0: delta(0) = 2 Phi(1/2) - 1, contained in the printed interval.
  EXPECT_EQ(first.rfind("0,0.3829249225480262072", 0), 0u) << first;
}

TEST(SlowInputLimits, DiscreteGaussianCalibrationWithTinyDeltaAndLargeSensitivityIsRefused) {
  for (const std::string sens : {"1e6", "1e100000"}) {
    expect_refused(run_watched({"calibrate", "discrete-gaussian", "--epsilon", "1e-100000",
                                "--delta", "1e-100000", "--sensitivity", sens}),
                   {"delta", "sensitivity", "2^20000"});
  }
  // The same profile point directly: refused naming sigma2 and sensitivity.
  expect_refused(run_watched({"profile", "discrete-gaussian", "--sigma2", "1e100000",
                              "--sensitivity", "1000000", "--epsilon", "1e-100000"}),
                 {"sigma2", "sensitivity"});
}

TEST(SlowInputLimits, DiscreteGaussianCalibrationStartsNearTheAnswer) {
  // Sensitivity 1 (term-by-term range sum): answers, bracket within tolerance; and the
  // total-variation start: eps -> 0 with delta = 1e-5, Delta = 10^6 gives sigma2 ~ 1.6e21.
  Outcome o = run_watched({"calibrate", "discrete-gaussian", "--epsilon", "1e-100000", "--delta",
                           "1e-100000", "--json"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("\"sigma2\": \"7.62e+199998\""), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"tolerance_met\": true"), std::string::npos) << o.out;
  o = run_watched({"calibrate", "discrete-gaussian", "--epsilon", "1e-100000", "--delta", "1e-5",
                   "--sensitivity", "1000000"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("sigma2 = 1.6e+21\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("epsilon = 1e-100000\n"), std::string::npos) << o.out;  // echo is short
}

TEST(SlowInputLimits, DiscreteGaussianCalibrationAtHugeEpsilonPrintsAShortSigma2) {
  const Outcome o =
      run_watched({"calibrate", "discrete-gaussian", "--epsilon", "1e100000", "--delta", "1e-5"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("sigma2 = 5.01e-100001\n"), std::string::npos) << o.out;
  EXPECT_LT(o.out.size(), 2000u);  // was 200 KB (sigma2 and epsilon printed in full)
}

TEST(SlowInputLimits, OptimalCompositionAtTheExponentEdges) {
  Outcome o = run_watched({"compose", "pure-dp", "--epsilon", "1e-100000", "--k", "1000000",
                           "--delta", "1e-100000", "--method", "optimal", "--json"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("\"epsilon_upper\": \"2.71780343588888633"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"tolerance_met\": true"), std::string::npos);
  o = run_watched({"compose", "pure-dp", "--epsilon", "0.5", "--k", "1000000", "--delta",
                   "0." + std::string(5000, '9'), "--method", "optimal"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("epsilon_upper = "), std::string::npos) << o.out;
  // basic <= k eps = 5e5 bounds the optimal one
  const auto at = o.out.find("epsilon_upper = ");
  EXPECT_LE(parse_rational("e", o.out.substr(at + 16, o.out.find('\n', at) - at - 16)),
            mpq_class(500000));
}

TEST(SlowInputLimits, NaiveGdpMeasurementIsLimitedToAThousandGridPoints) {
  expect_refused(run_watched({"measure-gdp", "pure-dp-composition", "--epsilon", "0.03", "--k",
                              "1000", "--naive"}),
                 {"tolerance", "1000 grid points", "12248"});
}

TEST(ExactDecimal, ShortAndExact) {
  using exactdp::exact_decimal;
  const std::vector<std::string> texts = {"0", "1", "-3/2", "1e100000", "1e-100000", "1.5e99999",
                                          "123456789012e-7", "1/3", "7/1024", "0.1", "1e21", "1e20"};
  for (const auto& t : texts) {
    const mpq_class v = parse_rational("x", t);
    const std::string s = exact_decimal(v);
    EXPECT_EQ(parse_rational("x", s), v) << t << " -> " << s;
    EXPECT_LT(s.size(), 40u) << t;
  }
  EXPECT_EQ(exact_decimal(parse_rational("x", "1e100000")), "1e+100000");
  EXPECT_EQ(exact_decimal(parse_rational("x", "-1.5e-100000")), "-1.5e-100000");
  EXPECT_EQ(exact_decimal(mpq_class(7, 1024)), "0.0068359375");
  EXPECT_EQ(exact_decimal(mpq_class(1, 3)), "1/3");
  EXPECT_EQ(exactdp::parameter_text(mpq_class(1, 2)), "1/2");  // short values: unchanged
}

}  // namespace
}  // namespace exactdp::cli
