// statistical_hardened_test.cc — chi-square goodness of fit of the hardened samplers against the
// exact discrete Gaussian / Laplace pmf (verification/reference_law.h), 10^6 samples each.
//
// The hardened law is within tau <= 2^-64 of the exact law in total variation, far below what
// 10^6 samples can see, so the exact pmf is the reference. Check, seeds and budget as in
// statistical_discrete_gaussian_test.cc: reject when the certified upper end of the p-value is
// below alpha = 1e-6 per parameter set (false alarm about 1e-6 each over random seeds; seeds are
// fixed, so every run is the same).
// Companions: the same check rejects hardened tables with a classic bug: the weight of 0 not
// halved before the fair sign (T_0 halved), and a table cut at 2 sigma instead of the tail bound;
// and, past 10^12 (sigma2 = 2^64, 15 convolution levels), a plan whose top level draws from the
// fine table instead of its own (variance v_L replaced by s).
#include <gtest/gtest.h>

#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/core/rational.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace statistical_hardened_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using namespace test_support;

const mpq_class kAlpha(1, 1'000'000);
constexpr unsigned long long kSamples = 1'000'000;

struct Case {
  const char* law;  // "gaussian" or "laplace"
  const char* parameter;
  const char* mean;
  unsigned tau_bits;
};

class HardenedChiSquare : public ::testing::TestWithParam<Case> {};

TEST_P(HardenedChiSquare, MatchesTheExactPmf) {
  const Case c = GetParam();
  const mpq_class value = parse_rational("parameter", c.parameter);
  const mpz_class mean(c.mean);
  const Seed seed = fixed_seed(63, static_cast<std::uint32_t>(value.get_num().get_ui() % 1000 + c.tau_bits));
  verification::TestResult t;
  if (std::string(c.law) == "gaussian") {
    const auto params = HardenedDiscreteGaussianParams::make(value, mean, {c.tau_bits});
    const verification::DiscreteGaussianLaw law(value, mean);
    t = chi_square_check(law, [&](BitSource& b) { return sample_discrete_gaussian(b, params); }, kSamples, seed);
  } else {
    const auto params = HardenedDiscreteLaplaceParams::make(value, mean, {c.tau_bits});
    const verification::DiscreteLaplaceLaw law(value, mean);
    t = chi_square_check(law, [&](BitSource& b) { return sample_discrete_laplace(b, params); }, kSamples, seed);
  }
  ASSERT_TRUE(t.applicable) << t.detail;
  EXPECT_FALSE(rejects(t, kAlpha)) << rejection_message(std::string(c.law) + " " + c.parameter, t, "1e-6");
}

INSTANTIATE_TEST_SUITE_P(
    ParameterSets, HardenedChiSquare,
    ::testing::Values(Case{"gaussian", "9/4", "0", 64}, Case{"gaussian", "100", "-5", 64},
                      Case{"gaussian", "1000", "0", 64}, Case{"gaussian", "1e12", "123456789", 64},
                      Case{"gaussian", "1/3", "0", 40}, Case{"gaussian", "250", "0", 128},
                      Case{"gaussian", "18446744073709551616", "-4611686018427387904", 64},
                      Case{"gaussian", "1267650600228229401496703205376", "0", 40},
                      Case{"laplace", "10", "0", 64}, Case{"laplace", "1/2", "0", 128},
                      Case{"laplace", "1e9", "-1000", 40}),
    [](const ::testing::TestParamInfo<Case>& param_info) {
      std::string name = std::string(param_info.param.law) + "_" + param_info.param.parameter + "_tau_bits_" +
                         std::to_string(param_info.param.tau_bits);
      for (char& ch : name) {
        if (ch == '/' || ch == '-' || ch == '.') ch = '_';
      }
      return name;
    });

// A hardened draw from a modified copy of the base table (levels = 0 at these parameters).
std::int64_t draw_with_table(BitSource& bits, const internal::HardenedGaussianPlan& plan, const std::vector<std::uint64_t>& words) {
  return internal::draw_symmetric_table<2>(bits, words.data(), words.size() / 2, plan.width.top_bits);
}

TEST(HardenedChiSquareCompanion, RejectsATopLevelDrawnFromTheFineTable) {
  const mpq_class sigma2 = power_of_two(64);
  const auto params = HardenedDiscreteGaussianParams::make(sigma2);
  internal::HardenedGaussianPlan broken = params.plan();
  ASSERT_EQ(broken.levels, 15u);
  ASSERT_NE(broken.base_sigma2, broken.fine_sigma2);
  broken.base_scan = broken.fine_scan;
  const verification::DiscreteGaussianLaw law(sigma2, 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return internal::draw_hardened_gaussian(b, broken, 0); },
                                  100'000, fixed_seed(64, 3));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
  // The unbroken plan through the same entry point passes (the companion tests the break).
  const auto ok = chi_square_check(
      law, [&](BitSource& b) { return internal::draw_hardened_gaussian(b, params.plan(), 0); }, 100'000, fixed_seed(64, 3));
  EXPECT_FALSE(rejects(ok, kAlpha)) << "p <= " << exactdp::decimal_upper(ok.p_value.upper(), 6);
}

TEST(HardenedChiSquareCompanion, RejectsZeroWeightNotHalved) {
  const auto params = HardenedDiscreteGaussianParams::make(mpq_class(9, 4));
  const internal::HardenedGaussianPlan& plan = params.plan();
  ASSERT_EQ(plan.levels, 0u);
  ASSERT_EQ(plan.width.limbs, 2u);
  std::vector<std::uint64_t> words = plan.base.words;
  // T_0 / 2: P[0] halves, the rest moves to |Z| = 1.
  words[0] = (words[0] >> 1) | (words[1] << 63);
  words[1] >>= 1;
  const verification::DiscreteGaussianLaw law(mpq_class(9, 4), 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_with_table(b, plan, words); }, 100'000,
                                  fixed_seed(64, 1));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

TEST(HardenedChiSquareCompanion, RejectsATableCutAtTwoSigma) {
  const auto params = HardenedDiscreteGaussianParams::make(100);
  const internal::HardenedGaussianPlan& plan = params.plan();
  ASSERT_EQ(plan.levels, 0u);
  const std::vector<std::uint64_t> words(plan.base.words.begin(), plan.base.words.begin() + 2 * 20);  // |Z| <= 20
  const verification::DiscreteGaussianLaw law(mpq_class(100), 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_with_table(b, plan, words); }, kSamples,
                                  fixed_seed(64, 2));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

}  // namespace statistical_hardened_test
}  // namespace
}  // namespace exactdp
