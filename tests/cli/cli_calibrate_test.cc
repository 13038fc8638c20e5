// exactdp calibrate, in process: the certified bracket really brackets (re-checked with the
// library at a higher precision), JSON shape, outward rounding, exit codes and messages.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/core/rational.h>
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"

namespace exactdp::cli {
namespace {
namespace cli_calibrate_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

const auto run = test_support::command_runner("calibrate");

using test_support::json_interval_field;
using test_support::json_string_field;

TEST(CliCalibrate, GaussianPrintedSigmaIsPrivate) {
  const auto r = run({"gaussian", "--epsilon", "0.5", "--delta", "1e-5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto [lo, hi] = json_interval_field(r.out, "sigma");
  const mpq_class use = parse_rational("sigma", json_string_field(r.out, "sigma_to_use"));
  EXPECT_EQ(use, hi);
  const mpq_class delta = parse_rational("delta", "1e-5");
  // The PRINTED (rounded) ends still bracket the crossing: check with the library.
  EXPECT_TRUE(exactdp::upper_at_most(
      accounting::gaussian_delta_at(mpq_class(1, 2), use, mpq_class(1), 600), delta));
  EXPECT_TRUE(exactdp::lower_above(
      accounting::gaussian_delta_at(mpq_class(1, 2), lo, mpq_class(1), 600), delta));
  EXPECT_NE(r.out.find("\"classical_sigma\": {"), std::string::npos);
  EXPECT_NE(r.out.find("\"tolerance_met\": true"), std::string::npos);
  EXPECT_NE(r.out.find("\"tolerance\": \"2^-100\""), std::string::npos);
}

TEST(CliCalibrate, GaussianTextAndLargeEpsilon) {
  const auto r = run({"gaussian", "--epsilon", "2", "--delta", "1e-10", "--sensitivity", "3",
                           "--digits", "8"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("sigma = ["), std::string::npos);
  EXPECT_NE(r.out.find("classical_sigma = n/a"), std::string::npos);
}

TEST(CliCalibrate, DiscreteGaussian) {
  const auto r = run({"discrete-gaussian", "--epsilon", "1", "--delta", "1e-5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string_field(r.out, "sigma2"), "14");
  const auto [dlo, dhi] = json_interval_field(r.out, "delta_at_sigma2");
  EXPECT_LE(dhi, parse_rational("delta", "1e-5"));
  EXPECT_LE(dlo, dhi);
  const auto [olo, ohi] = json_interval_field(r.out, "sigma2_optimum");
  EXPECT_LT(olo, ohi);
  EXPECT_LE(mpq_class(14), olo * mpq_class(101, 100));
  EXPECT_TRUE(exactdp::upper_at_most(
      accounting::discrete_gaussian_delta_at(mpq_class(1), mpq_class(14), mpz_class(1), 400),
      parse_rational("delta", "1e-5")));
}

TEST(CliCalibrate, BadInputExitsTwoNamingTheParameter) {
  const std::vector<test_support::BadInput> cases = {
      {{"gaussian", "--epsilon", "-1", "--delta", "1e-5"}, "epsilon"},
      {{"gaussian", "--epsilon", "1", "--delta", "0"}, "0 < delta < 1"},
      {{"gaussian", "--epsilon", "1", "--delta", "1.5"}, "delta"},
      {{"gaussian", "--epsilon", "1", "--delta", "0.1", "--sensitivity", "0"}, "sensitivity"},
      {{"discrete-gaussian", "--epsilon", "1", "--delta", "0.1", "--sensitivity", "1.5"},
       "sensitivity"},
      {{"gaussian", "--epsilon", "1", "--delta", "0.1", "--digits", "1001"}, "digits"},
      {{"gaussian", "--epsilon", "1", "--delta", "0.1", "--tolerance", "0"}, "tolerance"},
      {{"discrete-gaussian", "--epsilon", "1", "--delta", "0.1", "--tolerance", "1/2"},
       "tolerance"},
      {{"gaussian", "--delta", "0.1"}, "--epsilon"},
      {{"staircase", "--epsilon", "1", "--delta", "0.1"}, "unknown mechanism"},
      // a registry law with a calibration map that calibrate does not print: refused by name
      {{"laplace", "--epsilon", "1", "--delta", "0.1"}, "law laplace's calibration is a closed form"},
      {{}, "name a mechanism"},
      {{"gaussian", "--epsilon", "abc", "--delta", "0.1"}, "epsilon"},
  };
  for (const auto& c : cases) test_support::expect_rejected_naming(run(c.args), c.needle);
}

// A fixed bug: at eps = 0 and a tiny delta the first deciding bracket around Newton's estimate
// was returned without bisecting it to the tolerance (tolerance_met false, "precision cap reached").
TEST(CliCalibrate, GaussianBracketIsBisectedToTheTolerance) {
  const auto r = run({"gaussian", "--epsilon", "0", "--delta", "1e-27", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"tolerance_met\": true"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CliCalibrate, HelpStatesTheLimits) {
  const auto r = run({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("1 <= D <= 1000"), std::string::npos);
  EXPECT_NE(r.out.find("65536"), std::string::npos);
  EXPECT_NE(r.out.find("2^-2000"), std::string::npos);  // the tolerance's cost limit
}

}  // namespace cli_calibrate_test
}  // namespace
}  // namespace exactdp::cli
