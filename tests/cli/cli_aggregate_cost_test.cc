// exactdp aggregate: the messages of --bounds and --group-by (a syntax error said as one, the
// digit limit counted in digits, a repeated column refused), and the up-front limit of --keys
// rows whose noisy values a tiny epsilon makes huge (refused naming epsilon, before any work).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"

namespace exactdp {
namespace {
namespace cli_aggregate_cost_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using test_support::expect_rejected_naming;
using test_support::run_cli;

const std::string kSeed = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";
const std::string kRecords = "user,region,amount\nu1,a,1\nu2,b,2\n";

std::vector<std::string> sum_args(const std::string& bounds) {
  return {"aggregate", "--privacy-unit", "user", "--group-by", "region", "--sum", "amount", "--bounds", bounds,
          "--epsilon", "1", "--delta", "1e-6", "--seed", kSeed};
}

TEST(CliAggregateCost, BoundsOfAThousandDigitsAreAllowedNotMore) {
  const std::string thousand(1000, '1');
  EXPECT_EQ(run_cli(sum_args(thousand + "," + thousand), kRecords).status, 0);
  const auto r = run_cli(sum_args("1" + thousand + ",1" + thousand), kRecords);
  expect_rejected_naming(r, "has a decimal of 1001 digits: allowed at most 1000");
  const auto fraction = run_cli(sum_args("0." + std::string(1000, '5') + ",1"), kRecords);
  expect_rejected_naming(fraction, "has a decimal of 1001 digits");
}

TEST(CliAggregateCost, BoundsThatAreNotPlainDecimalsAreASyntaxError) {
  for (const std::string bad : {".5,1", "5.,6", "1, 2", "1 ,2", "12", "1,2,3", "1e3,5", ",1"}) {
    const auto r = run_cli(sum_args(bad), kRecords);
    expect_rejected_naming(r, "is not L,U: two plain decimals");
    EXPECT_EQ(r.err.find("out of range"), std::string::npos) << bad << ": " << r.err;
  }
  expect_rejected_naming(run_cli(sum_args("2,1"), kRecords), "out of range");
}

TEST(CliAggregateCost, ARepeatedGroupByColumnIsRefused) {
  const auto r = run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "region,region", "--count",
                          "--epsilon", "1", "--delta", "1e-6", "--seed", kSeed},
                         kRecords);
  expect_rejected_naming(r, "group-by names column 'region' twice");
}

// 1000 keys at epsilon 10^-100000: every noisy value would have 100000 digits (about 9 s and
// 100 MB); refused naming epsilon before the records are read.
TEST(CliAggregateCost, KeysWithHugeNoisyValuesAreRefusedNamingEpsilon) {
  std::string keys = "region\n";
  for (int i = 0; i < 1000; ++i) keys += "k" + std::to_string(i) + "\n";
  const std::string path = ::testing::TempDir() + "aggregate_cost_keys.csv";
  std::ofstream(path, std::ios::binary) << keys;
  const auto r = run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "region", "--count", "--keys", path,
                          "--epsilon", "1e-100000", "--seed", kSeed},
                         kRecords);
  expect_rejected_naming(r, "epsilon");
  EXPECT_NE(r.err.find("limb operations"), std::string::npos) << r.err;
  // The same keys at an ordinary epsilon are released.
  const auto ok = run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "region", "--count", "--keys", path,
                           "--epsilon", "1", "--seed", kSeed},
                          kRecords);
  EXPECT_EQ(ok.status, 0) << ok.err;
}

}  // namespace cli_aggregate_cost_test
}  // namespace
}  // namespace exactdp
