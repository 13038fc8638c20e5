// bucket_gaussian_test.cc — the bucketed envelope sampler of the discrete Gaussian for large
// sigma2 (samplers/internal/bucket_gaussian.h).
//
// Chi-square: the same check as symmetric_table_test.cc (Pearson over bins of expected count >=
// max(5, n^0.6/2), certified p-value, REJECT when p < alpha = 1e-6; fixed seeds; a correct
// sampler fails one parameter set with probability about 1e-6), at default settings and with the
// test knobs that make each exact step carry real weight: wide buckets (W ~ sigma/3: the
// acceptance step rejects often), few buckets (the tail slot holds most of the mass), coarse
// inversion bounds (the exact Ziv refinement decides many draws).
// Power: the same check rejects three deliberately broken variants (no acceptance step with wide
// buckets; the acceptance's quick test without its gamma^2/2 term; coarse bounds with the
// refinement off).
// Paths: the 64-bit, 128-bit and GMP implementations and the batch call read the same bits and
// return the same values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/internal/bucket_gaussian.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>
#include <exactdp/samplers/internal/sampler_terms.h>
#include <exactdp/samplers/internal/signed_result.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/samplers/signed_draw.h"
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace bucket_gaussian_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using namespace test_support;
using internal::BucketGaussian;
using internal::BucketGaussianOptions;

const mpq_class kAlpha(1, 1'000'000);

BucketGaussianOptions options(int width_bits, long buckets, unsigned bound_bits = 64) {
  BucketGaussianOptions o;
  o.width_bits = width_bits;
  o.buckets = buckets;
  o.bound_bits = bound_bits;
  return o;
}

struct BucketCase {
  const char* name;
  const char* sigma2;
  BucketGaussianOptions options;
  unsigned long long n;
};

class BucketGaussianChiSquare : public ::testing::TestWithParam<BucketCase> {};

TEST_P(BucketGaussianChiSquare, MatchesCertifiedPmf) {
  const BucketCase c = GetParam();
  const mpq_class s2(c.sigma2);
  const auto sampler = BucketGaussian::build(s2, c.options);
  ASSERT_NE(sampler, nullptr);
  const verification::DiscreteGaussianLaw law(s2, 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_value(*sampler, b); }, c.n,
                                  fixed_seed(161, static_cast<std::uint32_t>(c.n % 1000)));
  ASSERT_TRUE(t.applicable) << t.detail;
  EXPECT_FALSE(rejects(t, kAlpha)) << rejection_message(c.name, t, "1e-6");
}

// The same cases through draw_fast (every case is narrow: its 64-bit rounds), other seeds.
TEST_P(BucketGaussianChiSquare, MatchesCertifiedPmfOnTheMachinePath) {
  const BucketCase c = GetParam();
  const mpq_class s2(c.sigma2);
  const auto sampler = BucketGaussian::build(s2, c.options);
  ASSERT_NE(sampler, nullptr);
  ASSERT_TRUE(sampler->narrow()) << c.name;
  const verification::DiscreteGaussianLaw law(s2, 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_machine(*sampler, b); }, c.n,
                                  fixed_seed(164, static_cast<std::uint32_t>(c.n % 1000)));
  ASSERT_TRUE(t.applicable) << t.detail;
  EXPECT_FALSE(rejects(t, kAlpha)) << rejection_message(c.name, t, "1e-6");
}

