#include <exactdp/accounting/laplace_profile.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include "tests/accounting/rational_generators.h"
#include "tests/support/rationals.h"

namespace exactdp::accounting {
namespace {

using test_support::q;

TEST(LaplaceProfile, DpAccountingKnownValue) {
  // b = 2, Delta = 4: delta(0.5) = 0.5276334473 (dp_accounting, 10 digits).
  const Certified c = laplace_delta(q("0.5"), q("2"), q("4"));
  EXPECT_TRUE(c.tolerance_met);
  EXPECT_TRUE(lower_above(c.value, q("0.52763344725")));
  EXPECT_TRUE(upper_at_most(c.value, q("0.52763344735")));
}

TEST(LaplaceProfile, ZeroAtAndBeyondThePureEpsilon) {
  EXPECT_TRUE(laplace_delta(q("2"), q("2"), q("4")).value.is_point());
  EXPECT_TRUE(laplace_delta(q("7"), q("2"), q("4")).value.contains(0L));
  EXPECT_TRUE(discrete_laplace_delta(q("1"), q("1"), mpz_class(1)).value.contains(0L));
  EXPECT_THROW((void)laplace_delta(q("1"), q("0"), q("1")), ParameterError);
  EXPECT_THROW((void)discrete_laplace_delta(q("1"), q("1"), mpz_class(0)), ParameterError);
}

TEST(DiscreteLaplaceProfile, EpsilonZeroIsTheMassAtZero) {
  // Delta = 1, eps = 0: delta = P[X = 0] = (1 - r)/(1 + r), r = e^(-1/t): t = 3.
  const Certified c = discrete_laplace_delta(q("0"), q("3"), mpz_class(1));
  const Interval r = exp(Interval(q("-1/3"), 300));
  const Interval expected = (Interval(1L, 300) - r) / (Interval(1L, 300) + r);
  EXPECT_NO_THROW((void)intersect(c.value, expected));
  EXPECT_TRUE(c.tolerance_met);
}

// Independent algorithm: delta = sum_x (p(x) - e^eps p(x - Delta))_+ by direct summation over
// |x| <= X, plus a bound on the rest (both tails of p: <= 2 r^(X+1) / (1 - r) c).
Interval direct_discrete_laplace(const mpq_class& eps, const mpq_class& t, long delta, long x_max,
                                 mpfr_prec_t p) {
  const Interval r = exp(Interval(mpq_class(-1 / t), p));
  const Interval c = (Interval(1L, p) - r) / (Interval(1L, p) + r);
  const Interval e = exp(Interval(eps, p));
  Interval sum(p);
  for (long x = -x_max; x <= x_max; ++x) {
    const Interval px = c * exp(Interval(mpq_class(-mpq_class(std::abs(x)) / t), p));
    const Interval qx = c * exp(Interval(mpq_class(-mpq_class(std::abs(x - delta)) / t), p));
    const Interval d = px - e * qx;
    if (mpfr_sgn(d.upper()) > 0) sum = sum + max(d, Interval(p));
  }
  Interval rest(p);
  const Interval bound = mul_2si(c * exp(Interval(mpq_class(-mpq_class(x_max + 1) / t), p)) /
                                     (Interval(1L, p) - r), 1);
  mpfr_set(rest.upper(), bound.upper(), MPFR_RNDU);
  return sum + rest;
}

RC_GTEST_PROP(DiscreteLaplaceProperty, ClosedFormMatchesDirectSum, ()) {
  const mpq_class t = *test_support::rational_in(q("1/4"), q("4"));
  const long delta = *rc::gen::inRange(1L, 6L);
  const mpq_class eps = *test_support::rational_in(q("0"), mpq_class(mpq_class(delta) / t + 1));
  const Interval closed = discrete_laplace_delta_at(eps, t, mpz_class(delta), 200);
  const Interval direct = direct_discrete_laplace(eps, t, delta, 400, 200);
  (void)intersect(closed, direct);  // throws if the two certified intervals were disjoint
  RC_ASSERT(closed.is_nonnegative());
}

// The continuous Laplace profile is the limit of discrete Laplace on a grid 1/k: scale t k and
// sensitivity Delta k. The difference is O(1/k); check it shrinks and brackets the limit.
TEST(LaplaceProfile, DiscreteLimitApproachesContinuous) {
  const mpq_class eps = q("0.7"), b = q("2");
  const long delta = 3;
  const Interval cont = laplace_delta_at(eps, b, mpq_class(delta), 128);
  for (long k : {100L, 10000L}) {
    const Interval disc = discrete_laplace_delta_at(eps, b * k, mpz_class(delta * k), 128);
    const Interval diff = abs(disc - cont);
    EXPECT_TRUE(upper_at_most(diff, mpq_class(2, k))) << k << " " << diff.debug_string();
  }
}

RC_GTEST_PROP(LaplaceProperty, DecreasingInEpsilon, ()) {
  const mpq_class b = *test_support::positive_rational(1);
  const mpq_class delta = *test_support::positive_rational(1);
  const mpq_class eps = *test_support::rational_in(q("0"), q("10"));
  const mpq_class more = eps + *test_support::positive_rational(1);
  const Interval d1 = laplace_delta_at(eps, b, delta, 128);
  const Interval d2 = laplace_delta_at(more, b, delta, 128);
  RC_ASSERT(d1.is_valid() && d2.is_valid());
  RC_ASSERT(!certainly_less(d1, d2));
  const mpz_class di(*rc::gen::inRange(1L, 100L));
  RC_ASSERT(!certainly_less(discrete_laplace_delta_at(eps, b, di, 128),
                            discrete_laplace_delta_at(more, b, di, 128)));
}

}  // namespace
}  // namespace exactdp::accounting
