// Parameter validation (before any randomness) and the edge cases (zero, tiny and huge parameters).
#include <gtest/gtest.h>

#include <exactdp/samplers/bernoulli.h>
#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp {
namespace {

mpq_class r(const char* text) { return parse_rational("test", text); }

template <class F>
void expect_parameter_error(F&& f, const std::string& parameter, const std::string& allowed) {
  try {
    f();
    ADD_FAILURE() << "no error for " << parameter;
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), parameter);
    EXPECT_NE(std::string(e.what()).find(allowed), std::string::npos) << e.what();
  }
}

TEST(SamplerValidation, RejectsOutOfRangeParametersNamingThem) {
  expect_parameter_error([] { (void)DiscreteGaussianParams::make(r("0")); }, "sigma2", "sigma2 > 0");
  expect_parameter_error([] { (void)DiscreteGaussianParams::make(r("-1/2")); }, "sigma2", "sigma2 > 0");
  expect_parameter_error([] { (void)DiscreteLaplaceParams::make(r("0")); }, "scale", "scale > 0");
  expect_parameter_error([] { (void)BernoulliExpParams::make(r("-1e-9")); }, "gamma", "gamma >= 0");
  expect_parameter_error([] { (void)BernoulliParams::make(r("3/2")); }, "p", "0 <= p <= 1");
  expect_parameter_error([] { (void)BernoulliParams::make(r("-1")); }, "p", "0 <= p <= 1");
}

TEST(SamplerEdgeCases, GammaZeroIsAlwaysOneAndDrawsNoBits) {
  SeededBits bits(Seed{});
  const auto params = BernoulliExpParams::make(0);
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(sample_bernoulli_exp(bits, params));
  EXPECT_EQ(bits.bits_consumed(), 0u);
}

TEST(SamplerEdgeCases, BernoulliEndpointsDrawNoBits) {
  SeededBits bits(Seed{});
  for (int i = 0; i < 50; ++i) {
    EXPECT_FALSE(sample_bernoulli(bits, BernoulliParams::make(0)));
    EXPECT_TRUE(sample_bernoulli(bits, BernoulliParams::make(1)));
  }
  EXPECT_EQ(bits.bits_consumed(), 0u);
}

TEST(SamplerEdgeCases, LargeGammaIsAlmostNeverOneAndStaysFast) {
  // P[1] = exp(-10^6), and exp(-10^12): never observed; each draw stops at the first failed
  // Bernoulli(exp(-1)) trial, so this takes microseconds, not 10^12 iterations.
  SeededBits bits(Seed{});
  for (const char* g : {"1000000", "1e12", "1000000/3"}) {
    const auto params = BernoulliExpParams::make(r(g));
    for (int i = 0; i < 1000; ++i) EXPECT_FALSE(sample_bernoulli_exp(bits, params)) << g;
  }
}

TEST(SamplerEdgeCases, TinyGammaWithHugeDenominatorIsAlmostAlwaysOne) {
  // gamma = 1/10^100: P[0] = 1 - exp(-1e-100) < 1e-100.
  SeededBits bits(Seed{});
  const auto params = BernoulliExpParams::make(r("1e-100"));
  EXPECT_FALSE(params.fast_path());
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(sample_bernoulli_exp(bits, params));
}

TEST(SamplerEdgeCases, IntegerGammaWorks) {
  // gamma = 2: P[1] = e^-2 = 0.1353...; 20000 draws: sd 0.0024, bounds at +- 0.02 (> 8 sd;
  // false alarm < 1e-15).
  SeededBits bits(Seed{});
  const auto params = BernoulliExpParams::make(2);
  int ones = 0;
  for (int i = 0; i < 20000; ++i) ones += sample_bernoulli_exp(bits, params) ? 1 : 0;
  EXPECT_GT(ones, 20000 * 0.1153);
  EXPECT_LT(ones, 20000 * 0.1553);
}

TEST(SamplerEdgeCases, HugeSigma2GivesSamplesOfMagnitudeAroundSigma) {
  // sigma2 = 10^100, sigma = 10^50. P[|X| < 10^48] < 0.016 per draw, so all 20 below has
  // probability < 1e-35; P[|X| > 10^52] = P[|Z| > 100 sigma] < e^-5000.
  SeededBits bits(Seed{});
  const auto params = DiscreteGaussianParams::make(r("1e100"));
  EXPECT_FALSE(params.fast_path());
  const mpz_class big("1" + std::string(52, '0')), small("1" + std::string(48, '0'));
  int large_count = 0;
  for (int i = 0; i < 20; ++i) {
    const mpz_class x = sample_discrete_gaussian(bits, params);
    EXPECT_LT(abs(x), big);
    if (abs(x) > small) ++large_count;
  }
  EXPECT_GT(large_count, 0);
}

TEST(SamplerEdgeCases, TinySigma2IsAlmostAlwaysZero) {
  // sigma2 = 10^-6: P[X != 0] ~ 2 exp(-500000).
  SeededBits bits(Seed{});
  const auto params = DiscreteGaussianParams::make(r("1e-6"));
  for (int i = 0; i < 2000; ++i) EXPECT_EQ(sample_discrete_gaussian(bits, params), 0);
}

TEST(SamplerEdgeCases, HugeDenominatorsAreExactAndFinish) {
  SeededBits bits(Seed{});
  // sigma2 = (7 * 10^63 + 1) / (3 * 10^61 + 7), about 2333, with 200-bit numerator and denominator.
  const auto g = DiscreteGaussianParams::make(
      parse_rational("sigma2", "7" + std::string(62, '0') + "1/3" + std::string(60, '0') + "7"));
  EXPECT_FALSE(g.fast_path());
  const auto l = DiscreteLaplaceParams::make(r("12345678901234567890123456789/98765432109876543210987"));
  for (int i = 0; i < 200; ++i) {
    (void)sample_discrete_gaussian(bits, g);
    (void)sample_discrete_laplace(bits, l);
  }
  EXPECT_FALSE(l.fast_path());
}

TEST(SamplerEdgeCases, TIsTheExactIntegerSquareRootPlusOne) {
  EXPECT_EQ(DiscreteGaussianParams::make(r("100")).t(), 11);
  EXPECT_EQ(DiscreteGaussianParams::make(r("99.99")).t(), 10);  // floor(99.99) = 99, isqrt = 9
  EXPECT_EQ(DiscreteGaussianParams::make(r("1/4")).t(), 1);
  EXPECT_EQ(DiscreteGaussianParams::make(r("1e100")).t(), mpz_class("1" + std::string(50, '0')) + 1);
}

TEST(SamplerEdgeCases, MeanShiftOfAnySizeIsExact) {
  // Same seed: the shifted sampler returns exactly mean + the unshifted draw.
  const mpz_class mean("-123456789012345678901234567890");
  const auto shifted = DiscreteGaussianParams::make(r("9/4"), mean);
  const auto plain = DiscreteGaussianParams::make(r("9/4"));
  SeededBits a(Seed{}), b(Seed{});
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(sample_discrete_gaussian(a, shifted), sample_discrete_gaussian(b, plain) + mean);
  }
  const auto shifted_l = DiscreteLaplaceParams::make(r("3/2"), mean);
  const auto plain_l = DiscreteLaplaceParams::make(r("3/2"));
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(sample_discrete_laplace(a, shifted_l), sample_discrete_laplace(b, plain_l) + mean);
  }
  // int64 output reports values that do not fit.
  EXPECT_FALSE(sample_discrete_gaussian_int64(a, shifted).has_value());
}

}  // namespace
}  // namespace exactdp