INSTANTIATE_TEST_SUITE_P(
    Buckets, BucketGaussianChiSquare,
    ::testing::Values(
        BucketCase{"sigma2_10001_default", "10001", {}, 100'001},
        BucketCase{"sigma2_250000_default", "250000", {}, 100'002},
        BucketCase{"sigma2_40000_3_wide_buckets", "40000/3", options(6, -1), 100'003},
        BucketCase{"sigma2_20000_two_buckets_tail", "20000", options(5, 2), 100'004},
        BucketCase{"sigma2_123456_7_bounds_16_bits", "1234567/10", options(-1, -1, 16), 100'005}),
    [](const ::testing::TestParamInfo<BucketCase>& param_info) { return std::string(param_info.param.name); });

TEST(BucketGaussianChiSquareCompanion, RejectsMissingAcceptanceStep) {
  BucketGaussianOptions broken = options(6, -1);
  broken.accept = false;
  const mpq_class s2(40000, 3);
  const auto sampler = BucketGaussian::build(s2, broken);
  const verification::DiscreteGaussianLaw law(s2, 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_value(*sampler, b); }, 100'000,
                                  fixed_seed(162, 1));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

// The same power on the 64-bit rounds.
TEST(BucketGaussianChiSquareCompanion, RejectsMissingAcceptanceStepOnTheMachinePath) {
  BucketGaussianOptions broken = options(6, -1);
  broken.accept = false;
  const mpq_class s2(40000, 3);
  const auto sampler = BucketGaussian::build(s2, broken);
  ASSERT_TRUE(sampler->narrow());
  const verification::DiscreteGaussianLaw law(s2, 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_machine(*sampler, b); }, 100'000,
                                  fixed_seed(162, 3));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

// The acceptance's quick test without S_2's gamma^2 / 2 (bucket_acceptance.h): rejected on the
// 64-bit rounds with wide buckets (gamma up to ~1 in the first buckets).
TEST(BucketGaussianChiSquareCompanion, RejectsQuickTestWithoutTheSquareTerm) {
  BucketGaussianOptions broken = options(6, -1);
  broken.exp_square = false;
  const mpq_class s2(40000, 3);
  const auto sampler = BucketGaussian::build(s2, broken);
  ASSERT_TRUE(sampler->narrow());
  const verification::DiscreteGaussianLaw law(s2, 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_machine(*sampler, b); }, 100'000,
                                  fixed_seed(162, 4));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

TEST(BucketGaussianChiSquareCompanion, RejectsCoarseBoundsWithoutRefinement) {
  BucketGaussianOptions broken = options(-1, -1, 6);
  broken.refine = false;
  const mpq_class s2(20000);
  const auto sampler = BucketGaussian::build(s2, broken);
  const verification::DiscreteGaussianLaw law(s2, 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_value(*sampler, b); }, 100'000,
                                  fixed_seed(162, 2));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

// The implementations (64-bit rounds where narrow(), 128-bit, GMP): same values, same number
// of bits, draw after draw. 1e30 has (BW)^2 q >= 2^64: the 128-bit rounds.
TEST(BucketGaussian, FastAndGmpPathsAgree) {
  EXPECT_TRUE(BucketGaussian::build(mpq_class(mpz_class(1) << 40))->narrow());
  EXPECT_TRUE(BucketGaussian::build(parse_rational("sigma2", "123456789/7"))->narrow());
  EXPECT_FALSE(BucketGaussian::build(parse_rational("sigma2", "1e30"))->narrow());
  struct Case {
    const char* sigma2;
    BucketGaussianOptions options;
  };
  const Case cases[] = {{"10001", {}},          {"1000000", {}},           {"1000000000000", {}},
                        {"1099511627776", {}},  {"1e17", {}},              {"2e17", {}},
                        {"123456789/7", {}},    {"1e30", {}},              {"20000", options(5, 2)},
                        {"40000/3", options(6, -1)}, {"1000000", options(-1, -1, 16)}};
  for (const Case& c : cases) {
    const auto sampler = BucketGaussian::build(parse_rational("sigma2", c.sigma2), c.options);
    ASSERT_NE(sampler, nullptr) << c.sigma2;
    ASSERT_TRUE(sampler->fast()) << c.sigma2;
    SeededBits a(fixed_seed(163, 1)), b(fixed_seed(163, 1));
    for (int i = 0; i < 3000; ++i) {
      bool na = false, nb = false;
      const uint128 fast = sampler->draw_fast(a, na);
      mpz_class slow;
      sampler->draw_gmp(b, slow, nb);
      ASSERT_EQ(internal::to_mpz(fast), slow) << c.sigma2 << " draw " << i;
      ASSERT_EQ(na, nb) << c.sigma2 << " draw " << i;
      ASSERT_EQ(a.bits_consumed(), b.bits_consumed()) << c.sigma2 << " draw " << i;
    }
    // draw_batch (its 64-bit loop where narrow() with the default knobs, else the rounds above):
    // the same draws and bits as draw_fast, in batches of 1 .. 257 draws.
    SeededBits batched(fixed_seed(163, 2)), single(fixed_seed(163, 2));
    std::vector<std::int64_t> batch(257);
    constexpr std::size_t kSizes[] = {1, 2, 37, 255, 256, 257, 100};
    for (std::size_t step = 0, done = 0, size = 1; done < 3000; done += size, size = kSizes[++step % 7]) {
      uint128 wide = 0;
      bool wide_negative = false;
      ASSERT_EQ(sampler->draw_batch(batched, batch.data(), size, wide, wide_negative), size) << c.sigma2;
      for (std::size_t j = 0; j < size; ++j) {
        bool negative = false;
        const auto magnitude = static_cast<std::int64_t>(sampler->draw_fast(single, negative));
        ASSERT_EQ(batch[j], negative ? -magnitude : magnitude) << c.sigma2 << " draw " << done + j;
      }
      ASSERT_EQ(batched.bits_consumed(), single.bits_consumed()) << c.sigma2 << " after " << done + size;
    }
  }
}

// Dispatch: the public sampler uses the table up to 10^4, the buckets above, CKS20 beyond the
// size limit; the public GMP entry point agrees with the default one.
TEST(BucketGaussian, UsedAboveTheTableRange) {
  EXPECT_NE(DiscreteGaussianParams::make(10000).terms().table, nullptr);
  EXPECT_EQ(DiscreteGaussianParams::make(10000).terms().bucket, nullptr);
  EXPECT_NE(DiscreteGaussianParams::make(10001).terms().bucket, nullptr);
  const DiscreteGaussianParams big = DiscreteGaussianParams::make(mpq_class(mpz_class(1) << 330));
  ASSERT_NE(big.terms().bucket, nullptr);
  EXPECT_FALSE(big.terms().bucket->fast());
  const mpq_class huge(mpz_class(1) << 5000);
  EXPECT_EQ(DiscreteGaussianParams::make(huge).terms().bucket, nullptr);
  for (const char* s : {"1000000000000", "1e100"}) {
    const DiscreteGaussianParams params = DiscreteGaussianParams::make(parse_rational("sigma2", s));
    SeededBits a(fixed_seed(163, 2)), b(fixed_seed(163, 2));
    for (int i = 0; i < 500; ++i) {
      ASSERT_EQ(sample_discrete_gaussian(a, params), sample_discrete_gaussian_gmp(b, params)) << s << " " << i;
    }
  }
}

// At sigma2 = 10^100 the values have the right scale: |Z| < 10 sigma in 2,000 draws (a false
// alarm needs P[|Z| >= 10 sigma] ~ 1.5e-23 per draw) and not all below sigma / 100 (false
// alarm (0.008)^2000).
TEST(BucketGaussian, HugeSigmaScale) {
  const DiscreteGaussianParams params = DiscreteGaussianParams::make(parse_rational("sigma2", "1e100"));
  const mpz_class sigma("100000000000000000000000000000000000000000000000000");  // 10^50
  SeededBits bits(fixed_seed(163, 3));
  int above = 0;
  for (int i = 0; i < 2000; ++i) {
    const mpz_class z = sample_discrete_gaussian(bits, params);
    ASSERT_LT(abs(z), 10 * sigma);
    if (abs(z) > sigma / 100) ++above;
  }
  EXPECT_GT(above, 0);
}

}  // namespace bucket_gaussian_test
}  // namespace
}  // namespace exactdp
