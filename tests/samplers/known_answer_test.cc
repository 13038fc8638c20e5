// Known-answer tests: under a fixed seed (bytes 0, 1, ..., 31) the samplers' outputs AND the
// number of bits they consumed are pinned. A change to any algorithm, to the bit-stream
// order or to the ChaCha20 keying shows up here; a deliberate change must update these values
// and say why (it changes every seeded audit ever published).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "samplers/bernoulli_exp.h"
#include "samplers/discrete_gaussian.h"
#include "samplers/discrete_laplace.h"
#include "samplers/rational.h"
#include "samplers/seeded_bits.h"

namespace exactdp {
namespace {

Seed counting_seed() {
  Seed s{};
  for (int i = 0; i < 32; ++i) s[i] = static_cast<unsigned char>(i);
  return s;
}

std::vector<std::string> gaussian(const char* sigma2, std::uint64_t& bits_used) {
  SeededBits bits(counting_seed());
  const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", sigma2));
  std::vector<std::string> out;
  for (int i = 0; i < 8; ++i) out.push_back(sample_discrete_gaussian(bits, params).get_str());
  bits_used = bits.bits_consumed();
  return out;
}

std::vector<std::string> laplace(const char* scale, std::uint64_t& bits_used) {
  SeededBits bits(counting_seed());
  const auto params = DiscreteLaplaceParams::make(parse_rational("scale", scale));
  std::vector<std::string> out;
  for (int i = 0; i < 8; ++i) out.push_back(sample_discrete_laplace(bits, params).get_str());
  bits_used = bits.bits_consumed();
  return out;
}

std::string bernoulli_exp(const char* gamma, std::uint64_t& bits_used) {
  SeededBits bits(counting_seed());
  const auto params = BernoulliExpParams::make(parse_rational("gamma", gamma));
  std::string out;
  for (int i = 0; i < 16; ++i) out += sample_bernoulli_exp(bits, params) ? '1' : '0';
  bits_used = bits.bits_consumed();
  return out;
}

using V = std::vector<std::string>;

TEST(KnownAnswer, DiscreteGaussian) {
  std::uint64_t used = 0;
  EXPECT_EQ(gaussian("9/4", used), (V{"3", "1", "0", "-2", "1", "2", "-1", "0"}));
  EXPECT_EQ(used, 397u);
  EXPECT_EQ(gaussian("100", used), (V{"-3", "-1", "-6", "-6", "-15", "5", "-8", "11"}));
  EXPECT_EQ(used, 526u);
  EXPECT_EQ(gaussian("1e100", used),
            (V{"42375468944031219764833380929791475756615967979486",
               "115385285316446296690806610324665347520942002360481",
               "189643928559126902208801116352330040742967554561862",
               "126024701717088048689046973061318419652741129999496",
               "39100695664239600220688052692105348192539373244493",
               "-191491783111383117169760356355809362580027548212266",
               "-214058916078281210755203814499829982958749191751785",
               "79246553236717384372616858439719233869114055514944"}));
  EXPECT_EQ(used, 23256u);
}

TEST(KnownAnswer, DiscreteLaplace) {
  std::uint64_t used = 0;
  EXPECT_EQ(laplace("3/2", used), (V{"-2", "0", "3", "0", "0", "1", "5", "0"}));
  EXPECT_EQ(used, 134u);
  EXPECT_EQ(laplace("10", used), (V{"-3", "-4", "-1", "-3", "10", "27", "-3", "7"}));
  EXPECT_EQ(used, 171u);
}

TEST(KnownAnswer, BernoulliExp) {
  std::uint64_t used = 0;
  EXPECT_EQ(bernoulli_exp("1/2", used), "0110111111001001");
  EXPECT_EQ(used, 28u);
  EXPECT_EQ(bernoulli_exp("7/3", used), "0000000010000000");
  EXPECT_EQ(used, 42u);
}

}  // namespace
}  // namespace exactdp
