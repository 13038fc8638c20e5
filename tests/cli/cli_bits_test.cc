// cli_bits_test.cc — `exactdp bits`: exactly n raw bytes, binary-safe; with --seed the bytes are
// the keyed ChaCha20 BitSource stream (reproducible); bad -n exits 2 naming the parameter.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/commands.h"
#include "tests/cli/cli_runner.h"
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::cli {
namespace {
namespace cli_bits_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

const std::string kSeed = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

using test_support::CliRun;
CliRun run(const std::vector<std::string>& args) { return test_support::run_cli(args); }

TEST(CliBits, SeededBytesAreTheBitSourceStream) {
  const CliRun r = run({"bits", "-n", "100003", "--seed", kSeed});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.out.size(), 100003u);
  SeededBits bits(parse_seed_hex("seed", kSeed));
  for (std::size_t i = 0; i < r.out.size(); ++i) {
    ASSERT_EQ(static_cast<unsigned char>(r.out[i]), bits.bits(8)) << "byte " << i;
  }
  EXPECT_EQ(run({"bits", "-n", "100003", "--seed", kSeed}).out, r.out);
}

TEST(CliBits, SystemBytesDiffer) {
  const CliRun a = run({"bits", "-n", "64"}), b = run({"bits", "-n", "64"});
  ASSERT_EQ(a.status, 0);
  ASSERT_EQ(a.out.size(), 64u);
  EXPECT_NE(a.out, b.out);
  EXPECT_EQ(run({"bits", "-n", "0"}).out.size(), 0u);
}

TEST(CliBits, BadUsageExits2) {
  EXPECT_EQ(run({"bits"}).status, 2);
  const CliRun big = run({"bits", "-n", "1000000000001"});
  EXPECT_EQ(big.status, 2);
  EXPECT_NE(big.err.find("n"), std::string::npos);
  EXPECT_TRUE(big.out.empty());
  EXPECT_EQ(run({"bits", "-n", "-1"}).status, 2);
  EXPECT_EQ(run({"bits", "-n", "10", "--seed", "xyz"}).status, 2);
  EXPECT_EQ(run({"bits", "-n", "10", "extra"}).status, 2);
  EXPECT_EQ(run({"bits", "--help"}).status, 0);
}

}  // namespace cli_bits_test
}  // namespace
}  // namespace exactdp::cli
