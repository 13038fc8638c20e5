// product_discrete_gaussian_smoothed_test.cc — the lattice-smoothing bound on the profile of a
// product of discrete Gaussians: its formula against mpmath, and, on products small enough to
// convolve exactly, that it is never below the exact profile and within a pinned slack of it
// (tests/accounting/data/product_discrete_gaussian_smoothed_reference.py).
#include <gtest/gtest.h>

#include <vector>

#include <exactdp/accounting/product_discrete_gaussian_smoothed.h>
#include <exactdp/core/errors.h>

#include "containment.h"

namespace exactdp::accounting {
namespace {

using test_support::contains_within;
using test_support::q_of;

using Blocks = std::vector<SmoothedGaussianBlock>;

SmoothedGaussianBlock block(const char* sigma2, long shift, long copies, const char* t2 = "1") {
  return {q_of(sigma2), mpz_class(shift), mpz_class(copies), q_of(t2)};
}

TEST(ProductDiscreteGaussianSmoothed, MatchesTheMpmathFormula) {
  struct Case {
    const char* epsilon;
    Blocks blocks;
    const char* reference;
  };
  const Case cases[] = {
      // the aggregate: count, sum and centred sum, L0 = 3, Linf = 2
      {"2/3", {block("1430", 2, 3, "1"), block("14300000", 200, 3, "4"), block("3560000", 100, 3, "4")},
       "6.4396177035157992409e-7"},
      {"1", {block("30", 1, 3, "1/2")}, "0.00012373822197929875976"},
      {"1/10", {block("250", 1, 2, "3/4"), block("2500", 3, 1, "5/8")}, "0.010819488660233027723"},
  };
  for (const Case& c : cases) {
    const Interval d = smoothed_product_delta_at(c.blocks, q_of(c.epsilon));
    EXPECT_TRUE(contains_within(d, q_of(c.reference), q_of("1e-18"))) << d.debug_string();
    EXPECT_TRUE(upper_at_most(d, q_of(c.reference) * (1 + q_of("1e-15")))) << "not tight: " << d.debug_string();
  }
}

TEST(ProductDiscreteGaussianSmoothed, NeverBelowTheExactProductAndCloseToIt) {
  struct Case {
    const char* epsilon;
    Blocks blocks;
    const char* exact;  // mpmath, exact convolution of the losses
    // the bound is at most exact * (1 + slack), pinned (the slack is about t2 / (2 sigma2) in
    // sigma: largest at small sigma2 like these)
    const char* slack;
  };
  const Case cases[] = {
      {"1", {block("30", 1, 3)}, "0.00011044565264196803113", "0.121"},
      {"1/2", {block("20", 1, 2), block("80", 2, 2)}, "0.037367635483239996214", "0.032"},
      {"2/3", {block("50", 1, 3), block("1250", 5, 2)}, "0.0027630651869956687387", "0.028"},
  };
  for (Case c : cases) {
    ASSERT_TRUE(choose_smoothing(c.blocks, q_of(c.epsilon)));
    const Interval d = smoothed_product_delta_at(c.blocks, q_of(c.epsilon));
    const mpq_class exact = q_of(c.exact);
    EXPECT_FALSE(upper_at_most(d, exact * (1 - q_of("1e-18")))) << "below the exact profile: " << d.debug_string();
    EXPECT_TRUE(upper_at_most(d, exact * (1 + q_of(c.slack)))) << "looser than pinned: " << d.debug_string();
  }
}

TEST(ProductDiscreteGaussianSmoothed, ChosenWidthsBeatEveryCommonWidth) {
  Blocks chosen = {block("40", 1, 3), block("4000000", 100, 3)};
  const mpq_class eps(2, 3);
  ASSERT_TRUE(choose_smoothing(chosen, eps));
  const Interval best = smoothed_product_delta_at(chosen, eps);
  for (const char* t2 : {"1/2", "3/4", "1", "2", "4"}) {
    const Blocks common = {block("40", 1, 3, t2), block("4000000", 100, 3, t2)};
    const Interval d = smoothed_product_delta_at(common, eps);
    EXPECT_TRUE(mpfr_cmp(best.upper(), d.upper()) <= 0) << "t2 = " << t2 << ": " << d.debug_string();
  }
}

// choose_smoothing reuses each block's ln R per (width, copies) instead of recomputing it at
// every trial; its choice must be the one of the plain search below (the same coordinate
// descent on smoothed_product_delta_at at 64 bits), with blocks that share a width but not
// their number of copies.
TEST(ProductDiscreteGaussianSmoothed, ChoiceEqualsThePlainSearch) {
  Blocks chosen = {block("40", 1, 3), block("4000000", 100, 3), block("40", 1, 300), block("4000000", 100, 30000)};
  const mpq_class eps(2, 3);
  ASSERT_TRUE(choose_smoothing(chosen, eps));
  Blocks plain = chosen;
  for (auto& b : plain) b.t2 = smoothing_widths(b.sigma2).back();
  Interval best = smoothed_product_delta_at(plain, eps, 64);
  for (int pass = 0; pass < 2; ++pass) {
    for (auto& b : plain) {
      const mpq_class kept = b.t2;
      mpq_class pick = kept;
      for (const auto& t2 : smoothing_widths(b.sigma2)) {
        if (t2 == kept) continue;
        b.t2 = t2;
        const Interval d = smoothed_product_delta_at(plain, eps, 64);
        if (mpfr_cmp(d.upper(), best.upper()) < 0) {
          best = d;
          pick = t2;
        }
      }
      b.t2 = pick;
    }
  }
  for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_EQ(chosen[i].t2, plain[i].t2) << "block " << i;
}

TEST(ProductDiscreteGaussianSmoothed, RefusalsAndEdges) {
  EXPECT_THROW((void)smoothed_product_delta_at({}, mpq_class(1)), ParameterError);
  EXPECT_THROW((void)smoothed_product_delta_at({block("10", 0, 1)}, mpq_class(1)), ParameterError);
  EXPECT_THROW((void)smoothed_product_delta_at({block("10", 1, 0)}, mpq_class(1)), ParameterError);
  EXPECT_THROW((void)smoothed_product_delta_at({block("1", 1, 1, "1")}, mpq_class(1)), std::logic_error);
  Blocks narrow = {block("1", 1, 1)};  // sigma2 < 2: no width
  EXPECT_FALSE(choose_smoothing(narrow, mpq_class(1)));
  EXPECT_TRUE(smoothing_widths(mpq_class(2)) == std::vector<mpq_class>{mpq_class(1, 2)});
  // eps below 2 ln R (t2 = 1/2: ln r ~ 2e-4): the bound is 1
  const Interval one = smoothed_product_delta_at({block("100", 1, 1, "1/2")}, mpq_class(1, 10000));
  EXPECT_TRUE(!upper_at_most(one, mpq_class(1)) || lower_above(one, mpq_class(999, 1000)));
}

}  // namespace
}  // namespace exactdp::accounting
