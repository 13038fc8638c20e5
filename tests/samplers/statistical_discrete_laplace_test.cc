// statistical_discrete_laplace_test.cc — chi-square goodness of fit of sample_discrete_laplace
// against the certified pmf (closed form with MPFR bounds). Same check, alpha = 1e-6 per
// parameter set and fixed seeds as statistical_discrete_gaussian_test.cc; companions show it
// rejects the Laplace without the (B = 1, Y = 0) rejection and rounded continuous Laplace noise.
#include <gtest/gtest.h>

#include <exactdp/core/decimal.h>
#include <exactdp/samplers/discrete_laplace.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/broken_samplers.h"
#include "tests/support/seeds.h"
#include "tests/support/test_names.h"

namespace exactdp {
namespace {
namespace statistical_discrete_laplace_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using namespace test_support;

const mpq_class kAlpha(1, 1'000'000);

struct LaplaceCase {
  const char* scale;
  const char* mean;
  unsigned long long n;
};

class DiscreteLaplaceChiSquare : public ::testing::TestWithParam<LaplaceCase> {};

TEST_P(DiscreteLaplaceChiSquare, MatchesCertifiedPmf) {
  const LaplaceCase c = GetParam();
  const mpq_class scale(c.scale);
  const mpz_class mean(c.mean);
  const auto params = DiscreteLaplaceParams::make(scale, mean);
  const verification::DiscreteLaplaceLaw law(scale, mean);
  const auto t = chi_square_check(law, [&](BitSource& b) { return sample_discrete_laplace(b, params); }, c.n,
                                  fixed_seed(31, static_cast<std::uint32_t>(c.n % 1000)));
  ASSERT_TRUE(t.applicable) << t.detail;
  EXPECT_FALSE(rejects(t, kAlpha)) << "scale = " << c.scale << ": " << t.detail << ", p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

INSTANTIATE_TEST_SUITE_P(ParameterSets, DiscreteLaplaceChiSquare,
                         ::testing::Values(LaplaceCase{"1", "0", 100'000}, LaplaceCase{"3/2", "0", 100'001},
                                           LaplaceCase{"10", "0", 100'002}, LaplaceCase{"2/7", "3", 50'003},
                                           LaplaceCase{"1000000", "-1", 50'004}),
                         [](const ::testing::TestParamInfo<LaplaceCase>& param_info) {
                           return "scale_" + test_support::test_name_part(param_info.param.scale) + "_mean_" +
                                  test_support::test_name_part(param_info.param.mean);
                         });

// The CKS20 route itself (sample_discrete_laplace_cks20: what sample_discrete_laplace runs for
// scale > 50, where the (B = 1, Y = 0) rejection's effect is too small to see) at small scales:
// the same check, alpha = 1e-6 per parameter set, fixed seeds.
TEST(DiscreteLaplaceCks20ChiSquare, MatchesCertifiedPmf) {
  std::uint32_t index = 900;
  for (const char* scale : {"1", "7/2"}) {
    const mpq_class s(scale);
    const auto params = DiscreteLaplaceParams::make(s);
    const verification::DiscreteLaplaceLaw law(s, 0);
    const auto t = chi_square_check(law, [&](BitSource& b) { return sample_discrete_laplace_cks20(b, params); },
                                    100'000, fixed_seed(31, ++index));
    ASSERT_TRUE(t.applicable) << t.detail;
    EXPECT_FALSE(rejects(t, kAlpha)) << "scale = " << scale << ": " << t.detail << ", p <= "
                                     << exactdp::decimal_upper(t.p_value.upper(), 6);
  }
}

TEST(DiscreteLaplaceChiSquareCompanion, RejectsMissingZeroRejection) {
  const verification::DiscreteLaplaceLaw law(mpq_class(3, 2), 0);
  const BrokenCks20 broken(BrokenCks20::Bug::kNoZeroRejection);
  const auto t = chi_square_check(law, [&](BitSource& b) { return broken.discrete_laplace(b, 3, 2); }, 20'000,
                                  fixed_seed(32, 1));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

TEST(DiscreteLaplaceChiSquareCompanion, RejectsRoundedContinuousLaplace) {
  const verification::DiscreteLaplaceLaw law(mpq_class(1), 0);
  const auto t = chi_square_check(law, [](BitSource& b) { return rounded_laplace(b, 1.0); }, 20'000, fixed_seed(32, 2));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

TEST(DiscreteLaplaceChiSquareCompanion, RejectsModuloBiasedUniform) {
  const verification::DiscreteLaplaceLaw law(mpq_class(10), 0);
  const BrokenCks20 broken(BrokenCks20::Bug::kModuloUniform);
  const auto t = chi_square_check(law, [&](BitSource& b) { return broken.discrete_laplace(b, 10, 1); }, 100'000,
                                  fixed_seed(32, 3));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

}  // namespace statistical_discrete_laplace_test
}  // namespace
}  // namespace exactdp
