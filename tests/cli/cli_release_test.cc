// cli_release_test.cc — `exactdp release` end to end (in process): byte-for-byte preservation of
// everything not noised, big integers, reproducibility with a seed, the guarantee on stderr and
// in --json, and the all-or-nothing contract: every bad input exits 2 with the line number and
// nothing on stdout; a write error (/dev/full) exits 1 with a message.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <exactdp/mechanisms/release/csv_reader.h>
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include "tests/mechanisms/release_test_support.h"

namespace exactdp {
namespace {
namespace cli_release_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using namespace test_support;

const std::string kSeed(64, 'a');

const std::string kTable =
    "\xEF\xBB\xBFregion,age_band,count,\"sum, visits\",note\r\n"
    "North,18-29,1204,3811,\r\n"
    "\"East, coastal\",30-44,\"955\",2931,\"two\r\nlines, \"\"quoted\"\"\"\r\n"
    "South,65+,-7,123456789012345678901234567890123456789,x";

std::vector<std::string> release_args(std::vector<std::string> extra) {
  std::vector<std::string> a = {"release", "--mechanism", "discrete-gaussian", "--epsilon", "1",
                                "--delta", "1e-6", "--seed", kSeed};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::vector<mechanisms::CsvRecord> parse(const std::string& text, bool* bom = nullptr) {
  StringReader in(text);
  mechanisms::CsvReader reader(in);
  std::vector<mechanisms::CsvRecord> out;
  mechanisms::CsvRecord r;
  while (reader.next(r)) out.push_back(r);
  if (bom) *bom = reader.has_bom();
  return out;
}

TEST(CliRelease, KeepsEveryByteExceptTheNoisedCells) {
  const auto r = run_cli(release_args({"--column", "count", "--column", "sum, visits"}), kTable);
  ASSERT_EQ(r.status, 0) << r.err;
  bool bom = false;
  const auto in = parse(kTable);
  const auto out = parse(r.out, &bom);
  EXPECT_TRUE(bom);
  ASSERT_EQ(in.size(), out.size());
  for (std::size_t row = 0; row < in.size(); ++row) {
    ASSERT_EQ(in[row].fields.size(), out[row].fields.size());
    EXPECT_EQ(in[row].terminator, out[row].terminator);
    for (std::size_t f = 0; f < in[row].fields.size(); ++f) {
      const bool noised = row > 0 && (f == 2 || f == 3);
      if (!noised) {
        EXPECT_EQ(in[row].raw_field(f), out[row].raw_field(f)) << row << "," << f;
      } else {
        EXPECT_EQ(in[row].fields[f].quoted, out[row].fields[f].quoted);
        // The noise is small next to sigma2 ~ 36: |noise| < 100 (a 16-sigma event otherwise).
        const mpz_class diff = mpz_class(out[row].value(f)) - mpz_class(in[row].value(f));
        EXPECT_LT(abs(diff), 100) << out[row].value(f);
      }
    }
  }
  EXPECT_NE(r.err.find("route"), std::string::npos);
  EXPECT_NE(r.err.find("product-profile"), std::string::npos);  // two columns, K = 1
  EXPECT_NE(r.err.find("SEEDED"), std::string::npos);
}

TEST(CliRelease, SeededRunsAreReproducible) {
  const auto a = run_cli(release_args({"--column", "count"}), kTable);
  const auto b = run_cli(release_args({"--column", "count"}), kTable);
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, kTable);
}

TEST(CliRelease, GuaranteeJsonIsWithinTheBudget) {
  const std::string path = ::testing::TempDir() + "release_guarantee.json";
  const auto r = run_cli({"release", "--mechanism", "discrete-laplace", "--epsilon", "0.5",
                          "--column", "count", "--column", "sum, visits", "--contributions", "2",
                          "--json", path, "--seed", kSeed},
                         kTable);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string json = read_text_file(path);
  EXPECT_EQ(json_string_field(json, "route"), "pure-dp-l1");
  EXPECT_EQ(json_string_field(json, "scale"), "8");  // C K Delta / eps = 2 * 2 / 0.5
  const auto eps = json_interval_field(json, "epsilon");
  EXPECT_LE(eps.second, mpq_class(1, 2));
  EXPECT_EQ(json_string_field(json, "rho_zcdp"), "0.125");
  std::remove(path.c_str());
}

TEST(CliRelease, JsonStaysValidWithAColumnNameThatIsNotUtf8) {
  const std::string path = ::testing::TempDir() + "release_latin1.json";
  const auto r = run_cli({"release", "--mechanism", "discrete-laplace", "--epsilon", "1",
                          "--column", "caf\xE9", "--json", path, "--seed", kSeed},
                         "region,caf\xE9\nNorth,5\n");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string json = read_text_file(path);
  EXPECT_NE(json.find("\"column\": \"caf\\u00e9\""), std::string::npos) << json;
  EXPECT_EQ(json.find('\xE9'), std::string::npos);  // the raw byte would be invalid JSON
  std::remove(path.c_str());
}

TEST(CliRelease, HardenedChargesDelta) {
  const auto r = run_cli(release_args({"--column", "count", "--hardened"}), kTable);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("hardened charge"), std::string::npos) << r.err;
  const auto bad = run_cli({"release", "--mechanism", "discrete-laplace", "--epsilon", "1",
                            "--column", "count", "--hardened"}, kTable);
  expect_rejected_naming(bad, "delta");
}

TEST(CliRelease, HeaderOnlyTableIsReleasedAsIs) {
  const auto r = run_cli(release_args({"--column", "a"}), "a,b\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "a,b\n");
}

TEST(CliRelease, BadInputExitsTwoWithTheLineAndWritesNothing) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "line 1: the input is empty"},
      {"\xEF\xBB\xBF", "line 1: the input is empty"},
      {"a,b\n1,2\n", "line 1: no column named 'count'"},
      {"count,b\n1,2\n3\n", "line 3: a ragged row of 1 fields"},
      {"count,b\n1,2\n3,4,5\n", "line 3: a ragged row of 3 fields"},
      {"count,b\n1,2\n\n", "line 3: an empty line"},
      {"count,b\n1,\"2\n3,4\n", "opened on line 2"},
      {"count,b\n1,2\n1.5,4\n", "line 3: column 'count': '1.5' is not an integer"},
      {"count,b\n1,2\n,4\n", "line 3: column 'count': '' is not an integer"},
      {"count,b\n1,2\n 3,4\n", "line 3: column 'count': ' 3' is not an integer"},
      {"count,b\n\"12\"x,2\n", "line 2: unexpected character after a closing quote"},
      {"count,b\n1,2\n" + std::string(10001, '9') + ",4\n", "line 3: column 'count': a number of 10001 digits"},
      {"count,count\n1,2\n", "line 1: column 'count' appears more than once"},
      {"count,b\n1,2\r3,4\n", "line 2: a carriage return"},
  };
  for (const auto& [text, needle] : cases) {
    const auto r = run_cli(release_args({"--column", "count"}), text);
    expect_rejected_naming(r, needle);
  }
}

