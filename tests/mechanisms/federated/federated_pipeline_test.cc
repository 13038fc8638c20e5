// federated_pipeline_test.cc — the federated client/server pipeline (mechanisms/federated/):
//   * lossless: an update whose lattice vector is a multiple of 2^h and inside the ball rotates to
//     integers, so with the noise left out decode(sum of encodings) is the sum of the inputs
//     EXACTLY (many seeded random cases, several clients);
//   * the rounding path (any input): the decoded lattice vector's squared norm is <= norm_bound
//     (an exact rational check on the output doubles) and every coordinate is within sqrt(D) g of
//     the clipped input; a clipped input's decoded norm is <= sqrt(norm_bound) g;
//   * end to end with noise: n clients, the decoded mean against the clipped mean, the error's
//     mean square within the stated per-coordinate variance (sigma2 / n + rounding);
//   * refusals (before anything is written): NaN / inf naming the index, sizes, residues.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/federated/client_encode.h>
#include <exactdp/mechanisms/federated/federated_plan.h>
#include <exactdp/mechanisms/federated/server_decode.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using namespace mechanisms;

constexpr std::uint32_t kSuite = 0xfede;

FederatedSpec spec_of(std::size_t d, const char* clip, long k, unsigned bits, std::uint64_t clients) {
  FederatedSpec s;
  s.dimension = d;
  s.clip = mpq_class(clip);
  s.granularity_exponent = k;
  s.bits = bits;
  s.clients = clients;
  s.noise_value = mpq_class(1, 100);
  s.rotation_seed = test_support::fixed_seed(kSuite, 99);
  return s;
}

mpq_class exact(double v) { return mpq_class(v); }  // doubles are dyadic: exact

// Encodes every update (noise off or on), sums them modulo 2^bits and decodes.
std::vector<double> round_trip(const FederatedPlan& plan, const std::vector<std::vector<double>>& updates, bool noise,
                               std::uint32_t seed_index) {
  std::vector<std::uint64_t> sum(plan.padded_dimension(), 0);
  std::vector<std::uint64_t> one(plan.padded_dimension());
  SeededBits bits(test_support::fixed_seed(kSuite, seed_index));
  for (const auto& x : updates) {
    (void)encode_client<double>(plan, x, one, bits, noise);
    add_modular(plan, sum, one);
  }
  std::vector<double> out(plan.dimension());
  decode_server<double>(plan, sum, out);
  return out;
}

TEST(FederatedPipeline, LosslessLatticeDecodesExactlyWithoutNoise) {
  std::mt19937_64 rng(7);
  for (std::size_t d : {1U, 2U, 3U, 5U, 16U, 17U, 100U, 300U}) {
    const FederatedPlan plan = FederatedPlan::make(spec_of(d, "1000", 4, 40, 5));
    const long step_log2 = static_cast<long>(plan.half_log2()) - 4;  // g 2^h = 2^(h - k)
    std::vector<std::vector<double>> updates(5, std::vector<double>(d));
    std::vector<mpq_class> total(d, 0);
    for (auto& x : updates) {
      for (std::size_t i = 0; i < d; ++i) {
        const auto m = static_cast<long>(rng() % 9) - 4;  // |x| <= 4 * 2^(h-4) * sqrt(d) <= 1000
        x[i] = static_cast<double>(m) * std::ldexp(1.0, static_cast<int>(step_log2));
        total[i] += exact(x[i]);
      }
    }
    const std::vector<double> out = round_trip(plan, updates, false, static_cast<std::uint32_t>(d));
    for (std::size_t i = 0; i < d; ++i) ASSERT_EQ(exact(out[i]), total[i]) << "d = " << d << " i = " << i;
  }
}

