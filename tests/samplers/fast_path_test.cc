// The 128-bit fast path and the GMP path are one algorithm: for the same seed they must return
// the same values AND consume the same number of bits, over random parameters and seeds.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp {
namespace {

Seed seed_from(std::uint64_t v) {
  Seed s{};
  for (int i = 0; i < 8; ++i) s[i] = static_cast<unsigned char>(v >> (8 * i));
  return s;
}

// A positive rational with numerator and denominator drawn from a range of sizes, so both tiny
// and near-limit fast-path parameters occur.
mpq_class positive_rational(std::uint64_t num, std::uint64_t den, int num_shift, int den_shift) {
  mpq_class q(mpz_class(static_cast<unsigned long>((num >> num_shift) | 1)),
              mpz_class(static_cast<unsigned long>((den >> den_shift) | 1)));
  q.canonicalize();
  return q;
}

RC_GTEST_PROP(FastPath, DiscreteGaussianMatchesGmpPath, (std::uint64_t num, std::uint64_t den, std::uint64_t seed)) {
  const int ns = *rc::gen::inRange(20, 64);
  const int ds = *rc::gen::inRange(40, 64);
  const auto params = DiscreteGaussianParams::make(positive_rational(num, den, ns, ds), *rc::gen::inRange(-5, 6));
  RC_CLASSIFY(params.fast_path(), "fast path");
  SeededBits a(seed_from(seed)), b(seed_from(seed));
  for (int i = 0; i < 30; ++i) {
    RC_ASSERT(sample_discrete_gaussian(a, params) == sample_discrete_gaussian_gmp(b, params));
    RC_ASSERT(a.bits_consumed() == b.bits_consumed());
  }
}

// CKS20 alone (the table sampler serves small sigma2 in the property above).
RC_GTEST_PROP(FastPath, DiscreteGaussianCks20MatchesGmpPath, (std::uint64_t num, std::uint64_t den, std::uint64_t seed)) {
  const int ns = *rc::gen::inRange(20, 64);
  const int ds = *rc::gen::inRange(40, 64);
  const auto params = DiscreteGaussianParams::make(positive_rational(num, den, ns, ds), *rc::gen::inRange(-5, 6));
  SeededBits a(seed_from(seed)), b(seed_from(seed));
  for (int i = 0; i < 30; ++i) {
    RC_ASSERT(sample_discrete_gaussian_cks20(a, params) == sample_discrete_gaussian_cks20_gmp(b, params));
    RC_ASSERT(a.bits_consumed() == b.bits_consumed());
  }
}

RC_GTEST_PROP(FastPath, DiscreteLaplaceMatchesGmpPath, (std::uint64_t num, std::uint64_t den, std::uint64_t seed)) {
  const int ns = *rc::gen::inRange(0, 64);
  const int ds = *rc::gen::inRange(30, 64);
  const auto params = DiscreteLaplaceParams::make(positive_rational(num, den, ns, ds));
  RC_CLASSIFY(params.fast_path(), "fast path");
  SeededBits a(seed_from(seed)), b(seed_from(seed));
  for (int i = 0; i < 30; ++i) {
    RC_ASSERT(sample_discrete_laplace(a, params) == sample_discrete_laplace_gmp(b, params));
    RC_ASSERT(a.bits_consumed() == b.bits_consumed());
  }
}

RC_GTEST_PROP(FastPath, BernoulliExpMatchesGmpPath, (std::uint64_t num, std::uint64_t den, std::uint64_t seed)) {
  const int ns = *rc::gen::inRange(0, 64);
  const int ds = *rc::gen::inRange(0, 64);
  const auto params = BernoulliExpParams::make(positive_rational(num, den, ns, ds));
  RC_CLASSIFY(params.fast_path(), "fast path");
  SeededBits a(seed_from(seed)), b(seed_from(seed));
  for (int i = 0; i < 30; ++i) {
    RC_ASSERT(sample_bernoulli_exp(a, params) == sample_bernoulli_exp_gmp(b, params));
    RC_ASSERT(a.bits_consumed() == b.bits_consumed());
  }
}

RC_GTEST_PROP(FastPath, DiscreteLaplaceCks20MatchesGmpPath, (std::uint64_t num, std::uint64_t den, std::uint64_t seed)) {
  const int ns = *rc::gen::inRange(20, 64);
  const int ds = *rc::gen::inRange(40, 64);
  const auto params = DiscreteLaplaceParams::make(positive_rational(num, den, ns, ds));
  SeededBits a(seed_from(seed)), b(seed_from(seed));
  for (int i = 0; i < 30; ++i) {
    RC_ASSERT(sample_discrete_laplace_cks20(a, params) == sample_discrete_laplace_cks20_gmp(b, params));
    RC_ASSERT(a.bits_consumed() == b.bits_consumed());
  }
}

TEST(FastPath, ChosenForTheBenchmarkedParameters) {
  EXPECT_TRUE(DiscreteGaussianParams::make(100).fast_path());
  EXPECT_TRUE(DiscreteGaussianParams::make(mpq_class(1, 4)).fast_path());
  EXPECT_TRUE(DiscreteGaussianParams::make(mpz_class("1000000000000")).fast_path());
  EXPECT_FALSE(DiscreteGaussianParams::make(mpz_class("1" + std::string(100, '0'))).fast_path());
  EXPECT_TRUE(DiscreteLaplaceParams::make(1000000).fast_path());
}

// Large sigma2 on the fast path (2 p q t^2 near 2^107) and int64 output agree with GMP.
TEST(FastPath, NearLimitParametersAndInt64OutputAgree) {
  const auto params = DiscreteGaussianParams::make(mpz_class("10000000000000000"));  // 1e16
  ASSERT_TRUE(params.fast_path());
  SeededBits a(Seed{}), b(Seed{});
  for (int i = 0; i < 500; ++i) {
    const auto fast = sample_discrete_gaussian_int64(a, params);
    ASSERT_TRUE(fast.has_value());
    EXPECT_EQ(mpz_class(static_cast<long>(*fast)), sample_discrete_gaussian_gmp(b, params));
  }
  EXPECT_EQ(a.bits_consumed(), b.bits_consumed());
}

}  // namespace
}  // namespace exactdp