TEST(CliRelease, InputOverTheSizeLimitExitsTwo) {
  const auto r = run_cli(release_args({"--column", "value", "--max-input-bytes", "100"}),
                         constant_table(50, "1"));
  expect_rejected_naming(r, "longer than the limit of 100 bytes");
  const auto ok = run_cli(release_args({"--column", "value", "--max-input-bytes", "1000"}),
                          constant_table(50, "1"));
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(CliRelease, BadOptionsExitTwo) {
  expect_rejected_naming(run_cli({"release", "--mechanism", "gauss", "--epsilon", "1", "--column", "a"}, "a\n1\n"),
                         "mechanism");
  // a registry law without a release route: refused by name, never another law
  expect_rejected_naming(run_cli({"release", "--mechanism", "gaussian", "--epsilon", "1", "--column", "a"}, "a\n1\n"),
                         "law gaussian has no release route");
  expect_rejected_naming(run_cli({"release", "--mechanism", "discrete-gaussian", "--epsilon", "1", "--column", "a"}, "a\n1\n"),
                         "delta");
  expect_rejected_naming(run_cli(release_args({}), "a\n1\n"), "--column");
  expect_rejected_naming(run_cli(release_args({"--column", "a", "--column", "a"}), "a\n1\n"), "named twice");
  expect_rejected_naming(run_cli(release_args({"--column", "a", "--contributions", "0"}), "a\n1\n"), "contributions");
  expect_rejected_naming(run_cli(release_args({"--column", "a", "--sensitivity", "1.5"}), "a\n1\n"), "sensitivity");
  expect_rejected_naming(run_cli(release_args({"--column", "a", "--epsilon", "2"}), "a\n1\n"), "epsilon");
}

TEST(CliRelease, WriteErrorOnAFullDiskExitsOneWithAMessage) {
  std::ofstream full("/dev/full");
  if (!full.is_open()) GTEST_SKIP() << "no /dev/full";
  std::istringstream in(constant_table(2000, "5"));
  std::ostringstream err;
  cli::Io io{in, full, err, false};
  const int status = cli::run_exactdp(release_args({"--column", "value"}), io);
  EXPECT_EQ(status, 1);
  EXPECT_NE(err.str().find("error writing the output"), std::string::npos) << err.str();
}

TEST(CliRelease, HelpDescribesTheContract) {
  const auto r = run_cli({"release", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("Contribution model"), std::string::npos);
  EXPECT_NE(r.out.find("All or nothing"), std::string::npos);
}

}  // namespace cli_release_test
}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {
namespace cli_release_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using namespace test_support;

TEST(CliReleaseDecimal, NoisesOnTheGridAndPrintsExactDecimals) {
  const std::string input = "item,price\n\"a, b\",12.30\nc,\"-0.05\"\nd,7\n";
  const auto r = run_cli({"release", "--mechanism", "discrete-laplace", "--epsilon", "1",
                          "--column", "price", "--granularity", "0.01", "--sensitivity", "0.5",
                          "--seed", std::string(64, 'b')},
                         input);
  ASSERT_EQ(r.status, 0) << r.err;
  StringReader in(r.out);
  mechanisms::CsvReader reader(in);
  mechanisms::CsvRecord rec;
  ASSERT_TRUE(reader.next(rec));
  int rows = 0;
  while (reader.next(rec)) {
    const std::string v = rec.value(1);
    ASSERT_GE(v.size(), 4u);
    EXPECT_EQ(v[v.size() - 3], '.') << v;  // exactly two decimals
    ++rows;
  }
  EXPECT_EQ(rows, 3);
  EXPECT_NE(r.out.find("\"a, b\","), std::string::npos);
  EXPECT_NE(r.err.find("scale = 50"), std::string::npos) << r.err;  // ceil(0.5 / 0.01) / eps
  EXPECT_NE(r.err.find("G = 0.01"), std::string::npos);
}

TEST(CliReleaseDecimal, OffGridValuesAreRefusedUnlessRounded) {
  const std::string input = "x\n1.234\n";
  std::vector<std::string> args = {"release", "--mechanism", "discrete-laplace", "--epsilon", "1",
                                   "--column", "x", "--granularity", "2^-2"};
  expect_rejected_naming(run_cli(args, input), "line 2: column 'x': 1.234 is not a multiple of the granularity 0.25");
  args.insert(args.end(), {"--round", "nearest", "--seed", std::string(64, 'c')});
  const auto r = run_cli(args, input);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find('.'), std::string::npos);
  expect_rejected_naming(run_cli({"release", "--mechanism", "discrete-laplace", "--epsilon", "1", "--column", "x",
                                  "--granularity", "1/3"}, input), "granularity");
  expect_rejected_naming(run_cli({"release", "--mechanism", "discrete-laplace", "--epsilon", "1", "--column", "x",
                                  "--round", "nearest"}, input), "--round needs --granularity");
}

}  // namespace cli_release_test
}  // namespace
}  // namespace exactdp
