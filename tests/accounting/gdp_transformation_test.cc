// Tests for accounting/gdp_transformation.h (gdp_bridge Section 4, Algorithm 1).
//
// Known answers, each derived independently of the GDPT code:
//  - the Gaussian mechanism / mu-GDP profile has T(eps) = mu exactly (GDPT of delta_mu is the
//    constant mu, gdp_bridge Section 4), so the bracket must contain mu;
//  - the pure eps-DP worst case (randomized response) has sup T = 2 Phi^-1(e^eps/(1+e^eps))
//    (gdp_bridge Theorem 5.1), computed here by gdp_mu_of_pure_dp (a bisection on log Phi, no
//    GDPT);
//  - the 50-fold composition of 0.2-DP (KOV profile): sup T = 1.42008 (mpmath, dense grid of
//    eps; the paper's "GDP summary" of Table 1 uses this mu).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

bool width_at_most(const Interval& x, const mpq_class& w) {
  const Real width = width_upper(x);
  return mpfr_cmp_q(width.get(), w.get_mpq_t()) <= 0;
}

TEST(GdptTest, GaussianBracketContainsMu) {
  for (const mpq_class& mu : {mpq_class(1, 2), mpq_class(1), mpq_class(2)}) {
    GdptOptions o;
    o.eps_max = 3;
    o.tolerance = mpq_class(1, 100);
    const GdptResult r = gdpt_measure(gdp_profile(mu), o);
    EXPECT_TRUE(r.bounded);
    EXPECT_TRUE(r.mu.contains(mu)) << r.mu.debug_string();
    EXPECT_TRUE(width_at_most(r.mu, o.tolerance)) << r.mu.debug_string();
  }
}

TEST(GdptTest, PureDpMatchesTheorem51) {
  const mpq_class eps(1, 5);
  GdptOptions o;
  o.eps_max = 1;
  o.tolerance = mpq_class(1, 1000);
  const GdptResult r = gdpt_measure(pure_dp_profile(eps), o);
  const Certified mu = gdp_mu_of_pure_dp(eps);
  EXPECT_TRUE(r.mu.contains(mu.value)) << r.mu.debug_string() << " vs " << mu.value.debug_string();
  EXPECT_TRUE(width_at_most(r.mu, o.tolerance));
}

TEST(GdptTest, ShuffleNeedsLogarithmicallyManySearches) {
  GdptOptions o;
  o.eps_max = 1;
  o.tolerance = mpq_class(1, 400);
  const GdptResult fast = gdpt_measure(pure_dp_profile(mpq_class(1, 5)), o);
  o.naive = true;
  const GdptResult naive = gdpt_measure(pure_dp_profile(mpq_class(1, 5)), o);
  // Both brackets are certified: they must overlap; the shuffled one searched far less.
  EXPECT_LE(mpfr_cmp(fast.mu.lower(), naive.mu.upper()), 0);
  EXPECT_LE(mpfr_cmp(naive.mu.lower(), fast.mu.upper()), 0);
  const double n = static_cast<double>(fast.grid_points);
  EXPECT_GT(fast.grid_points, 500U);
  // Records of a random permutation: expected H_n ~ ln n; two searches per record.
  EXPECT_LT(static_cast<double>(fast.binary_searches), 2 * (4 * std::log(n) + 10));
  EXPECT_GE(naive.binary_searches, naive.grid_points - 1);
}

TEST(GdptTest, KovCompositionSummary) {
  GdptOptions o;
  o.eps_max = 3;
  o.tolerance = mpq_class(1, 200);
  const GdptResult r = gdpt_measure(kov_profile(mpq_class(1, 5), 50), o);
  EXPECT_TRUE(r.mu.contains(parse_rational("test", "1.42008"))) << r.mu.debug_string();
}

TEST(GdptTest, NotGdpWithinMuMax) {
  // A profile with delta(eps) = 0.9 up to eps = 5 is not mu-GDP for mu <= 2 on [0, 5].
  const ProfileFunction flat = [](const mpq_class& eps, mpfr_prec_t p) {
    return eps < 5 ? Interval(mpq_class(9, 10), p) : Interval(0L, p);
  };
  GdptOptions o;
  o.eps_max = 5;
  o.tolerance = mpq_class(1, 10);
  o.mu_max = 2;
  const GdptResult r = gdpt_measure(flat, o);
  EXPECT_FALSE(r.bounded);
  EXPECT_TRUE(mpfr_inf_p(r.mu.upper()));
}

TEST(GdptTest, PointAndTailRatio) {
  const Interval t = gdpt_point(gdp_profile(mpq_class(3, 2)), mpq_class(2), mpq_class(1, 1000),
                                mpq_class(100), 64);
  EXPECT_TRUE(t.contains(mpq_class(3, 2))) << t.debug_string();
  // Lemma 3.1: eps / sqrt(-2 log delta_mu(eps)) -> mu; at eps = 50, mu = 1 it is ~1.008.
  const Interval r = tail_ratio(gdp_profile(mpq_class(1)), mpq_class(50), 128);
  EXPECT_GT(mpfr_cmp_d(r.lower(), 1.0), 0);
  EXPECT_LT(mpfr_cmp_d(r.upper(), 1.02), 0);
  // Pure DP: delta = 0 past epsilon, so the ratio (and the limit L) is 0.
  EXPECT_TRUE(tail_ratio(pure_dp_profile(mpq_class(1)), mpq_class(2), 64).contains(0L));
}

TEST(GdptTest, RejectsBadOptions) {
  GdptOptions o;
  o.eps_max = 0;
  EXPECT_THROW((void)gdpt_measure(gdp_profile(mpq_class(1)), o), ParameterError);
  o.eps_max = 1;
  o.tolerance = 0;
  EXPECT_THROW((void)gdpt_measure(gdp_profile(mpq_class(1)), o), ParameterError);
  o.tolerance = mpq_class(1, 10);
  o.mu_max = -1;
  EXPECT_THROW((void)gdpt_measure(gdp_profile(mpq_class(1)), o), ParameterError);
  EXPECT_THROW((void)gdp_profile(mpq_class(0)), ParameterError);
}

RC_GTEST_PROP(GdptProperties, GaussianMuInsideBracket, ()) {
  const mpq_class mu(*rc::gen::inRange(10, 301), 100);  // [0.1, 3]
  GdptOptions o;
  o.eps_max = 2;
  o.tolerance = mpq_class(1, 20);
  o.seed = *rc::gen::arbitrary<std::uint64_t>();
  const GdptResult r = gdpt_measure(gdp_profile(mu), o);
  RC_ASSERT(mpfr_cmp(r.mu.lower(), r.mu.upper()) <= 0);
  RC_ASSERT(r.mu.contains(mu));
  RC_ASSERT(width_at_most(r.mu, o.tolerance));
}

}  // namespace
}  // namespace exactdp::accounting
