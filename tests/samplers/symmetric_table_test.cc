// symmetric_table_test.cc — the exact table sampler of the discrete Gaussian and Laplace
// (samplers/internal/symmetric_table.h).
//
// Chi-square: the same check as statistical_discrete_gaussian_test.cc (Pearson over bins of
// expected count >= max(5, n^0.6/2), certified p-value, REJECT when p < alpha = 1e-6; fixed seeds;
// over random seeds a correct sampler fails one parameter set with probability about 1e-6), on
// tables built with the default T, with a short T (so the exact conditioned tail carries most of
// the mass), and with coarse stored bounds (so the exact Ziv refinement decides many draws).
// Power: the same check rejects a deliberately broken table (coarse bounds, refinement off: an
// undecided draw takes the lower slot).
// Refinement: uniforms placed 2^-192 on either side of a cdf point (from the independent certified
// reference law of verification/) must fall on the right side.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <memory>
#include <string>

#include <exactdp/core/decimal.h>
#include <exactdp/core/interval.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/internal/symmetric_table.h>
#include <exactdp/samplers/internal/sampler_terms.h>
#include <exactdp/samplers/internal/signed_result.h>
#include "tests/samplers/scripted_bits.h"
#include "tests/samplers/signed_draw.h"
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"
#include "tests/support/test_names.h"

