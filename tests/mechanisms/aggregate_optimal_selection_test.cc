// The optimal partition selection (optimal_partition_selection.h): the exact table meets the
// (eps, delta) conditions (A)-(D) on a grid of parameters (certified again independently), a
// table with one entry raised or lowered is caught, the release frequency of a group matches
// p(n) (fixed seed, |z| < 4.5, alpha ~ 7e-6), it releases more groups than the threshold
// mechanism at the same budget (exact expected counts against certified intervals), and the
// aggregate calibration uses it by default and composes to exactly the requested delta.
#include <gtest/gtest.h>

#include <cmath>

#include <exactdp/core/errors.h>
#include <exactdp/core/interval.h>
#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>
#include <exactdp/mechanisms/aggregate/optimal_partition_selection.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_optimal_selection_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;
using mechanisms::OptimalSelectionTable;
using mechanisms::SelectionMethod;

constexpr unsigned kSuite = 9304;

mpq_class two_to_minus(unsigned long b) {
  mpq_class x(1);
  mpq_div_2exp(x.get_mpq_t(), x.get_mpq_t(), b);
  return x;
}

TEST(OptimalSelection, TableMeetsTheConditionsOnAGrid) {
  for (const mpq_class& eps : {mpq_class(1, 100), mpq_class(1, 10), mpq_class(1, 2), mpq_class(1), mpq_class(3),
                               mpq_class(20)}) {
    for (const mpq_class& delta : {mpq_class(1, 100), mpq_class(1, 1000000), mpq_class(1, 1000000000000)}) {
      const OptimalSelectionTable t = mechanisms::optimal_selection_table(eps, delta);
      const auto p = mechanisms::selection_probabilities(t);
      EXPECT_TRUE(t.saturated) << eps << " " << delta;
      EXPECT_EQ(p.back(), 1);
      EXPECT_EQ(mechanisms::first_uncertified_selection_step(t), std::nullopt) << eps << " " << delta;
      // p(1) is delta rounded down to the table's grid, and p is nondecreasing.
      EXPECT_LE(p[1], delta);
      EXPECT_GT(p[1], delta - two_to_minus(t.bits));
      for (std::size_t n = 1; n < p.size(); ++n) ASSERT_LE(p[n - 1], p[n]);
      // Length about 2 ln(1 / (2 delta)) / eps + 2 (the two phases of the recurrence).
      const double expected = 2 * std::log(0.5 / delta.get_d()) / eps.get_d() + 2;  // test bound only
      EXPECT_LE(static_cast<double>(p.size()), expected + 3) << eps << " " << delta;
    }
  }
}

// The table with numerators[n] scaled by num / den (rounded down).
OptimalSelectionTable scaled_entry(OptimalSelectionTable t, std::size_t n, long num, long den) {
  t.numerators[n] = t.numerators[n] * num / den;
  return t;
}

TEST(OptimalSelection, ABrokenTableIsCaught) {
  const mpq_class eps(1, 2), delta(1, 1000000);
  const OptimalSelectionTable good = mechanisms::optimal_selection_table(eps, delta);
  ASSERT_GT(good.numerators.size(), 20U);
  ASSERT_EQ(mechanisms::first_uncertified_selection_step(good), std::nullopt);
  // p(1) raised by 1 %: p(1) > delta, (A) fails at n = 1.
  EXPECT_EQ(mechanisms::first_uncertified_selection_step(scaled_entry(good, 1, 101, 100)), 1U);
  // p(10) raised: (A) fails between p(9) and p(10); lowered: p(11) is too high after it.
  EXPECT_EQ(mechanisms::first_uncertified_selection_step(scaled_entry(good, 10, 101, 100)), 10U);
  EXPECT_EQ(mechanisms::first_uncertified_selection_step(scaled_entry(good, 10, 99, 100)), 11U);
  // Near saturation (C) is the binding one: lowering 1 - p(n) there is caught.
  OptimalSelectionTable high = good;
  const std::size_t k = good.numerators.size() - 3;
  mpz_class scale;
  mpz_ui_pow_ui(scale.get_mpz_t(), 2, good.bits);
  high.numerators[k] = scale - (scale - good.numerators[k]) * 99 / 100;
  EXPECT_EQ(mechanisms::first_uncertified_selection_step(high), k);
  OptimalSelectionTable nonzero = good;
  nonzero.numerators[0] = 1;  // a group without units is never a candidate
  EXPECT_EQ(mechanisms::first_uncertified_selection_step(nonzero), 0U);
  // The same table is not (eps / 2, delta)-DP: the check depends on epsilon.
  OptimalSelectionTable half = good;
  half.epsilon = eps / 2;
  EXPECT_NE(mechanisms::first_uncertified_selection_step(half), std::nullopt);
}

TEST(OptimalSelection, CappedTableStaysPrivateAndConstant) {
  const mpq_class eps(1, 1000000000), delta(1, 1000000);
  const OptimalSelectionTable t = mechanisms::optimal_selection_table(eps, delta, 5000);
  EXPECT_FALSE(t.saturated);
  EXPECT_EQ(t.numerators.size(), 5000U);
  EXPECT_EQ(t.saturation(), std::nullopt);
  const auto p = mechanisms::selection_probabilities(t);
  EXPECT_EQ(mechanisms::first_uncertified_selection_step(t), std::nullopt);
  EXPECT_EQ(t.probability(mpz_class("1000000000000000000000")), p.back());
  EXPECT_EQ(t.probability(0), 0);
}

