// selection_unit_test.cc — mechanisms/selection: parameter validation (every error names its
// parameter), the score reader's limits, the guarantee of peeling (basic and KOV composition),
// and the certified inversion table's refinement path, driven by scripted bits that put U
// within 2^-128 of a boundary (the path fair bits reach with probability about 2^-62).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/mechanisms/selection/exponential_inversion.h>
#include <exactdp/mechanisms/selection/score_reader.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/mechanisms/selection/selection_guarantee.h>
#include <exactdp/core/errors.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/samplers/scripted_bits.h"
#include "tests/support/seeds.h"

namespace exactdp::mechanisms {
namespace {

std::string error_parameter(const std::function<void()>& f) {
  try {
    f();
  } catch (const ParameterError& e) {
    return e.parameter();
  }
  return "(no error)";
}

TEST(SelectionValidation, ErrorsNameTheParameter) {
  const std::vector<mpq_class> u = {1, 2};
  SelectionOptions o;
  o.epsilon = 0;
  EXPECT_EQ(error_parameter([&] { (void)Selection::make(u, o); }), "epsilon");
  o.epsilon = mpq_class(1'000'001);
  EXPECT_EQ(error_parameter([&] { (void)Selection::make(u, o); }), "epsilon");
  o.epsilon = 1;
  o.sensitivity = 0;
  EXPECT_EQ(error_parameter([&] { (void)Selection::make(u, o); }), "sensitivity");
  o.sensitivity = 1;
  o.mechanism = SelectionMechanism::kPermuteAndFlip;
  o.monotonic = true;
  EXPECT_EQ(error_parameter([&] { (void)Selection::make(u, o); }), "monotonic");
  o.monotonic = false;
  EXPECT_EQ(error_parameter([&] { (void)Selection::make({}, o); }), "scores");
  EXPECT_EQ(error_parameter([] { (void)parse_selection_mechanism("gumbel"); }), "mechanism");
  EXPECT_EQ(error_parameter([] { (void)parse_noise_kind("gaussian"); }), "noise");
  Selection s = Selection::make(u, o);
  SeededBits bits(test_support::fixed_seed(142, 0));
  EXPECT_EQ(error_parameter([&] { (void)s.select_top(bits, 0); }), "top");
  EXPECT_EQ(error_parameter([&] { (void)s.select_top(bits, 3); }), "top");
}

TEST(SelectionValidation, NoisyMaxGridIsTheCommonDenominator) {
  SelectionOptions o;
  o.mechanism = SelectionMechanism::kReportNoisyMax;
  o.sensitivity = mpq_class(1, 3);
  o.epsilon = 2;
  const Selection s = Selection::make({mpq_class(1, 4), mpq_class(1, 2)}, o);
  EXPECT_EQ(s.grid_denominator(), 12);
  EXPECT_EQ(s.noise_scale(), mpq_class(4));  // 2 * (12 / 3) / 2
  std::vector<mpq_class> huge = {1, mpq_class(mpz_class(1), mpz_class(1) << 70000)};
  EXPECT_THROW((void)Selection::make(huge, o), LimitError);
}

TEST(ScoreReader, FormsLimitsAndLineNumbers) {
  std::istringstream ok(" 1 \r\n-1/3\n0.25\t\n1e-3");
  const auto v = read_scores(ok);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[1], mpq_class(-1, 3));
  EXPECT_EQ(v[3], mpq_class(1, 1000));
  std::istringstream empty_line("1\n\n2\n");
  EXPECT_EQ(error_parameter([&] { (void)read_scores(empty_line); }), "scores");
  std::istringstream long_line(std::string(kMaxScoreLineLength + 1, '1'));
  EXPECT_THROW((void)read_scores(long_line), LimitError);
  std::istringstream nothing("");
  EXPECT_EQ(error_parameter([&] { (void)read_scores(nothing); }), "scores");
}

TEST(SelectionGuarantee, BasicAndOptimalComposition) {
  SelectionOptions o;
  o.epsilon = mpq_class(1, 10);
  const auto one = selection_guarantee(o, 1, mpq_class(1, 1'000'000));
  EXPECT_EQ(one.basic_epsilon, mpq_class(1, 10));
  EXPECT_FALSE(one.optimal_epsilon.has_value());  // one round: nothing to compose
  const auto ten = selection_guarantee(o, 10, mpq_class(1, 1'000'000));
  EXPECT_EQ(ten.basic_epsilon, 1);
  ASSERT_TRUE(ten.optimal_epsilon.has_value());
  EXPECT_TRUE(exactdp::upper_at_most(ten.optimal_epsilon->value, mpq_class(1)));
  EXPECT_THROW((void)selection_guarantee(o, 0, std::nullopt), ParameterError);
  EXPECT_THROW((void)selection_guarantee(o, 2, mpq_class(1)), ParameterError);
}

// floor(F_0 2^bits) for F_0 = 1 / (1 + e^-1), the first boundary of gammas {0, 1}.
std::string first_boundary_bits(unsigned bits) {
  exactdp::Interval f = exactdp::Interval(1L, 1024) /
                           (exactdp::exp(exactdp::Interval(-1L, 1024)) + mpq_class(1));
  exactdp::Real scaled(1024);
  mpfr_mul_2ui(scaled.get(), f.lower(), bits, MPFR_RNDD);
  mpz_class z;
  mpfr_get_z(z.get_mpz_t(), scaled.get(), MPFR_RNDD);
  std::string s = z.get_str(2);
  return std::string(bits - s.size(), '0') + s;
}

TEST(ExponentialInversion, RefinesWhenUIsCloseToABoundary) {
  // U's first 192 bits agree with F_0: undecided at 64 and 128 bits, so the table is rebuilt at
  // 256 bits; the bits after them decide: zeros give U < F_0 (index 0), ones U > F_0 (index 1).
  const std::string prefix = first_boundary_bits(192);
  for (const bool ones : {false, true}) {
    auto table = ExponentialInversionTable::make({mpq_class(0), mpq_class(1)});
    ASSERT_TRUE(table.has_value());
    test_support::ScriptedBits bits(prefix + std::string(64, ones ? '1' : '0'));
    EXPECT_EQ(table->sample(bits), ones ? 1u : 0u);
    EXPECT_EQ(bits.bits_consumed(), 256u);
    EXPECT_GE(table->precision(), 256u);
  }
  // Far from the boundary: decided by the first 64 bits.
  auto table = ExponentialInversionTable::make({mpq_class(0), mpq_class(1)});
  test_support::ScriptedBits low(std::string(64, '0'));
  EXPECT_EQ(table->sample(low), 0u);
  test_support::ScriptedBits high(std::string(64, '1'));
  EXPECT_EQ(table->sample(high), 1u);
  EXPECT_EQ(table->precision(), 128u);
  // Gaps over 2^40 or a single candidate: no table (the callers use rejection).
  EXPECT_FALSE(ExponentialInversionTable::make({mpq_class(0), mpq_class(mpz_class(1) << 41)}).has_value());
  EXPECT_FALSE(ExponentialInversionTable::make({mpq_class(0)}).has_value());
}

}  // namespace
}  // namespace exactdp::mechanisms
