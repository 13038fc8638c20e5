// hardened_law_test.cc — the hardened samplers' law, computed exactly from their tables
// (probabilities are dyadic rationals; convolution steps are exact convolutions), against the
// exact law, computed independently of the sampler's builder with exactdp::Interval (its own
// normaliser and tail bounds, 320-bit precision). Checks: the certified tau_upper() contains the
// true total-variation distance (TV upper end <= tau_upper), and is not vacuous (TV >= 2^-24
// tau_upper). Companion: a table off by 2^-30 in one threshold is caught (TV > tau_upper).
#include <gtest/gtest.h>

#include <map>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/core/rational.h>
#include "tests/support/exact_gaussian_tv.h"

namespace exactdp {
namespace {

using exactdp::Interval;
using test_support::gaussian_tv;
using test_support::kTvPrecision;
using test_support::Law;
using test_support::lower_of;
using test_support::upper_of;
constexpr mpfr_prec_t kPrec = kTvPrecision;

// ---- the hardened law, exactly -------------------------------------------------------------

std::vector<mpz_class> thresholds_of(const internal::ThresholdTable& table, const internal::FixedWidth& w) {
  std::vector<mpz_class> t;
  for (std::size_t i = 0; i < table.entries; ++i) t.push_back(table.threshold(i, w.limbs));
  return t;
}

// +-|Z| with |Z| = #{i : u >= T_i}, u uniform on [0, 2^W), a fair sign.
Law symmetric_table_law(const std::vector<mpz_class>& t, unsigned width_bits) {
  const mpq_class unit(mpz_class(1), mpz_class(1) << width_bits);
  Law law;
  mpz_class prev = 0;
  for (std::size_t k = 0; k <= t.size(); ++k) {
    const mpz_class next = k < t.size() ? t[k] : mpz_class(1) << width_bits;
    const mpq_class p = mpq_class(next - prev) * unit;
    prev = next;
    if (k == 0) {
      law[0] += p;
    } else {
      law[static_cast<long>(k)] += p / 2;
      law[-static_cast<long>(k)] += p / 2;
    }
  }
  return law;
}

// Law of Z + m Y.
Law convolve(const Law& z, const Law& y, long m) {
  Law out;
  for (const auto& [zy, pz] : z) {
    for (const auto& [yv, py] : y) out[zy + m * yv] += pz * py;
  }
  return out;
}

Law hardened_gaussian_law(const internal::HardenedGaussianPlan& plan, const std::vector<mpz_class>& base_thresholds) {
  Law law = symmetric_table_law(base_thresholds, plan.width.width_bits);
  const Law fine = symmetric_table_law(thresholds_of(plan.fine, plan.width), plan.width.width_bits);
  for (unsigned j = 0; j < plan.levels; ++j) law = convolve(fine, law, plan.m);
  return law;
}

// X = S B (1 + G), digits of G independent.
Law hardened_laplace_law(const std::vector<mpz_class>& t, unsigned width_bits) {
  const mpq_class unit(mpz_class(1), mpz_class(1) << width_bits);
  const mpq_class b = mpq_class(t[0]) * unit;
  const std::size_t digits = t.size() - 1;
  Law law;
  law[0] = 1 - b;
  for (long g = 0; g < (1L << digits); ++g) {
    mpq_class p = b / 2;
    for (std::size_t i = 0; i < digits; ++i) {
      const mpq_class q = mpq_class(t[i + 1]) * unit;
      p *= ((g >> i) & 1) != 0 ? q : 1 - q;
    }
    law[g + 1] += p;
    law[-(g + 1)] += p;
  }
  return law;
}

// ---- the exact laws, independently ---------------------------------------------------------

// TV(hardened, discrete Laplace): D(x) = (1 - rho)/(1 + rho) rho^|x|, D(|x| > M) = 2 rho^(M+1)/(1 + rho).
Interval laplace_tv(const Law& law, const mpq_class& scale) {
  const Interval rho = exp(Interval(-1 / scale, kPrec));
  const Interval one(1L, kPrec);
  const Interval c = (one - rho) / (one + rho);
  const long m = law.rbegin()->first;
  Interval l1 = mul_2si(exp(Interval(mpq_class(-(m + 1)) / scale, kPrec)), 1) / (one + rho);
  for (const auto& [x, p] : law) {
    const Interval d = c * exp(Interval(mpq_class(-std::abs(x)) / scale, kPrec));
    l1 = l1 + abs(Interval(p, kPrec) - d);
  }
  return mul_2si(l1, -1);
}

void expect_certified(const Interval& tv, const mpq_class& tau_upper, const std::string& what) {
  // Recorded (--gtest_output=xml) for docs/HARDENED.md: log2 of the true distance and of the bound.
  const auto log2_of = [](const mpq_class& q) {
    return static_cast<long>(mpz_sizeinbase(q.get_num_mpz_t(), 2)) - static_cast<long>(mpz_sizeinbase(q.get_den_mpz_t(), 2));
  };
  ::testing::Test::RecordProperty("tv_log2", std::to_string(log2_of(upper_of(tv))));
  ::testing::Test::RecordProperty("tau_upper_log2", std::to_string(log2_of(tau_upper)));
  EXPECT_LE(upper_of(tv), tau_upper) << what << ": TV <= " << upper_of(tv).get_d() << " > tau_upper "
                                     << tau_upper.get_d();
  EXPECT_GE(lower_of(tv), tau_upper * power_of_two(-24)) << what << ": TV >= " << lower_of(tv).get_d()
                                                         << " is far below tau_upper " << tau_upper.get_d();
}

struct GaussianCase {
  const char* sigma2;
  unsigned tau_bits;
};

class HardenedGaussianLaw : public ::testing::TestWithParam<GaussianCase> {};

TEST_P(HardenedGaussianLaw, TauContainsTheTrueDistance) {
  const auto params = HardenedDiscreteGaussianParams::make(parse_rational("sigma2", GetParam().sigma2), 0,
                                                           {GetParam().tau_bits});
  const internal::HardenedGaussianPlan& plan = params.plan();
  const Law law = hardened_gaussian_law(plan, thresholds_of(plan.base, plan.width));
  mpq_class total = 0;
  for (const auto& [x, p] : law) total += p;
  ASSERT_EQ(total, 1);
  expect_certified(gaussian_tv(law, params.sigma2()), params.tau_upper(),
                   std::string("sigma2 = ") + GetParam().sigma2 + ", levels " + std::to_string(plan.levels));
}

// Direct tables, and one and two convolution steps (3 s = 126 at tau_bits 40, 186 at 64).
INSTANTIATE_TEST_SUITE_P(Cases, HardenedGaussianLaw,
                         ::testing::Values(GaussianCase{"1/100", 64}, GaussianCase{"1/4", 64}, GaussianCase{"9/4", 40},
                                           GaussianCase{"100", 64}, GaussianCase{"100", 128}, GaussianCase{"200", 40},
                                           GaussianCase{"400", 64}, GaussianCase{"3000", 40}),
                         [](const ::testing::TestParamInfo<GaussianCase>& param_info) {
                           std::string name = std::string("sigma2_") + param_info.param.sigma2 + "_tau_bits_" +
                                              std::to_string(param_info.param.tau_bits);
                           for (char& ch : name) if (ch == '/') ch = '_';
                           return name;
                         });

class HardenedLaplaceLaw : public ::testing::TestWithParam<const char*> {};

TEST_P(HardenedLaplaceLaw, TauContainsTheTrueDistance) {
  const auto params = HardenedDiscreteLaplaceParams::make(parse_rational("scale", GetParam()));
  const internal::HardenedLaplacePlan& plan = params.plan();
  const Law law = hardened_laplace_law(thresholds_of(plan.magnitude, plan.width), plan.width.width_bits);
  expect_certified(laplace_tv(law, params.scale()), params.tau_upper(), std::string("scale = ") + GetParam());
}

INSTANTIATE_TEST_SUITE_P(Cases, HardenedLaplaceLaw, ::testing::Values("1/100", "1/2", "1", "10", "100"),
                         [](const ::testing::TestParamInfo<const char*>& param_info) {
                           std::string name = std::string("scale_") + param_info.param;
                           for (char& ch : name) if (ch == '/') ch = '_';
                           return name;
                         });

// Companion: the same check catches a table whose threshold T_1 is off by 2^-30 (a rounding or
// cumulation bug far below what any sample test could see).
TEST(HardenedLawCompanion, CatchesAThresholdOffBy2ToTheMinus30) {
  const auto params = HardenedDiscreteGaussianParams::make(100);
  const internal::HardenedGaussianPlan& plan = params.plan();
  std::vector<mpz_class> t = thresholds_of(plan.base, plan.width);
  t[1] += mpz_class(1) << (plan.width.width_bits - 30);
  const Interval tv = gaussian_tv(hardened_gaussian_law(plan, t), params.sigma2());
  EXPECT_GT(lower_of(tv), params.tau_upper());
}

}  // namespace
}  // namespace exactdp
