// cli_release_per_column_test.cc — `exactdp release` with per-column options (--sensitivity
// NAME=S, --granularity NAME=G, --round NAME=MODE; docs/RELEASE.md "Per-column sensitivity and
// grid"): an integer column stays an integer column next to a decimal one, each column's noise
// is calibrated to its own Delta and the report and --json list them, invocations without
// per-column options give the same bytes as before (known answers recorded from the release
// before per-column options existed), and bad per-column options exit 2 naming the column.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include <exactdp/mechanisms/release/csv_reader.h>
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include "tests/mechanisms/release_test_support.h"

namespace exactdp {
namespace {

using namespace test_support;

const std::string kSeed = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const std::string kTable = "region,count,\"sum, visits\",amount\nnorth,76,1200,12.30\n\"south\",3,\"40\",0.05\r\neast,0,0,-1.5\n";

std::vector<std::string> args(const std::string& mechanism, std::vector<std::string> extra) {
  std::vector<std::string> a = {"release", "--mechanism", mechanism, "--epsilon", "1", "--seed", kSeed};
  if (mechanism == "discrete-gaussian") a.insert(a.end(), {"--delta", "1e-6"});
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// The values of one column of a released table (data rows).
std::vector<std::string> column_values(const std::string& csv, std::size_t column) {
  StringReader in(csv);
  mechanisms::CsvReader reader(in);
  mechanisms::CsvRecord r;
  std::vector<std::string> out;
  EXPECT_TRUE(reader.next(r));
  while (reader.next(r)) out.push_back(r.value(column));
  return out;
}

TEST(CliReleasePerColumn, AnIntegerColumnStaysIntegerNextToADecimalOne) {
  const std::regex integer("-?[0-9]+");
  const std::regex cents("-?[0-9]+\\.[0-9]{2}");
  // The old way: one --granularity for both columns prints the count as a decimal (76 -> 81.10).
  const auto old = run_cli(args("discrete-gaussian", {"--column", "count", "--column", "amount",
                                                      "--granularity", "0.05", "--round", "nearest"}), kTable);
  ASSERT_EQ(old.status, 0) << old.err;
  EXPECT_FALSE(std::regex_match(column_values(old.out, 1)[0], integer));  // the check can fail
  for (const char* mechanism : {"discrete-gaussian", "discrete-laplace"}) {
    const auto r = run_cli(args(mechanism, {"--column", "count", "--column", "amount", "--granularity", "amount=0.01",
                                            "--sensitivity", "amount=5", "--round", "amount=nearest"}),
                           kTable);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const std::string& v : column_values(r.out, 1)) EXPECT_TRUE(std::regex_match(v, integer)) << v;
    for (const std::string& v : column_values(r.out, 3)) EXPECT_TRUE(std::regex_match(v, cents)) << v;
    EXPECT_EQ(column_values(r.out, 2), (std::vector<std::string>{"1200", "40", "0"}));
    EXPECT_NE(r.err.find("column count: " + std::string(mechanism)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Delta = 1 (integer column)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Delta = ceil(5 / G) = 500 grid steps; decimal grid G = 0.01"), std::string::npos) << r.err;
  }
}

TEST(CliReleasePerColumn, EachColumnIsCalibratedToItsOwnSensitivity) {
  const std::string path = ::testing::TempDir() + "release_per_column.json";
  const auto r = run_cli(args("discrete-laplace", {"--column", "count", "--column", "amount", "--granularity",
                                                   "amount=0.01", "--sensitivity", "amount=5", "--round",
                                                   "nearest", "--json", path}),
                         kTable);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string json = read_text_file(path);
  std::remove(path.c_str());
  // scale_c = C K Delta_c / epsilon: 2 for the count, 2 * 500 = 1000 grid steps (10.00) for the amount
  EXPECT_NE(json.find("{\"column\": \"count\", \"mechanism\": \"discrete-laplace\", \"sensitivity\": \"1\", "
                      "\"granularity\": null, \"scale\": \"2\"}"),
            std::string::npos) << json;
  EXPECT_NE(json.find("{\"column\": \"amount\", \"mechanism\": \"discrete-laplace\", \"sensitivity\": \"500\", "
                      "\"granularity\": \"0.01\", \"rounding\": \"nearest (ties toward +infinity)\", "
                      "\"sensitivity_value_units\": \"5\", \"scale\": \"1000\", \"scale_value_units\": \"10\"}"),
            std::string::npos) << json;
  EXPECT_EQ(json_string_field(json, "l1_sensitivity"), "501");
  EXPECT_EQ(json_string_field(json, "sensitivity"), "per column");
  EXPECT_LE(json_interval_field(json, "epsilon").second, 1);
  EXPECT_NE(r.err.find("L1 = K sum_c Delta_c = 501"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scale t_c = C K Delta_c / epsilon"), std::string::npos) << r.err;
}

TEST(CliReleasePerColumn, EqualPerColumnSensitivitiesNoiseAsTheGlobalOption) {
  const auto global = run_cli(args("discrete-gaussian", {"--column", "count", "--column", "sum, visits",
                                                         "--sensitivity", "5"}), kTable);
  const auto per = run_cli(args("discrete-gaussian", {"--column", "count", "--column", "sum, visits",
                                                      "--sensitivity", "count=5", "--sensitivity", "sum, visits=5"}),
                           kTable);
  ASSERT_EQ(global.status, 0) << global.err;
  ASSERT_EQ(per.status, 0) << per.err;
  EXPECT_EQ(global.out, per.out);
  EXPECT_NE(per.err.find("sigma2 = 894, Delta = 5 (integer column)"), std::string::npos) << per.err;
}

// Known answers of invocations without per-column options, recorded before they existed (the
// discrete Gaussian grid case re-pinned after the bucket sampler changed its bits, below).
TEST(CliReleasePerColumn, InvocationsWithoutPerColumnOptionsAreUnchanged) {
  const auto r = run_cli({"release", "--seed", kSeed, "--mechanism", "discrete-laplace", "--epsilon", "0.5",
                          "--column", "count", "--column", "sum, visits", "--contributions", "3"}, kTable);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "region,count,\"sum, visits\",amount\nnorth,78,1162,12.30\n\"south\",4,\"39\",0.05\r\n"
                   "east,-16,-16,-1.5\n");
  EXPECT_EQ(r.err,
            "exactdp: warning: --seed gives a reproducible stream: anyone who knows the seed knows the noise (tests and audits only)\n"
            "exactdp release: guarantee of the whole release (certified upper ends, rounded up)\n"
            "  (epsilon, delta)-DP  epsilon <= 0.5, delta <= 0  (requested epsilon = 0.5, delta = 0)\n"
            "  rho-zCDP             rho = 0.125 (epsilon^2/2, BS16 Prop. 3.3)\n"
            "  mu-GDP               mu <= 0.62389259209850819205 (pure DP => GDP, DRS Sec. 2.4)\n"
            "  contribution model   a person contributes at most K = 3 record(s); each changes one row, and each "
            "noised column's cell in it by at most Delta = 1; rows and other columns are public\n"
            "  sensitivity          C = 2 noised column(s): L1 = C K Delta = 6, L2^2 = C K^2 Delta^2 = 18\n"
            "  composition route    pure-dp-l1: independent discrete Laplace noise of scale t on every cell has "
            "privacy loss at most ||v||_1 / t <= C K Delta / t = epsilon for a person's change v (pure DP, delta = 0)\n"
            "  column count: discrete-laplace, scale = 12\n"
            "  column sum, visits: discrete-laplace, scale = 12\n"
            "  cells noised         6\n"
            "  randomness           SEEDED: a reproducible demo, NOT a private release (anyone with the seed can "
            "remove the noise)\n");
  const auto grid = run_cli(args("discrete-gaussian", {"--column", "amount", "--column", "count", "--granularity",
                                                       "0.05", "--round", "nearest"}), kTable);
  ASSERT_EQ(grid.status, 0) << grid.err;
  // Re-pinned when two columns with one contribution moved from the zCDP split (sigma2 = 16500) to
  // the product profile's optimum (sigma2 = 14300, mechanisms/aggregate/joint_gaussian_calibration.h).
  EXPECT_EQ(grid.out, "region,count,\"sum, visits\",amount\nnorth,80.75,1200,14.35\n\"south\",2.80,\"40\",-4.35\r\n"
                      "east,3.60,0,12.85\n");
  EXPECT_NE(grid.err.find("  decimal grid         G = 0.05, values rounded to the nearest multiple (ties up); "
                          "sensitivity 1 = Delta = ceil(s/G) = 20 grid steps; noise below is in grid steps\n"
                          "  composition route    product-profile: one contribution: a person changes one row, each "
                          "column's cell by at most Delta_c; the C discrete Gaussians of that row are a product "
                          "shifted by (Delta_c), whose privacy profile, bounded through the continuous Gaussian at "
                          "sigma2_c - t2_c by lattice smoothing (certified) is <= delta at epsilon\n"
                          "  column count: discrete-gaussian, sigma2 = 14300\n"
                          "  column amount: discrete-gaussian, sigma2 = 14300\n"),
            std::string::npos)
      << grid.err;
}

TEST(CliReleasePerColumn, BadPerColumnOptionsExitTwoNamingTheColumn) {
  const auto bad = [](std::vector<std::string> extra) {
    std::vector<std::string> a = {"--column", "count", "--column", "amount"};
    a.insert(a.end(), extra.begin(), extra.end());
    return run_cli(args("discrete-laplace", a), kTable);
  };
  expect_rejected_naming(bad({"--sensitivity", "nope=3"}), "column 'nope'");
  expect_rejected_naming(bad({"--granularity", "amount=0.01", "--sensitivity", "count=1.5"}), "column 'count'");
  expect_rejected_naming(bad({"--granularity", "amount=1/3"}), "column 'amount': granularity");
  expect_rejected_naming(bad({"--granularity", "amount=0.01", "--sensitivity", "amount=0"}), "column 'amount'");
  expect_rejected_naming(bad({"--granularity", "amount=0.1", "--round", "count=nearest"}), "column 'count'");
  expect_rejected_naming(bad({"--granularity", "amount=0.1", "--round", "amount=up"}), "column 'amount': round");
  expect_rejected_naming(bad({"--granularity", "amount=0.1", "--sensitivity", "count=2", "--sensitivity", "count=3"}),
                         "more than once for column 'count'");
  expect_rejected_naming(bad({"--sensitivity", "=3"}), "NAME=VALUE");
  // a decimal cell in the integer column, and an off-grid one in the decimal column: the line
  expect_rejected_naming(bad({"--granularity", "amount=0.1"}), "line 3: column 'amount'");
  expect_rejected_naming(run_cli(args("discrete-laplace", {"--column", "count", "--column", "amount",
                                                           "--granularity", "amount=0.01", "--sensitivity", "amount=5"}),
                                 "count,amount\n1.5,2\n"),
                         "line 2: column 'count'");
}

}  // namespace
}  // namespace exactdp
