// statistical_discrete_gaussian_test.cc — chi-square goodness of fit of sample_discrete_gaussian
// against the certified pmf (verification/reference_law.h: MPFR bounds, not doubles).
//
// Check: Pearson chi-square over bins of expected count >= max(5, n^0.6/2) with pooled tails
// (verification/goodness_of_fit.h), p-value Q(df/2, X2/2) from mpfr_gamma_inc; it REJECTS when the
// certified upper end of the p-value is below alpha = 1e-6 per parameter set. Seeds are fixed, so
// every run is the same; over random seeds a correct sampler would fail one parameter set with
// probability about 1e-6 each (asymptotic chi-square law).
// Companion tests: the same check rejects three deliberately broken samplers (rounded continuous
// Gaussian, wrong t, Alg. 1 parity flipped for K >= 3; tests/support/broken_samplers.h).
#include <gtest/gtest.h>

#include <exactdp/core/decimal.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/broken_samplers.h"
#include "tests/support/seeds.h"
#include "tests/support/test_names.h"

namespace exactdp {
namespace {
namespace statistical_discrete_gaussian_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using namespace test_support;

const mpq_class kAlpha(1, 1'000'000);

struct GaussianCase {
  const char* sigma2;
  const char* mean;
  unsigned long long n;
};

class DiscreteGaussianChiSquare : public ::testing::TestWithParam<GaussianCase> {};

TEST_P(DiscreteGaussianChiSquare, MatchesCertifiedPmf) {
  const GaussianCase c = GetParam();
  const mpq_class s2(c.sigma2);
  const mpz_class mean(c.mean);
  const auto params = DiscreteGaussianParams::make(s2, mean);
  const verification::DiscreteGaussianLaw law(s2, mean);
  const auto t = chi_square_check(law, [&](BitSource& b) { return sample_discrete_gaussian(b, params); }, c.n,
                                  fixed_seed(21, static_cast<std::uint32_t>(c.n % 1000)));
  ASSERT_TRUE(t.applicable) << t.detail;
  EXPECT_FALSE(rejects(t, kAlpha)) << "sigma2 = " << c.sigma2 << ": X2 in [" << exactdp::decimal_lower(t.statistic.lower(), 6) << ", "
                                   << exactdp::decimal_upper(t.statistic.upper(), 6) << "], " << t.detail << ", p <= "
                                   << exactdp::decimal_upper(t.p_value.upper(), 6) << " < alpha = 1e-6";
}

INSTANTIATE_TEST_SUITE_P(
    ParameterSets, DiscreteGaussianChiSquare,
    ::testing::Values(GaussianCase{"1/4", "0", 100'000}, GaussianCase{"1", "0", 100'001},
                      GaussianCase{"9/4", "0", 100'002}, GaussianCase{"100", "0", 200'003},
                      GaussianCase{"1/3", "-7", 50'004}, GaussianCase{"1000000", "0", 100'005},
                      GaussianCase{"1000000000000", "12345678901234567890", 50'006},
                      GaussianCase{"1/10", "0", 100'007}),
    [](const ::testing::TestParamInfo<GaussianCase>& param_info) {
      return "sigma2_" + test_support::test_name_part(param_info.param.sigma2) + "_mean_" +
             test_support::test_name_part(param_info.param.mean);
    });

// The CKS20 route itself (sample_discrete_gaussian_cks20: what sample_discrete_gaussian runs where
// neither the table nor the bucket sampler serves sigma2): the same check, alpha = 1e-6 per
// parameter set, fixed seeds. The parameter sets above reach it only for sigma2 = 10^12 through
// the bucket sampler, so without this a wrong acceptance denominator on this route was caught by
// its known answers alone.
TEST(DiscreteGaussianCks20ChiSquare, MatchesCertifiedPmf) {
  std::uint32_t index = 900;
  for (const char* sigma2 : {"9/4", "100"}) {
    const mpq_class s2(sigma2);
    const auto params = DiscreteGaussianParams::make(s2);
    const verification::DiscreteGaussianLaw law(s2, 0);
    const auto t = chi_square_check(law, [&](BitSource& b) { return sample_discrete_gaussian_cks20(b, params); },
                                    100'000, fixed_seed(21, ++index));
    ASSERT_TRUE(t.applicable) << t.detail;
    EXPECT_FALSE(rejects(t, kAlpha)) << "sigma2 = " << sigma2 << ": " << t.detail << ", p <= "
                                     << exactdp::decimal_upper(t.p_value.upper(), 6) << " < alpha = 1e-6";
  }
}

// Companions: the same check fails on broken samplers.
TEST(DiscreteGaussianChiSquareCompanion, RejectsRoundedContinuousGaussian) {
  const verification::DiscreteGaussianLaw law(mpq_class(1), 0);
  const auto t = chi_square_check(law, [](BitSource& b) { return rounded_gaussian(b, 1.0); }, 100'000, fixed_seed(22, 1));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

TEST(DiscreteGaussianChiSquareCompanion, RejectsWrongT) {
  const verification::DiscreteGaussianLaw law(mpq_class(100), 0);
  const BrokenCks20 broken(BrokenCks20::Bug::kMismatchedT);
  const auto t = chi_square_check(law, [&](BitSource& b) { return broken.discrete_gaussian(b, 100, 1); }, 200'000,
                                  fixed_seed(22, 2));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

TEST(DiscreteGaussianChiSquareCompanion, RejectsParityFlippedInAlg1) {
  const verification::DiscreteGaussianLaw law(mpq_class(9, 4), 0);
  const BrokenCks20 broken(BrokenCks20::Bug::kParityFlipK3);
  const auto t = chi_square_check(law, [&](BitSource& b) { return broken.discrete_gaussian(b, 9, 4); }, 20'000,
                                  fixed_seed(22, 3));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

TEST(DiscreteGaussianChiSquareCompanion, CorrectReimplementationPasses) {
  // The broken samplers' shared code with no bug switched on passes: the rejections above come
  // from the bugs, not from the re-implementation.
  const verification::DiscreteGaussianLaw law(mpq_class(9, 4), 0);
  const BrokenCks20 correct(BrokenCks20::Bug::kNone);
  const auto t = chi_square_check(law, [&](BitSource& b) { return correct.discrete_gaussian(b, 9, 4); }, 100'000,
                                  fixed_seed(22, 4));
  EXPECT_FALSE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

}  // namespace statistical_discrete_gaussian_test
}  // namespace
}  // namespace exactdp
