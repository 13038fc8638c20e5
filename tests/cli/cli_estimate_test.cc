// exactdp estimate sparse-mean: the estimate and guarantee equal the library's (sparse_mean on
// the same data and seed), a seeded known answer, the --json fields, the exact decimal grid map
// (agreement with the library's map of doubles, ties to even, huge exponents), and the bad-input
// contract (exit 2 naming the option or the input line and column, nothing on stdout).
#include <gtest/gtest.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <exactdp/operations/estimate_input.h>
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/decimal.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/mechanisms/estimation/peeling_budget.h>
#include <exactdp/mechanisms/estimation/sparse_mean.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp {
namespace {

using test_support::expect_rejected_naming;
using test_support::json_string_field;
using test_support::run_cli;

const std::string kSeed = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";

// n rows of d = 6 coordinates: a strong mean on "b" and "e", noise-free small values elsewhere.
// Every value is a short decimal that is exactly a double (multiples of 1/8).
std::vector<double> data_values(std::size_t n) {
  std::vector<double> x;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < 6; ++j) {
      const double signal = (j == 1 ? 3.0 : (j == 4 ? -2.5 : 0.0));
      x.push_back(signal + static_cast<double>(static_cast<int>((i * 7 + j * 3) % 9) - 4) / 8);
    }
  }
  return x;
}

std::string to_csv(const std::vector<double>& x, std::size_t n) {
  std::string csv = "a,b,\"c, d\",e_x,e,f\n";
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < 6; ++j) {
      std::array<char, 32> buf{};
      const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), x[i * 6 + j]).ptr;
      csv += std::string(buf.data(), end) + (j == 5 ? "\n" : ",");
    }
  }
  return csv;
}

std::vector<std::string> base_args(std::vector<std::string> extra) {
  std::vector<std::string> a = {"estimate", "sparse-mean", "--s", "2", "--bound", "4", "--epsilon", "1",
                                "--delta", "1e-6", "--seed", kSeed};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::string library_csv(const mechanisms::EstimateResult& r) {
  const std::vector<std::string> names = {"a", "b", "\"c, d\"", "e_x", "e", "f"};
  std::string out = "coordinate,estimate\n";
  for (std::size_t j = 0; j < names.size(); ++j) {
    std::array<char, 64> buf{};
    const double v = mechanisms::to_double_nearest(r.estimate[j]);
    const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), v).ptr;
    out += names[j] + "," + std::string(buf.data(), end) + "\n";
  }
  return out;
}

TEST(CliEstimate, EqualsTheLibraryOnTheSameDataAndSeed) {
  const std::size_t n = 200;
  const auto x = data_values(n);
  const std::string json = ::testing::TempDir() + "estimate_guarantee.json";
  const auto r = run_cli(base_args({"--json", json}), to_csv(x, n));
  ASSERT_EQ(r.status, 0) << r.err;
  mechanisms::SparseMeanOptions o;
  o.sparsity = 2;
  o.radius = 4;
  o.epsilon = 1;
  o.delta = mpq_class(1, 1000000);
  SeededBits bits(parse_seed_hex("seed", kSeed));
  const mechanisms::EstimateResult lib = mechanisms::sparse_mean({x, n, 6}, o, bits);
  EXPECT_EQ(r.out, library_csv(lib));
  ASSERT_EQ(lib.support.size(), 2U);
  const std::string j = test_support::read_text_file(json);
  EXPECT_EQ(json_string_field(j, "command"), "estimate sparse-mean");
  EXPECT_EQ(json_string_field(j, "composition"), lib.guarantee.composition);
  EXPECT_EQ(json_string_field(j, "route"), "kov");
  EXPECT_EQ(json_string_field(j, "noise_scale"), exact_decimal(lib.guarantee.routes[0].noise_scale));
  EXPECT_EQ(json_string_field(j, "estimate_exact"), exact_decimal(lib.estimate[lib.support[0]]));
  const auto [lower, upper] = test_support::json_interval_field(j, "certified_epsilon");
  EXPECT_LE(upper, mpq_class(1));
  EXPECT_LE(lower, upper);
  EXPECT_NE(j.find("\"route\": \"advanced\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"rows\": 200"), std::string::npos) << j;
  EXPECT_NE(r.err.find("SEEDED"), std::string::npos);
  EXPECT_NE(r.err.find("route kov (used)"), std::string::npos) << r.err;
}