TEST(FederatedPipeline, RoundingPathKeepsTheNormBoundAndTheCoordinateError) {
  std::mt19937_64 rng(11);
  for (std::size_t d : {3U, 50U, 257U}) {
    const FederatedPlan plan = FederatedPlan::make(spec_of(d, "3/2", 6, 40, 1));
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> x(d);
      for (double& v : x) v = static_cast<double>(static_cast<std::int64_t>(rng() % 2001) - 1000) / 997.0;
      const std::vector<double> out = round_trip(plan, {x}, false, 1000U + static_cast<std::uint32_t>(trial));
      mpq_class norm2 = 0;
      mpq_class input2 = 0;
      for (std::size_t i = 0; i < d; ++i) {
        const mpq_class lattice = exact(out[i]) * power_of_two(6);
        norm2 += lattice * lattice;
        input2 += exact(x[i]) * exact(x[i]);
      }
      ASSERT_LE(norm2, mpq_class(plan.norm_bound())) << "d = " << d << " trial " << trial;
      if (input2 <= mpq_class(9, 4) * mpq_class(99, 100)) {  // inside the ball (with the lattice's rounding)
        const mpq_class reach = mpq_class(plan.padded_dimension()) / (1 << 12);  // (sqrt(D) g)^2, g = 2^-6
        for (std::size_t i = 0; i < d; ++i) {
          const mpq_class e = exact(out[i]) - exact(x[i]);
          ASSERT_LE(e * e, reach) << "d = " << d << " i = " << i;
        }
      }
    }
  }
}

// Every rotated coordinate of 0.5 e_0 (lattice 8 e_0, D = 256, h = 4) is +-1/2: each rounds up
// or down with probability 1/2, ||x~||^2 is about Binomial(256, 1/2) against norm_bound = 147, so
// about 1 % of first attempts fail. The norm check must redraw them: no accepted vector is over.
TEST(FederatedPipeline, NormCheckRedrawsUntilTheBoundHolds) {
  FederatedSpec s = spec_of(256, "1/2", 4, 40, 1);
  const FederatedPlan plan = FederatedPlan::make(s);
  ASSERT_EQ(plan.norm_bound(), 147);
  std::vector<double> x(256, 0.0);
  x[0] = 0.5;
  std::vector<std::uint64_t> one(plan.padded_dimension());
  SeededBits bits(test_support::fixed_seed(kSuite, 8));
  unsigned redrawn = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const EncodeReport r = encode_client<double>(plan, x, one, bits, false);
    redrawn += r.attempts > 1 ? 1 : 0;
    std::vector<double> out(256);
    decode_server<double>(plan, one, out);
    mpq_class norm2 = 0;
    for (std::uint64_t w : one) {  // the workspace: H x~ (signs aside), = 16 times the decoded vector
      const mpq_class v(mpz_class(static_cast<long>(static_cast<std::int64_t>(w))), 16);
      norm2 += v * v;
    }
    ASSERT_LE(norm2, 147) << "trial " << trial;
  }
  EXPECT_GT(redrawn, 0U);
}

TEST(FederatedPipeline, ClippingBringsALargeUpdateInsideTheBall) {
  const FederatedPlan plan = FederatedPlan::make(spec_of(40, "1", 10, 40, 1));
  std::vector<double> x(40, 1e300);  // lattice index past 2^62: the wide path
  x[3] = -5.0;
  std::vector<std::uint64_t> one(plan.padded_dimension());
  SeededBits bits(test_support::fixed_seed(kSuite, 5));
  const EncodeReport r = encode_client<double>(plan, x, one, bits, false);
  EXPECT_TRUE(r.clipped);
  std::vector<double> out(40);
  decode_server<double>(plan, one, out);
  mpq_class norm2 = 0;
  for (double v : out) norm2 += exact(v) * exact(v);
  EXPECT_LE(norm2 * (1 << 20), mpq_class(plan.norm_bound()));
  EXPECT_GT(norm2, mpq_class(81, 100));  // clipped to about c = 1, not to 0
}

class FederatedEndToEnd : public ::testing::TestWithParam<const char*> {};

