// statistical_bernoulli_exp_test.cc — sample_bernoulli_exp against P[1] = exp(-gamma) with
// certified MPFR bounds: chi-square (2 bins) and the exact binomial test, alpha = 1e-6 each, fixed
// seeds. Companion: the same checks reject Alg. 1 with its parity flipped for K >= 3.
#include <gtest/gtest.h>

#include <exactdp/core/decimal.h>
#include <exactdp/samplers/bernoulli_exp.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/broken_samplers.h"
#include "tests/support/seeds.h"
#include <exactdp/verification/p_values.h>
#include "tests/support/test_names.h"

namespace exactdp {
namespace {
namespace statistical_bernoulli_exp_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using namespace test_support;

const mpq_class kAlpha(1, 1'000'000);

class BernoulliExpChiSquare : public ::testing::TestWithParam<const char*> {};

TEST_P(BernoulliExpChiSquare, MatchesExpMinusGamma) {
  const mpq_class gamma(GetParam());
  const auto params = BernoulliExpParams::make(gamma);
  const verification::BernoulliExpLaw law(gamma);
  const unsigned long long n = 100'000;
  const auto t = chi_square_check(law, [&](BitSource& b) { return std::int64_t{sample_bernoulli_exp(b, params)}; }, n,
                                  fixed_seed(41, static_cast<std::uint32_t>(gamma.get_num().get_ui())));
  ASSERT_TRUE(t.applicable) << t.detail;
  EXPECT_FALSE(rejects(t, kAlpha)) << "gamma = " << GetParam() << ", p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
  // exact binomial test on the count of ones, independent stream
  SeededBits bits(fixed_seed(42, static_cast<std::uint32_t>(gamma.get_den().get_ui())));
  unsigned long long ones = 0;
  for (unsigned long long i = 0; i < n; ++i) ones += sample_bernoulli_exp(bits, params) ? 1 : 0;
  const auto p = verification::binomial_two_sided(n, ones, law.p_one());
  EXPECT_GE(mpfr_cmp_d(p.upper(), 1e-6), 0) << "ones = " << ones;
}

INSTANTIATE_TEST_SUITE_P(Gammas, BernoulliExpChiSquare,
                         ::testing::Values("1/2", "1", "3", "10/3", "7/100"),
                         [](const ::testing::TestParamInfo<const char*>& param_info) {
                           return "gamma_" + test_support::test_name_part(param_info.param);
                         });

TEST(BernoulliExpChiSquareCompanion, RejectsParityFlippedInAlg1) {
  // gamma = 9/10: P[K >= 3] = 1 - ... is large, so the flip moves P[1] visibly.
  const verification::BernoulliExpLaw law(mpq_class(9, 10));
  const BrokenCks20 broken(BrokenCks20::Bug::kParityFlipK3);
  const auto t = chi_square_check(law, [&](BitSource& b) { return std::int64_t{broken.bernoulli_exp(b, 9, 10)}; },
                                  20'000, fixed_seed(43, 1));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

}  // namespace statistical_bernoulli_exp_test
}  // namespace
}  // namespace exactdp
