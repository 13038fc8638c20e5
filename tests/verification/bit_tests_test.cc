// bit_tests_test.cc — the bit-source checks (monobit, runs, byte chi-square; Holm at alpha =
// 1e-6) pass the system CSPRNG and the keyed ChaCha20 stream, and fail two broken sources.
// False alarms: <= ~1e-6 per battery (asymptotic p-values); the seeded runs are deterministic;
// the SystemBits run is random, with false-alarm probability <= ~1e-6 per run.
#include <gtest/gtest.h>

#include <exactdp/core/decimal.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>
#include "tests/support/broken_bits.h"
#include "tests/support/seeds.h"
#include <exactdp/verification/bit_tests.h>

namespace exactdp {
namespace {
using namespace test_support;

const mpq_class kAlpha(1, 1'000'000);
constexpr unsigned long long kWords = 1 << 15;  // 2 Mbit per test

bool any_rejected(const std::vector<verification::TestResult>& tests) {
  for (const auto& t : tests) {
    if (t.rejected) return true;
  }
  return false;
}

std::string describe(const std::vector<verification::TestResult>& tests) {
  std::string out;
  for (const auto& t : tests) out += t.name + " p <= " + exactdp::decimal_upper(t.p_value.upper(), 6) + (t.rejected ? " REJECTED\n" : "\n");
  return out;
}

TEST(BitTests, SeededStreamPasses) {
  for (std::uint32_t i = 0; i < 3; ++i) {
    SeededBits bits(fixed_seed(61, i));
    const auto r = verification::bit_battery(bits, kWords, kAlpha);
    EXPECT_FALSE(any_rejected(r)) << describe(r);
  }
}

TEST(BitTests, SystemCsprngPasses) {
  SystemBits bits;
  const auto r = verification::bit_battery(bits, kWords, kAlpha);
  EXPECT_FALSE(any_rejected(r)) << describe(r);
}

TEST(BitTests, BiasedSourceFails) {
  BiasedBits bits(fixed_seed(62, 0));
  const auto r = verification::bit_battery(bits, kWords, kAlpha);
  EXPECT_TRUE(any_rejected(r)) << describe(r);
  EXPECT_TRUE(r[0].rejected) << describe(r);  // monobit sees the bias
}

TEST(BitTests, PatternedSourceFails) {
  PatternBits bits(fixed_seed(62, 1));
  const auto r = verification::bit_battery(bits, kWords, kAlpha);
  EXPECT_TRUE(r[2].rejected) << describe(r);  // byte chi-square sees the 0x55 excess
}

}  // namespace
}  // namespace exactdp
