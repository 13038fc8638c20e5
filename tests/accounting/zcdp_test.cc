// Tests for accounting/zcdp.h.
//
// Independent reference: Corollary 13 of CKS20 in its ORIGINAL form
//   delta = exp((alpha-1)(alpha rho - eps)) / (alpha-1) * (1 - 1/alpha)^alpha
// evaluated with raw MPFR (mpfr_pow, 256 bits) — a different formula shape from the library's
// log-space evaluation — and minimised over a dense grid of alpha. Known values: computed
// separately with mpmath (40 digits, golden-section over log(alpha - 1)).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include "tests/support/rationals.h"

namespace exactdp::accounting {
namespace {
namespace zcdp_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using exactdp::test_support::q;  // not accounting::test_support (containment.h)

// The original Corollary 13 expression at 256 bits, round-to-nearest (a reference, not a bound).
// Returned as an MPFR number (the values reach 1e-2500 and below, far outside double range).
Real reference_delta(const mpq_class& rho, const mpq_class& eps, const mpq_class& alpha) {
  Real out(256);
  mpfr_t a, t, u, v;
  mpfr_inits2(256, a, t, u, v, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_q(a, alpha.get_mpq_t(), MPFR_RNDN);
  mpfr_set_q(t, mpq_class((alpha - 1) * (alpha * rho - eps)).get_mpq_t(), MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  mpfr_set_q(u, mpq_class(alpha - 1).get_mpq_t(), MPFR_RNDN);
  mpfr_div(t, t, u, MPFR_RNDN);
  mpfr_set_q(v, mpq_class(1 - 1 / alpha).get_mpq_t(), MPFR_RNDN);
  mpfr_pow(v, v, a, MPFR_RNDN);
  mpfr_mul(t, t, v, MPFR_RNDN);
  mpfr_set(out.get(), t, MPFR_RNDN);
  mpfr_clears(a, t, u, v, static_cast<mpfr_ptr>(nullptr));
  return out;
}

// min over alpha = 1 + j/8 (j = 1..400) of the reference delta.
Real grid_min_delta(const mpq_class& rho, const mpq_class& eps) {
  Real best(256);
  mpfr_set_ui(best.get(), 1, MPFR_RNDN);  // delta <= 1 always
  for (int j = 1; j <= 400; ++j) {
    const Real r = reference_delta(rho, eps, 1 + mpq_class(j, 8));
    if (mpfr_cmp(r.get(), best.get()) < 0) mpfr_set(best.get(), r.get(), MPFR_RNDN);
  }
  return best;
}

// x <= y (1 + slack)
bool at_most_with_slack(mpfr_srcptr x, mpfr_srcptr y, double slack) {
  Real bound(256);
  mpfr_mul_d(bound.get(), y, 1 + slack, MPFR_RNDU);
  return mpfr_cmp(x, bound.get()) <= 0;
}

TEST(ZcdpTest, RhoOfMechanisms) {
  EXPECT_EQ(zcdp_rho_gaussian(mpq_class(2), mpq_class(1)), mpq_class(1, 8));
  EXPECT_EQ(zcdp_rho_discrete_gaussian(mpq_class(4), mpz_class(2)), mpq_class(1, 2));
  EXPECT_EQ(zcdp_rho_pure_dp(mpq_class(1, 2)), mpq_class(1, 8));
  const std::vector<mpq_class> rhos = {mpq_class(1, 8), mpq_class(1, 2), mpq_class(3)};
  EXPECT_EQ(zcdp_compose(rhos), mpq_class(29, 8));
  EXPECT_THROW((void)zcdp_rho_gaussian(mpq_class(0), mpq_class(1)), ParameterError);
  EXPECT_THROW((void)zcdp_rho_discrete_gaussian(mpq_class(1), mpz_class(0)), ParameterError);
  EXPECT_THROW((void)zcdp_rho_pure_dp(mpq_class(-1)), ParameterError);
}

TEST(ZcdpTest, KnownEpsilonValues) {
  // mpmath: min over alpha of Corollary 13's epsilon (first 12 digits, truncated).
  struct Row {
    const char *rho, *delta;
    double value;
  };
  for (const Row& row : {Row{"0.5", "1e-6", 5.22153444453}, Row{"1", "1e-6", 7.76621662531},
                         Row{"0.1", "1e-5", 1.91423883200}, Row{"0.02", "1e-10", 1.23917580775},
                         Row{"10", "1e-3", 25.0887264906}}) {
    const ZcdpConversion c = zcdp_epsilon(q(row.rho), q(row.delta));
    // A valid upper bound is >= the optimum over alpha, and the search gets within 1e-9.
    EXPECT_GT(mpfr_cmp_d(c.bound.value.upper(), row.value), 0) << row.rho;
    EXPECT_LT(mpfr_cmp_d(c.bound.value.upper(), row.value + 1e-9), 0) << row.rho;
    // Never looser than BS16's rho + 2 sqrt(rho log(1/delta)).
    const Interval bs16 = Interval(q(row.rho), 128) +
                          sqrt(Interval(q(row.rho), 128) * -log(Interval(q(row.delta), 128))) *
                              mpq_class(2);
    EXPECT_TRUE(certainly_less(c.bound.value, bs16)) << row.rho;
  }
}

TEST(ZcdpTest, KnownDeltaValues) {
  struct Row {
    const char *rho, *eps;
    double value;
  };
  for (const Row& row : {Row{"0.5", "3", 0.00514318406386}, Row{"1", "5", 0.00261203450662},
                         Row{"0.125", "1", 0.0179854482291}}) {
    const ZcdpConversion c = zcdp_delta(q(row.rho), q(row.eps));
    EXPECT_GT(mpfr_cmp_d(c.bound.value.upper(), row.value), 0);
    EXPECT_LT(mpfr_cmp_d(c.bound.value.upper(), row.value * (1 + 1e-9)), 0);
  }
}

TEST(ZcdpTest, ZeroRhoAndBadInput) {
  EXPECT_TRUE(zcdp_epsilon(mpq_class(0), q("1e-5")).bound.value.contains(0L));
  EXPECT_TRUE(zcdp_delta(mpq_class(0), mpq_class(1)).bound.value.contains(0L));
  EXPECT_THROW((void)zcdp_epsilon(mpq_class(-1), q("1e-5")), ParameterError);
  EXPECT_THROW((void)zcdp_epsilon(mpq_class(1), mpq_class(0)), ParameterError);
  EXPECT_THROW((void)zcdp_epsilon(mpq_class(1), mpq_class(1)), ParameterError);
  EXPECT_THROW((void)zcdp_delta(mpq_class(1), mpq_class(-1)), ParameterError);
}

// rho = a/b in (0, 20], eps in (0, 30], delta = 10^-e.
RC_GTEST_PROP(ZcdpProperties, DeltaValidAndAtLeastAsTightAsGrid, ()) {
  const mpq_class rho(*rc::gen::inRange(1, 2001), 100);
  const mpq_class eps(*rc::gen::inRange(1, 3001), 100);
  const ZcdpConversion c = zcdp_delta(rho, eps);
  RC_ASSERT(c.bound.value.is_valid());
  RC_ASSERT(c.alpha > 1);
  // Valid: the original-form Corollary 13 at the alpha used is <= the upper end we return.
  Real at_alpha = reference_delta(rho, eps, c.alpha);
  if (mpfr_cmp_ui(at_alpha.get(), 1) > 0) mpfr_set_ui(at_alpha.get(), 1, MPFR_RNDN);
  RC_ASSERT(at_most_with_slack(at_alpha.get(), c.bound.value.upper(), 1e-30));
  // At least as tight as Corollary 13 on a dense alpha grid (up to the search's inexactness).
  const Real grid = grid_min_delta(rho, eps);
  RC_ASSERT(at_most_with_slack(c.bound.value.upper(), grid.get(), 1e-9));
}

RC_GTEST_PROP(ZcdpProperties, EpsilonRoundTripsAndIsMonotone, ()) {
  const mpq_class rho(*rc::gen::inRange(1, 2001), 100);
  const int e1 = *rc::gen::inRange(1, 15);
  const int e2 = *rc::gen::inRange(1, 15);
  auto pow10 = [](int e) {
    mpz_class p;
    mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(e));
    return mpq_class(mpz_class(1), p);
  };
  const ZcdpConversion a = zcdp_epsilon(rho, pow10(std::min(e1, e2)));  // larger delta
  const ZcdpConversion b = zcdp_epsilon(rho, pow10(std::max(e1, e2)));  // smaller delta
  RC_ASSERT(mpfr_cmp(a.bound.value.upper(), b.bound.value.upper()) <= 0);
  // delta at the epsilon we return is <= the target (eps from delta from eps).
  const mpq_class eps_used = to_mpq(a.bound.value.upper());
  const ZcdpConversion back = zcdp_delta(rho, eps_used);
  RC_ASSERT(upper_at_most(back.bound.value, pow10(std::min(e1, e2)) * mpq_class(1000001, 1000000)));
}

}  // namespace zcdp_test
}  // namespace
}  // namespace exactdp::accounting