// Both share laws at per-client variance 1/4: sigma2 = 1/4, or Skellam mu = 1/8 (variance 2 mu).
TEST_P(FederatedEndToEnd, SeededMeanIsWithinTheStatedNoise) {
  const std::size_t d = 64;
  const std::uint64_t n = 30;
  FederatedSpec s = spec_of(d, "4", 8, 40, n);
  s.noise = GetParam();
  s.noise_value = s.noise == kClientSkellam ? mpq_class(1, 8) : mpq_class(1, 4);
  const FederatedPlan plan = FederatedPlan::make(s);
  std::mt19937_64 rng(3);
  std::vector<std::vector<double>> updates(n, std::vector<double>(d));
  std::vector<mpq_class> total(d, 0);
  for (auto& x : updates) {
    for (std::size_t i = 0; i < d; ++i) {
      x[i] = static_cast<double>(static_cast<std::int64_t>(rng() % 101) - 50) / 200.0;  // ||x|| <= 2 < 4
      total[i] += exact(x[i]);
    }
  }
  const std::vector<double> out = round_trip(plan, updates, true, 77);
  mpq_class squared = 0;
  for (std::size_t i = 0; i < d; ++i) {
    const mpq_class e = (exact(out[i]) - total[i]) / n;
    squared += e * e;
  }
  // Per coordinate of the mean: variance (n sigma2 + n D g^2 / 4) / n^2 <= 0.0084 + 2^-17; the
  // mean over 64 coordinates of e^2 is below 3x that except with negligible probability, and
  // above 1/3 of it (a pipeline that drops the noise or doubles it fails). False alarm, taking
  // 64 e^2 / variance as chi-square with 64 degrees of freedom (the errors as independent normals,
  // variance between 1/(4 n) and 0.0084 + 2^-17): P[chi2_64 < 64/3] <= 1.1e-7 and
  // P[chi2_64 > 192 (1/(4 n)) / (0.0084 + 2^-17)] < 2e-14, so about 1e-7 per case (the seeds are fixed).
  const mpq_class variance = mpq_class(1, 4) / n;
  EXPECT_LT(squared / d, 3 * variance);
  EXPECT_GT(squared / d, variance / 3);
}

INSTANTIATE_TEST_SUITE_P(Shares, FederatedEndToEnd, ::testing::Values(kClientGaussian, kClientSkellam),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           return std::string(p.param) == kClientSkellam ? "Skellam" : "DiscreteGaussian";
                         });

TEST(FederatedPipeline, NonFiniteInputIsRefusedNamingItsIndexAndNothingIsWritten) {
  const FederatedPlan plan = FederatedPlan::make(spec_of(10, "1", 4, 32, 1));
  std::vector<double> x(10, 0.5);
  x[7] = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::uint64_t> out(plan.padded_dimension(), 12345);
  SeededBits bits(test_support::fixed_seed(kSuite, 6));
  try {
    (void)encode_client<double>(plan, x, out, bits);
    FAIL() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "x");
    EXPECT_EQ(std::string(e.what()), "x[7] is NaN; allowed: finite values");
  }
  x[7] = -std::numeric_limits<double>::infinity();
  EXPECT_THROW((void)encode_client<double>(plan, x, out, bits), ParameterError);
  for (std::uint64_t w : out) EXPECT_EQ(w, 12345U);
  EXPECT_EQ(bits.bits_consumed(), 0U);
  std::vector<float> xf(10, 0.5F);
  xf[2] = std::numeric_limits<float>::infinity();
  try {
    (void)encode_client<float>(plan, xf, out, bits);
    FAIL() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "x[2] is inf; allowed: finite values");
  }
}

TEST(FederatedPipeline, DecodeRefusesResiduesAndSizesBeforeWriting) {
  const FederatedPlan plan = FederatedPlan::make(spec_of(10, "1", 4, 8, 1));
  std::vector<std::uint64_t> sum(plan.padded_dimension(), 3);
  sum[5] = 256;
  std::vector<double> out(10, 9.0);
  try {
    decode_server<double>(plan, sum, out);
    FAIL() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "sum");
    EXPECT_EQ(std::string(e.what()), "sum[5] = 256 is not below the modulus 2^8");
  }
  for (double v : out) EXPECT_EQ(v, 9.0);
  sum[5] = 0;
  std::vector<double> short_out(9);
  EXPECT_THROW(decode_server<double>(plan, sum, short_out), ParameterError);
  std::vector<std::uint64_t> short_sum(3);
  EXPECT_THROW(decode_server<double>(plan, short_sum, out), ParameterError);
}

}  // namespace
}  // namespace exactdp