// A known answer of this seed (pinned: any change to the draws, the grid or the printing shows).
TEST(CliEstimate, SeededKnownAnswer) {
  const auto r = run_cli(base_args({}), to_csv(data_values(200), 200));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "coordinate,estimate\na,0\nb,2.8438430499006064\n\"c, d\",0\ne_x,0\ne,-2.6294716922892256\nf,0\n");
}

TEST(CliEstimate, PureDpWithoutDeltaUsesTheBasicRoute) {
  const auto r = run_cli({"estimate", "sparse-mean", "--s", "1", "--bound", "4", "--epsilon", "2", "--seed", kSeed},
                         to_csv(data_values(50), 50));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("basic over 1 rounds"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("delta = 0"), std::string::npos) << r.err;
}

TEST(CliEstimate, BadInputNamesTheLineAndColumn) {
  const auto bad_cell = run_cli(base_args({}), "a,b\n1,2\n3,nan\n");
  expect_rejected_naming(bad_cell, "input line 3: column 'b': 'nan'");
  expect_rejected_naming(run_cli(base_args({}), "a,b\n1,2\n3\n"), "input line 3: the row has 1 field(s)");
  expect_rejected_naming(run_cli(base_args({}), "a,b\n1,0x10\n"), "input line 2: column 'b'");
  expect_rejected_naming(run_cli(base_args({}), "a,b\n1, 2\n"), "input line 2: column 'b'");
  expect_rejected_naming(run_cli(base_args({}), "a,b\n1,\n"), "input line 2: column 'b'");
  expect_rejected_naming(run_cli(base_args({}), "a,a\n1,2\n"), "input line 1: header names column 'a' twice");
  expect_rejected_naming(run_cli(base_args({}), "a,\n1,2\n"), "input line 1: header field 2 is empty");
  expect_rejected_naming(run_cli(base_args({}), "a,b\n"), "no data row");
  expect_rejected_naming(run_cli(base_args({}), ""), "no header");
  expect_rejected_naming(run_cli(base_args({}), "a,b\n1,\"2\n"), "quote opened on line 2");
}

TEST(CliEstimate, BadOptionsAreNamed) {
  const std::string csv = "a,b,c\n1,2,3\n";
  auto run = [&](std::vector<std::string> a) { return run_cli(a, csv); };
  expect_rejected_naming(run(base_args({"--route", "advanced", "--s", "5"})), "--s");  // given twice
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "4", "--bound", "1", "--epsilon", "1"}), "s = 4");
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "0", "--bound", "1", "--epsilon", "1"}), "s = 0");
  expect_rejected_naming(run({"estimate", "sparse-mean", "--bound", "1", "--epsilon", "1"}), "--s");
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "1", "--bound", "0", "--epsilon", "1"}), "bound");
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "1", "--bound", "1e-5000", "--epsilon", "1"}), "bound");
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "1", "--bound", "1", "--epsilon", "0"}), "epsilon");
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "1", "--bound", "1", "--epsilon", "1", "--delta", "1"}),
                         "delta");
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "1", "--bound", "1", "--epsilon", "1", "--route", "kov"}),
                         "route");
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "1", "--bound", "1", "--epsilon", "1", "--route", "x"}),
                         "route");
  // A 1,300-bit epsilon is refused up front (10^-100000 once took 55 s); 10^-300 is served.
  expect_rejected_naming(run({"estimate", "sparse-mean", "--s", "1", "--bound", "1", "--epsilon", "1e-400"}),
                         "epsilon has");
  EXPECT_EQ(run({"estimate", "sparse-mean", "--s", "1", "--bound", "1", "--epsilon", "1e-300"}).status, 0);
  expect_rejected_naming(run({"estimate", "dp-lasso", "--s", "1"}), "unknown estimator");
  expect_rejected_naming(run({"estimate"}), "sparse-mean");
  expect_rejected_naming(
      run({"estimate", "sparse-mean", "--s", "1", "--bound", "1", "--epsilon", "1", "--max-input-bytes", "5"}),
      "input");
}