TEST(OptimalSelection, ReleaseFrequencyMatchesTheTable) {
  const auto t = mechanisms::optimal_selection_table(1, mpq_class(1, 20));
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  for (const long n : {1L, 3L}) {
    const mpq_class p = t.probability(n);
    ASSERT_GT(p, 0);
    ASSERT_LT(p, 1);
    const int draws = 40000;
    int kept = 0;
    for (int i = 0; i < draws; ++i) kept += mechanisms::draw_optimal_selection(bits, t, n) ? 1 : 0;
    const double pd = p.get_d();  // test statistic only
    const double z = (kept - draws * pd) / std::sqrt(draws * pd * (1 - pd));
    EXPECT_LT(std::abs(z), 4.5) << "n = " << n << ": " << kept << " of " << draws;
    // The same counts reject a sampler that used the neighbouring entry p(n + 1).
    const double wrong = t.probability(n + 1).get_d();
    EXPECT_GT(std::abs(kept - draws * wrong) / std::sqrt(draws * wrong * (1 - wrong)), 4.5) << "n = " << n;
  }
  EXPECT_FALSE(mechanisms::draw_optimal_selection(bits, t, 0));
}

// Enough bits to tell 1 - e^-300 from 1.
constexpr mpfr_prec_t kWide = 1024;

// P[n + Z >= tau] for the threshold mechanism, Z discrete Laplace of scale t (certified).
Interval threshold_release(const mechanisms::PartitionSelection& s, long n) {
  const Interval q = exp(Interval(mpq_class(-1) / s.scale, kWide));
  const mpz_class k = s.threshold - n;  // P[Z >= k]
  if (k >= 1) return exp(Interval(mpq_class(-k) / s.scale, kWide)) / (q + mpq_class(1));
  const mpq_class m(1 - k);
  return Interval(1, kWide) - exp(Interval(mpq_class(-m) / s.scale, kWide)) / (q + mpq_class(1));
}

TEST(OptimalSelection, ReleasesMoreGroupsThanTheThreshold) {
  for (const unsigned long l0 : {1UL, 3UL}) {
    for (const mpq_class& eps : {mpq_class(1, 3), mpq_class(1)}) {
      const mpq_class delta(1, 1000000);
      const auto opt = mechanisms::calibrate_partition_selection(SelectionMethod::kOptimal, l0, eps, delta);
      const auto thr = mechanisms::calibrate_partition_selection(SelectionMethod::kThreshold, l0, eps, delta);
      // One group of each size 1 .. 300: the expected number of released groups; and every
      // size on its own (the optimal law dominates every per-group (eps/L0, delta/L0) law).
      mpq_class optimal = 0;
      Interval threshold(0, kWide);
      for (long n = 1; n <= 300; ++n) {
        const Interval thr_n = threshold_release(thr, n);
        EXPECT_TRUE(lower_above(Interval(opt.table->probability(n), kWide) - thr_n, mpq_class(0)))
            << "L0 = " << l0 << ", eps = " << eps << ", n = " << n;
        optimal += opt.table->probability(n);
        threshold = threshold + thr_n;
      }
      EXPECT_TRUE(lower_above(Interval(optimal, kWide) - threshold, mpq_class(0)))
          << "L0 = " << l0 << ", eps = " << eps << ": optimal " << optimal.get_d() << ", threshold "
          << threshold.debug_string();
      EXPECT_EQ(opt.delta_bound, delta);
    }
  }
}

AggregateRequest request(std::optional<SelectionMethod> method, bool keys) {
  AggregateRequest r;
  r.privacy_unit = "u";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCount, ""}};
  r.epsilon = 1;
  r.delta = mpq_class(1, 100000);
  r.public_keys = keys;
  r.selection = method;
  return r;
}

TEST(OptimalSelection, AggregateUsesItByDefault) {
  const auto g = mechanisms::calibrate_aggregate(request(std::nullopt, false));
  ASSERT_TRUE(g.selection.has_value());
  EXPECT_EQ(g.selection->method, SelectionMethod::kOptimal);
  ASSERT_TRUE(g.selection->table != nullptr);
  EXPECT_EQ(g.selection->table->epsilon, mpq_class(1, 3));
  EXPECT_EQ(g.delta, mpq_class(1, 100000)) << "the selection gets all of delta, exactly";
  EXPECT_EQ(g.epsilon, 1);
  const auto t = mechanisms::calibrate_aggregate(request(SelectionMethod::kThreshold, false));
  EXPECT_EQ(t.selection->method, SelectionMethod::kThreshold);
  EXPECT_LE(t.delta, mpq_class(1, 100000));
  try {
    (void)mechanisms::calibrate_aggregate(request(SelectionMethod::kOptimal, true));
    ADD_FAILURE() << "--selection with --keys accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "selection");
  }
  try {
    (void)mechanisms::parse_selection_method("gaussian");
    ADD_FAILURE() << "unknown method accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "selection");
  }
}

}  // namespace aggregate_optimal_selection_test
}  // namespace
}  // namespace exactdp
