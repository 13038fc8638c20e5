// hardened_known_answer_test.cc — the first draws of the hardened samplers for a fixed seed, so
// that any change of their values (tables, bit order, scan) is seen. The values at sigma2 = 100
// and 10^12 are those of the word-by-word scan of earlier versions (the vectorised scan reads the
// same bits and returns the same values: hardened_scan_test.cc); the rows past 10^12 pin the
// extended range (2^64: 15 convolution levels, 2^100: 24; Laplace scale 2^50: 57 digits).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <exactdp/core/rational.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace hardened_known_answer_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr int kDraws = 6;

template <class Params, class Draw>
std::vector<std::int64_t> first_draws(const Params& params, Draw draw, std::uint32_t index) {
  SeededBits bits(test_support::fixed_seed(72, index));
  std::vector<std::int64_t> out;
  for (int i = 0; i < kDraws; ++i) out.push_back(draw(bits, params));
  return out;
}

std::string as_text(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::int64_t x : v) s += std::to_string(x) + ", ";
  return s;
}

struct Case {
  const char* parameter;
  unsigned tau_bits;
  std::vector<std::int64_t> expected;
};

TEST(HardenedKnownAnswer, DiscreteGaussian) {
  const Case cases[] = {
      {"100", 64, {1, -5, -4, -4, -9, 10}},
      {"100", 128, {2, 1, -15, 9, -17, 3}},
      {"1000000000000", 64, {-1064543, 444090, -808338, 587468, 514480, 149232}},
      {"18446744073709551616", 64, {588139381, 886252893, -2605163994, -1918453240, -1786839532, 1371867462}},
      {"1267650600228229401496703205376", 40,
       {-1184759804948937, 253950937595152, 195679134545540, 36859600885925, -1502377685266751, -517523518248571}},
  };
  std::uint32_t index = 0;
  for (const Case& c : cases) {
    const auto params = HardenedDiscreteGaussianParams::make(parse_rational("sigma2", c.parameter), 0, {c.tau_bits});
    const auto got = first_draws(params, [](BitSource& b, const auto& p) { return sample_discrete_gaussian(b, p); }, ++index);
    EXPECT_EQ(got, c.expected) << "sigma2 = " << c.parameter << " tau_bits = " << c.tau_bits << ": {" << as_text(got) << "}";
  }
}

TEST(HardenedKnownAnswer, DiscreteLaplace) {
  const Case cases[] = {
      {"10", 64, {-8, 3, 8, 3, -6, -22}},
      {"1125899906842624", 64,
       {-5761038250716762, 944328509336400, -1080652946509710, -1746713848604746, -291896423086018, -2382845404165404}},
  };
  std::uint32_t index = 100;
  for (const Case& c : cases) {
    const auto params = HardenedDiscreteLaplaceParams::make(parse_rational("scale", c.parameter), 0, {c.tau_bits});
    const auto got = first_draws(params, [](BitSource& b, const auto& p) { return sample_discrete_laplace(b, p); }, ++index);
    EXPECT_EQ(got, c.expected) << "scale = " << c.parameter << " tau_bits = " << c.tau_bits << ": {" << as_text(got) << "}";
  }
}

}  // namespace hardened_known_answer_test
}  // namespace
}  // namespace exactdp
