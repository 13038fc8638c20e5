// exactdp aggregate: the table and the guarantee from raw records, the JSON fields, seeded
// reproducibility, public keys released even without records, and the all-or-nothing contract
// (a bad record or option exits 2 naming the line or the option, with nothing on stdout).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"

namespace exactdp {
namespace {
namespace cli_aggregate_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using test_support::expect_rejected_naming;
using test_support::json_string_field;
using test_support::run_cli;

const std::string kSeed = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";

// 300 units in 3 groups (a, b, "c, d"), 1 to 3 rows each, amounts in [0, 20].
std::string records() {
  std::string csv = "user,region,amount\r\n";
  for (int u = 0; u < 300; ++u) {
    const std::string region = u % 3 == 0 ? "a" : (u % 3 == 1 ? "b" : "\"c, d\"");
    for (int k = 0; k <= u % 3; ++k) csv += "u" + std::to_string(u) + "," + region + "," + std::to_string(u % 21) + ".25\r\n";
  }
  return csv;
}

std::vector<std::string> args(std::vector<std::string> extra) {
  std::vector<std::string> a = {"aggregate", "--privacy-unit", "user", "--group-by", "region", "--count",
                                "--sum", "amount", "--bounds", "0,20.0", "--mean", "amount", "--bounds", "0,20.0",
                                "--epsilon", "5", "--delta", "1e-6", "--max-rows", "2", "--seed", kSeed};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(CliAggregate, ReleasesSelectedGroupsWithAGuarantee) {
  const std::string json = ::testing::TempDir() + "aggregate_guarantee.json";
  const auto r = run_cli(args({"--json", json}), records());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "region,count,sum_amount,mean_amount");
  EXPECT_NE(r.out.find("\n\"c, d\","), std::string::npos) << r.out;  // 100 units: far over tau
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4) << r.out;
  EXPECT_NE(r.err.find("partition selection"), std::string::npos);
  const std::string j = test_support::read_text_file(json);
  EXPECT_EQ(json_string_field(j, "command"), "aggregate");
  EXPECT_EQ(json_string_field(j, "epsilon"), "5");
  EXPECT_EQ(json_string_field(j, "aggregates_route"), "pure-dp-l1");
  EXPECT_NE(j.find("\"quantities\""), std::string::npos);
  EXPECT_NE(j.find("\"l1_sensitivity\": \"2\""), std::string::npos) << j;  // count: L0 Linf = 2
  EXPECT_LE(parse_rational("delta", json_string_field(j, "delta")), mpq_class(1, 1000000));
  EXPECT_EQ(j.find("rows_read"), std::string::npos) << "counts of the private data are not released";
  EXPECT_EQ(r.err.find(" of 3 group"), std::string::npos) << r.err;
}

TEST(CliAggregate, SelectionMethodIsReported) {
  const std::string json = ::testing::TempDir() + "aggregate_selection.json";
  const auto optimal = run_cli(args({"--json", json}), records());
  ASSERT_EQ(optimal.status, 0) << optimal.err;
  std::string j = test_support::read_text_file(json);
  EXPECT_EQ(json_string_field(j, "selection"), "optimal") << j;
  EXPECT_NE(j.find("\"saturation_units\""), std::string::npos) << j;
  EXPECT_NE(optimal.err.find("optimal: released with probability p(units)"), std::string::npos) << optimal.err;
  const auto threshold = run_cli(args({"--selection", "threshold", "--json", json}), records());
  ASSERT_EQ(threshold.status, 0) << threshold.err;
  j = test_support::read_text_file(json);
  EXPECT_EQ(json_string_field(j, "selection"), "threshold") << j;
  EXPECT_NE(threshold.err.find("threshold tau = "), std::string::npos) << threshold.err;
  EXPECT_EQ(std::count(threshold.out.begin(), threshold.out.end(), '\n'), 4) << threshold.out;
}

TEST(CliAggregate, QuantilesAreReleasedOnTheGrid) {
  const std::string json = ::testing::TempDir() + "aggregate_quantile.json";
  const auto r = run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "region", "--count", "--quantile",
                          "amount", "--bounds", "0,20.0", "--q", "0.5,1/4", "--epsilon", "5", "--delta", "1e-6",
                          "--json", json, "--seed", kSeed},
                         records());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "region,count,quantile_amount_0.5,quantile_amount_0.25");
  const std::string row = r.out.substr(r.out.find("\na,") + 1);
  EXPECT_EQ(std::count(row.begin(), row.begin() + static_cast<long>(row.find('\n')), ','), 3) << r.out;
  EXPECT_NE(row.find('.'), std::string::npos) << "a quantile is printed with the grid's 1 decimal: " << r.out;
  const std::string j = test_support::read_text_file(json);
  EXPECT_NE(j.find("\"quantiles\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"candidates\": \"201\""), std::string::npos) << j;
  EXPECT_NE(r.err.find("quantile_amount_0.5: exponential mechanism"), std::string::npos) << r.err;
  const std::vector<std::string> base = {"aggregate", "--privacy-unit", "user", "--group-by", "region", "--epsilon",
                                         "1", "--delta", "1e-6", "--quantile", "amount"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  expect_rejected_naming(run_cli(with({"--bounds", "0,20.0"}), records()), "--q");
  expect_rejected_naming(run_cli(with({"--bounds", "0,20.00000", "--q", "0.5"}), records()), "bounds");
  expect_rejected_naming(run_cli(with({"--bounds", "0,20", "--q", "2"}), records()), "q");
}