TEST(CliEstimate, TooMuchPeelingIsRefusedBeforeTheRows) {
  std::string header;
  for (int j = 0; j < 100000; ++j) header += (j ? ",c" : "c") + std::to_string(j);
  // No data row: the refusal comes from the header alone (else "no data row" would be named).
  const auto r = run_cli({"estimate", "sparse-mean", "--s", "50000", "--bound", "1", "--epsilon", "1", "--delta",
                          "1e-6"},
                         header + "\n");
  expect_rejected_naming(r, "s = 50000 of d = 100000");
}

TEST(CliEstimate, HelpAndUsage) {
  const auto r = run_cli({"estimate", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("sparse-mean --s INT --bound R"), std::string::npos);
  EXPECT_NE(run_cli({"--help"}).out.find("estimate"), std::string::npos);
}

// The exact decimal map agrees with the library's map of doubles on every double's exact decimal.
TEST(DecimalGridMap, AgreesWithTheLibraryOnDoubles) {
  std::mt19937_64 rng(20261126);
  for (const long k : {0L, 3L, 30L, 64L, 70L, -3L}) {
    const mpq_class radius = mpq_class(5) * power_of_two(-k / 2);
    const std::int64_t bound = mechanisms::grid_bound(radius, k, "radius");
    const operations::DecimalGridMap map(k, bound, radius);
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t word = rng();
      // Values near the grid (ties included) and random magnitudes around the radius.
      const double x = (i % 2 == 0)
                           ? static_cast<double>(static_cast<std::int64_t>(word % 4001) - 2000) / 2 *
                                 mechanisms::to_double_nearest(power_of_two(-k))
                           : std::ldexp(static_cast<double>(word >> 11) / 9007199254740992.0,
                                        static_cast<int>(word % 40) - 30 - static_cast<int>(k / 2));
      const double signed_x = (word & 1) != 0 ? -x : x;
      std::int64_t got = 0;
      const std::string text = exact_decimal(rational_from_double("x", signed_x));
      ASSERT_TRUE(map.map(text, got)) << text;
      EXPECT_EQ(got, mechanisms::truncated_grid_value(signed_x, k, bound, "x", 0)) << text << " k=" << k;
    }
  }
}

TEST(DecimalGridMap, RoundsHalfToEvenAndClampsWithoutArithmeticOnHugeExponents) {
  const operations::DecimalGridMap map(0, 5, 5);  // grid 1, B = 5
  auto at = [&](const std::string& t) {
    std::int64_t v = 99;
    EXPECT_TRUE(map.map(t, v)) << t;
    return v;
  };
  EXPECT_EQ(at("0.5"), 0);
  EXPECT_EQ(at("1.5"), 2);
  EXPECT_EQ(at("2.5"), 2);
  EXPECT_EQ(at("-2.5"), -2);
  EXPECT_EQ(at("2.50000000000000000000000000000000000000001"), 3);  // slow path
  EXPECT_EQ(at("-0.0"), 0);
  EXPECT_EQ(at("25e-1"), 2);
  EXPECT_EQ(at(".25E1"), 2);
  EXPECT_EQ(at("7"), 5);
  EXPECT_EQ(at("-1e999999999999999999999"), -5);
  EXPECT_EQ(at("1e-999999999999999999999"), 0);
  EXPECT_EQ(at("0000000000000000000000000004.4999"), 4);
  std::int64_t v = 0;
  for (const char* bad : {"", "-", ".", "e5", "1e", "1e+", "1..2", "1.2.3", " 1", "1 ", "+-1", "inf", "nan",
                          "0x1p3", "1,5", "\xd9\xa1"}) {
    EXPECT_FALSE(map.map(bad, v)) << bad;
  }
  EXPECT_FALSE(map.map(std::string(10001, '1'), v));
  EXPECT_TRUE(map.map(std::string(10000, '1'), v));
  EXPECT_EQ(v, 5);
}

}  // namespace
}  // namespace exactdp
