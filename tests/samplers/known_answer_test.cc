// Known-answer tests: under a fixed seed (bytes 0, 1, ..., 31) the samplers' outputs AND the
// number of bits they consumed are pinned. A change to any algorithm, to the bit-stream
// order or to the ChaCha20 keying shows up here; a deliberate change must update these values
// and say why (it changes every seeded audit ever published).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp {
namespace {

Seed counting_seed() {
  Seed s{};
  for (int i = 0; i < 32; ++i) s[i] = static_cast<unsigned char>(i);
  return s;
}

// Eight draws of draw(bits) under the counting seed, as text; bits_used: the bits they consumed.
template <class Draw>
std::vector<std::string> eight_draws(Draw draw, std::uint64_t& bits_used) {
  SeededBits bits(counting_seed());
  std::vector<std::string> out;
  for (int i = 0; i < 8; ++i) out.push_back(draw(bits).get_str());
  bits_used = bits.bits_consumed();
  return out;
}

std::vector<std::string> gaussian(const char* sigma2, std::uint64_t& bits_used, bool cks20 = false) {
  const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", sigma2));
  return eight_draws(
      [&](SeededBits& b) { return cks20 ? sample_discrete_gaussian_cks20(b, params) : sample_discrete_gaussian(b, params); },
      bits_used);
}

std::vector<std::string> laplace(const char* scale, std::uint64_t& bits_used, bool cks20 = false) {
  const auto params = DiscreteLaplaceParams::make(parse_rational("scale", scale));
  return eight_draws(
      [&](SeededBits& b) { return cks20 ? sample_discrete_laplace_cks20(b, params) : sample_discrete_laplace(b, params); },
      bits_used);
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

// One pinned answer: what answer(param, bits_used) returns, and the bits it consumed.
template <class Result>
struct Known {
  const char* param;
  Result value;
  std::uint64_t bits;
};

template <class Result, class Answer>
void expect_known(Answer answer, const std::vector<Known<Result>>& pinned) {
  for (const Known<Result>& k : pinned) {
    std::uint64_t used = 0;
    EXPECT_EQ(answer(k.param, used), k.value) << k.param;
    EXPECT_EQ(used, k.bits) << k.param;
  }
}

// The integer laws' default paths and their CKS20 paths.
V gaussian_default(const char* sigma2, std::uint64_t& used) { return gaussian(sigma2, used); }
V gaussian_cks20(const char* sigma2, std::uint64_t& used) { return gaussian(sigma2, used, true); }
V laplace_default(const char* scale, std::uint64_t& used) { return laplace(scale, used); }
V laplace_cks20(const char* scale, std::uint64_t& used) { return laplace(scale, used, true); }

// Since the table and bucket samplers: sigma2 in [2^-20, 10^4] uses the exact table sampler
// (internal/symmetric_table.h), which reads other bits: its values for 9/4 and 100 below
// replaced CKS20's, which moved to DiscreteGaussianCks20. Likewise sigma2 > 10^4 uses the
// bucketed envelope sampler (internal/bucket_gaussian.h): its values for 10^100 replaced
// CKS20's, which moved to DiscreteGaussianCks20 (sample_discrete_gaussian_cks20, still compared
// with the reference). The 10^100 values changed again, deliberately, when the bucket round's
// acceptance became the lazy comparison with Taylor brackets (internal/bucket_acceptance.h):
// other bits, the same law.
TEST(KnownAnswer, DiscreteGaussian) {
  expect_known<V>(gaussian_default, {
      {"1e100", {"28195979810302555890668356624791988277140952706871", "-46126718775788006241637371292119104535231648835417",
                "4586430765932282617274914665568207329407652797150", "-16138671361517550775053316851201626950548657836369",
                "121488075493677061847198991627301604090762290101113", "57481441751209150370133255290112350132629457460819",
                "179967352991855624696400025675478119757478856104842", "-37123387666549814952565500622381210437238698109232"}, 1528},
      {"9/4", {"-1", "1", "0", "0", "-2", "1", "1", "-1"}, 96},
      {"100", {"-8", "2", "6", "-10", "10", "11", "-2", "8"}, 113},
  });
}

// The bucket sampler's 128-bit path (sigma2 = 2^40: the grid-noise default sigma / g = 2^20;
// 10^6 and 123456789/7: other widths and a denominator), and its batch: 8 single draws, then a
// digest of 20,000 batch draws (sum of (i + 1) z_i and of z_i^2, exact) with the bits consumed.
// Re-pinned, deliberately, when the bucket round's acceptance became the lazy comparison with
// Taylor brackets (internal/bucket_acceptance.h: 16 bits of R read with U and the sign, ~45 bits
// a draw instead of ~31), and again (the digests only) when the table's further bits, if its
// guide prefix leaves the slot open, came after U, R's block and the sign (one read of all four):
// other bits and values, the same law (the chi-square tests).
std::string bucket_digest(const char* sigma2, std::uint64_t& bits_used) {
  SeededBits bits(counting_seed());
  const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", sigma2));
  std::vector<std::int64_t> out(20000);
  std::vector<WideValue> wide;
  sample_n_wide(bits, params, out.data(), out.size(), wide);
  mpz_class weighted = 0, squares = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    weighted += mpz_class(static_cast<long>(out[i])) * static_cast<unsigned long>(i + 1);
    squares += mpz_class(static_cast<long>(out[i])) * static_cast<long>(out[i]);
  }
  bits_used = bits.bits_consumed();
  return weighted.get_str() + " " + squares.get_str() + " " + std::to_string(wide.size());
}

TEST(KnownAnswer, DiscreteGaussianBucketFastPath) {
  expect_known<V>(gaussian_default, {
      {"1099511627776", {"299703", "-955675", "-1603346", "131965", "-1045196", "1066130", "-2055817", "477047"}, 360},
      {"1000000", {"-290", "528", "1472", "277", "-264", "638", "1225", "-729"}, 272},
      {"123456789/7", {"-1170", "1202", "8349", "-780", "-3068", "-3545", "-1128", "1894"}, 296},
  });
  expect_known<std::string>(bucket_digest, {
      {"1099511627776", "546096761667 22228272808305132 0", 905780},
      {"123456789/7", "-708449372 350693796062 0", 745137},
  });
}

TEST(KnownAnswer, DiscreteGaussianCks20) {
  expect_known<V>(gaussian_cks20, {
      {"9/4", {"-2", "-1", "0", "1", "1", "-1", "1", "0"}, 125},
      {"100", {"-14", "13", "-9", "-17", "7", "-26", "-18", "-3"}, 179},
      {"1e100", {"42375468944031219764833380929791475756615967979486", "18063984887316904132458618545700752512943377742576",
                "54799887636419745224248136835509076288360609174227", "-21621374504718333079797770194889253632406054070288",
                "-1950070511861059642109764649711027066230945436028", "100728535956978619074365318103568070385047061404581",
                "-151311996757607601833014945629396575021996220518623", "-77675882666867205776356346299282406963640995344427"}, 3741},
  });
}

// Since the table samplers: scale in [2^-20, 50] uses the exact table sampler; CKS20's values moved to
// DiscreteLaplaceCks20 (the algorithm of every larger scale).
TEST(KnownAnswer, DiscreteLaplace) {
  expect_known<V>(laplace_default, {
      {"3/2", {"-1", "-1", "2", "-3", "0", "0", "-1", "2"}, 112},
      {"10", {"-8", "-11", "12", "-16", "1", "-36", "6", "-5"}, 128},
  });
}

TEST(KnownAnswer, DiscreteLaplaceCks20) {
  expect_known<V>(laplace_cks20, {
      {"3/2", {"-2", "0", "1", "-5", "-2", "0", "0", "0"}, 115},
      {"10", {"-13", "-6", "3", "-13", "10", "7", "12", "-21"}, 146},
  });
}

TEST(KnownAnswer, BernoulliExp) {
  expect_known<std::string>(bernoulli_exp, {
      {"1/2", "0110111111000010", 26},
      {"7/3", "0000001000000000", 52},
  });
}

}  // namespace
}  // namespace exactdp