TEST(CliAggregate, SeededRunsAreReproducible) {
  const auto a = run_cli(args({}), records());
  const auto b = run_cli(args({}), records());
  ASSERT_EQ(a.status, 0);
  EXPECT_EQ(a.out, b.out);
}

TEST(CliAggregate, PublicKeysAreReleasedEvenWithoutRecords) {
  const std::string keys = write_temp("aggregate_keys.csv", "region,other\nzzz,1\nb,2\n");
  const auto r = run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "region", "--count-units",
                          "--epsilon", "1", "--keys", keys, "--seed", kSeed},
                         records());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "region,count_units");
  EXPECT_EQ(r.out.find("\nzzz,"), r.out.find('\n')) << r.out;  // the key file's order
  EXPECT_NE(r.out.find("\nb,"), std::string::npos);
  EXPECT_EQ(r.out.find("\na,"), std::string::npos) << "a is not a public key";
  EXPECT_NE(r.err.find("public key"), std::string::npos);
}

TEST(CliAggregate, BadRecordsExitTwoWithTheLineAndWriteNothing) {
  expect_rejected_naming(run_cli(args({}), records() + "u1,a\r\n"), "input line 602");
  expect_rejected_naming(run_cli(args({}), records() + "u1,a,1e3\r\n"), "input line 602");
  expect_rejected_naming(run_cli(args({}), records() + "u1,a,\r\n"), "input line 602");
  expect_rejected_naming(run_cli(args({}), "user,amount\n"), "region");
  expect_rejected_naming(run_cli(args({}), ""), "empty");
  expect_rejected_naming(run_cli(args({}), "user,region,amount\nu1,\"a,1\n"), "unterminated");
}

TEST(CliAggregate, BadOptionsExitTwoNamingTheOption) {
  const std::string csv = records();
  expect_rejected_naming(run_cli({"aggregate", "--group-by", "region", "--count", "--epsilon", "1", "--delta", "1e-6"}, csv),
                         "privacy-unit");
  expect_rejected_naming(run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "region", "--epsilon", "1",
                                  "--delta", "1e-6"}, csv),
                         "aggregate");
  expect_rejected_naming(run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "region", "--count",
                                  "--epsilon", "1"}, csv),
                         "delta");
  expect_rejected_naming(run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "region", "--sum", "amount",
                                  "--epsilon", "1", "--delta", "1e-6"}, csv),
                         "--bounds");
  expect_rejected_naming(run_cli(args({"--split", "1"})), "split");
  expect_rejected_naming(run_cli(args({"--max-groups", "0"})), "max-groups");
  expect_rejected_naming(run_cli(args({"--mechanism", "gaussian"})), "mechanism");
  expect_rejected_naming(run_cli(args({"--selection", "gaussian"})), "selection");
  const std::string keys = write_temp("aggregate_sel_keys.csv", "region\na\n");
  expect_rejected_naming(run_cli(args({"--keys", keys, "--selection", "optimal"}), csv), "selection");
  expect_rejected_naming(run_cli(args({"--keys", ::testing::TempDir() + "no/such/keys.csv"})), "keys");
  const std::string dup = write_temp("aggregate_dup_keys.csv", "region\na\na\n");
  expect_rejected_naming(run_cli(args({"--keys", dup}), csv), "listed twice");
}

TEST(CliAggregate, HelpDescribesTheContract) {
  const auto r = run_cli({"aggregate", "--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* s : {"--privacy-unit", "--max-groups", "--keys", "--split", "--selection", "WHOLE release",
                        "Exit status"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  }
}

}  // namespace cli_aggregate_test
}  // namespace
}  // namespace exactdp