namespace exactdp {
namespace {
namespace symmetric_table_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using namespace test_support;
using internal::SymmetricTable;
using internal::SymmetricTableOptions;

const mpq_class kAlpha(1, 1'000'000);

using Shape = SymmetricTable::Shape;

struct TableCase {
  const char* name;
  Shape shape;
  const char* param;  // sigma2 or scale
  SymmetricTableOptions options;
  unsigned long long n;
};

class SymmetricTableChiSquare : public ::testing::TestWithParam<TableCase> {};

TEST_P(SymmetricTableChiSquare, MatchesCertifiedPmf) {
  const TableCase c = GetParam();
  const mpq_class s2(c.param);
  const auto table = SymmetricTable::build(c.shape, s2, c.options);
  std::unique_ptr<verification::ReferenceLaw> law;
  if (c.shape == Shape::kGaussian) {
    law = std::make_unique<verification::DiscreteGaussianLaw>(s2, 0);
  } else {
    law = std::make_unique<verification::DiscreteLaplaceLaw>(s2, 0);
  }
  const auto t = chi_square_check(*law, [&](BitSource& b) { return draw_value(*table, b); }, c.n,
                                  fixed_seed(151, static_cast<std::uint32_t>(c.n % 1000)));
  ASSERT_TRUE(t.applicable) << t.detail;
  EXPECT_FALSE(rejects(t, kAlpha)) << rejection_message(c.name, t, "1e-6");
}

SymmetricTableOptions with_t(std::int64_t t) {
  SymmetricTableOptions o;
  o.max_abs = t;
  return o;
}
SymmetricTableOptions coarse(unsigned bound_bits) {
  SymmetricTableOptions o;
  o.bound_bits = bound_bits;
  return o;
}

INSTANTIATE_TEST_SUITE_P(
    Tables, SymmetricTableChiSquare,
    ::testing::Values(TableCase{"gaussian_1_4_T0_tail_21pct", Shape::kGaussian, "1/4", with_t(0), 100'002},
                      TableCase{"gaussian_1_default_T", Shape::kGaussian, "1", {}, 100'003},
                      TableCase{"gaussian_9_4_T2", Shape::kGaussian, "9/4", with_t(2), 100'004},
                      TableCase{"gaussian_100_default_T", Shape::kGaussian, "100", {}, 200'005},
                      TableCase{"gaussian_100_T5_tail_62pct", Shape::kGaussian, "100", with_t(5), 100'006},
                      TableCase{"gaussian_100_T20_tail_5pct", Shape::kGaussian, "100", with_t(20), 100'007},
                      TableCase{"gaussian_2_bounds_10_bits", Shape::kGaussian, "2", coarse(10), 100'008},
                      TableCase{"gaussian_10000_range_end", Shape::kGaussian, "10000", {}, 100'009},
                      TableCase{"laplace_1_default_T", Shape::kLaplace, "1", {}, 100'010},
                      TableCase{"laplace_10_default_T", Shape::kLaplace, "10", {}, 100'011},
                      TableCase{"laplace_7_2_T3_tail", Shape::kLaplace, "7/2", with_t(3), 100'012},
                      TableCase{"laplace_1_3_T0_tail", Shape::kLaplace, "1/3", with_t(0), 100'013},
                      TableCase{"laplace_1_2_bounds_12_bits", Shape::kLaplace, "1/2", coarse(12), 100'014},
                      TableCase{"laplace_50_range_end", Shape::kLaplace, "50", {}, 100'015}),
    [](const ::testing::TestParamInfo<TableCase>& param_info) { return std::string(param_info.param.name); });

TEST(SymmetricTableChiSquareCompanion, RejectsCoarseTableWithoutRefinement) {
  SymmetricTableOptions broken = coarse(6);
  broken.refine = false;
  const auto table = SymmetricTable::build(Shape::kGaussian, mpq_class(2), broken);
  const verification::DiscreteGaussianLaw law(mpq_class(2), 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_value(*table, b); }, 100'000,
                                  fixed_seed(152, 1));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

TEST(SymmetricTableChiSquareCompanion, RejectsLaplaceTableWithoutRefinement) {
  SymmetricTableOptions broken = coarse(6);
  broken.refine = false;
  const auto table = SymmetricTable::build(Shape::kLaplace, mpq_class(3), broken);
  const verification::DiscreteLaplaceLaw law(mpq_class(3), 0);
  const auto t = chi_square_check(law, [&](BitSource& b) { return draw_value(*table, b); }, 100'000,
                                  fixed_seed(152, 2));
  EXPECT_TRUE(rejects(t, kAlpha)) << "p <= " << exactdp::decimal_upper(t.p_value.upper(), 6);
}

// sigma2 = 1/100: P[Z != 0] = 3.9e-22, so 20,000 draws are all 0 (false alarm 8e-18); no
// chi-square applies (one bin).
TEST(SymmetricTable, TinySigma2GivesZero) {
  const auto table = SymmetricTable::build_gaussian(mpq_class(1, 100));
  ASSERT_NE(table, nullptr);
  SeededBits bits(fixed_seed(151, 1));
  for (int i = 0; i < 20000; ++i) ASSERT_EQ(draw_value(*table, bits), 0);
}

// The stored bounds bracket the certified reference cdf (verification/reference_law.h, an
// independent computation), are monotone and 64-bit tight.
TEST(SymmetricTable, BoundsBracketTheReferenceCdf) {
  const mpq_class s2(100);
  const auto table = SymmetricTable::build_gaussian(s2);
  ASSERT_NE(table, nullptr);
  const std::int64_t t = table->max_abs();
  const verification::DiscreteGaussianLaw law(s2, 0, 256);
  for (std::int64_t i = t - 3; i <= t + 3; i += 3) {  // B_{T+1+j}: sum_{z <= j} w(z) / N, j = -3, 0, 3
    // sum_{z=-T}^{j} w(z) = S(0, T) + S(1, j) (j > 0) or S(-j, T) (j <= 0) by symmetry.
    const std::int64_t j = i - t;
    exactdp::Interval s = j <= 0 ? law.partial_sum(mpz_class(-j), mpz_class(t))
                                    : law.partial_sum(0, mpz_class(t)) + law.partial_sum(1, mpz_class(j));
    const exactdp::Interval b = s / law.normaliser();
    const std::size_t index = static_cast<std::size_t>(i);  // array index of B_{i+1}
    mpfr_t scaled;
    mpfr_init2(scaled, 256);
    mpfr_mul_2ui(scaled, b.lower(), 64, MPFR_RNDD);
    mpz_class lo_ref, hi_ref;
    mpfr_get_z(lo_ref.get_mpz_t(), scaled, MPFR_RNDD);
    mpfr_mul_2ui(scaled, b.upper(), 64, MPFR_RNDU);
    mpfr_get_z(hi_ref.get_mpz_t(), scaled, MPFR_RNDU);
    mpfr_clear(scaled);
    EXPECT_LE(internal::to_mpz(table->lower()[index]), hi_ref) << i;
    EXPECT_GE(internal::to_mpz(table->upper()[index]), lo_ref) << i;
    EXPECT_LE(table->upper()[index] - table->lower()[index], 16U) << "bounds not tight at " << i;
  }
  for (std::size_t i = 1; i < table->lower().size(); ++i) {
    EXPECT_LE(table->lower()[i - 1], table->lower()[i]);
    EXPECT_LE(table->upper()[i - 1], table->upper()[i]);
  }
}

// A uniform 2^-192 below / above the cdf point B = P[Z <= 0] lands in the 64-bit uncertainty of
// the table and needs two rounds of refinement (128 then 256 bits): the slot must be 0 / 1.
TEST(SymmetricTable, RefinementDecidesDrawsInsideTheUncertainty) {
  const mpq_class s2(100);
  const auto table = SymmetricTable::build_gaussian(s2);
  const std::int64_t t = table->max_abs();
  const verification::DiscreteGaussianLaw law(s2, 0, 512);
  const exactdp::Interval b = law.partial_sum(0, mpz_class(t)) / law.normaliser();
  mpfr_t x;
  mpfr_init2(x, 512);
  mpz_class f_lo, f_hi;
  mpfr_mul_2ui(x, b.lower(), 192, MPFR_RNDD);
  mpfr_get_z(f_lo.get_mpz_t(), x, MPFR_RNDD);
  mpfr_mul_2ui(x, b.upper(), 192, MPFR_RNDU);
  mpfr_get_z(f_hi.get_mpz_t(), x, MPFR_RNDD);
  mpfr_clear(x);
  ASSERT_EQ(f_lo, f_hi) << "reference not precise enough";  // F <= 2^192 B < F + 1
  const auto script = [](const mpz_class& u) {
    std::string s = u.get_str(2);
    return std::string(192 - s.size(), '0') + s;
  };
  for (int side = 0; side < 2; ++side) {
    const mpz_class u = side == 0 ? mpz_class(f_lo - 1) : mpz_class(f_lo + 1);  // U < B, or U > B
    test_support::ScriptedBits bits(script(u));
    EXPECT_EQ(draw_value(*table, bits), side) << "side " << side;
    EXPECT_GE(bits.bits_consumed(), 192U);  // it had to look past 128 bits
  }
}

// The public sampler uses the table in its range, and the batch call gives the single calls'
// values from the same bits.
TEST(SymmetricTable, UsedInRangeAndBatchMatchesSingleCalls) {
  EXPECT_NE(DiscreteGaussianParams::make(100).terms().table, nullptr);
  EXPECT_NE(DiscreteGaussianParams::make(mpq_class(1, 100)).terms().table, nullptr);
  EXPECT_EQ(DiscreteGaussianParams::make(mpz_class("1000000000000")).terms().table, nullptr);
  for (const char* s : {"100", "1000000000000"}) {
    const auto params = DiscreteGaussianParams::make(mpq_class(s), 17);
    SeededBits a(fixed_seed(153, 1)), b(fixed_seed(153, 1));
    std::int64_t out[500];
    ASSERT_EQ(sample_n(a, params, out, 500), 500U);
    for (std::int64_t v : out) EXPECT_EQ(sample_discrete_gaussian_int64(b, params), v) << s;
    EXPECT_EQ(a.bits_consumed(), b.bits_consumed());
  }
  // A value outside int64: the index of that draw.
  const auto far = DiscreteGaussianParams::make(1, mpz_class(INT64_MAX));
  SeededBits c(fixed_seed(153, 2));
  std::int64_t out[64];
  EXPECT_LT(sample_n(c, far, out, 64), 64U);
}

}  // namespace symmetric_table_test
}  // namespace
}  // namespace exactdp
