// Tests for accounting/gdp_conversions.h.
//
// Known values were computed independently with mpmath (40 digits; plain bisection on
// Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), and 2 sqrt(2) erfinv(2p - 1) for the pure-DP
// map); each test checks that our certified interval CONTAINS the value (to the 20 digits
// quoted, by allowing +-1e-19 relative around it).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/internal/gdp_bisection.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include "tests/support/rationals.h"

namespace exactdp::accounting {
namespace {

using test_support::q;

// The interval is within [v (1 - 1e-19), v (1 + 1e-19)] around the decimal v, and contains it
// up to that rounding of the reference.
void expect_near_contains(const Interval& x, const char* value) {
  const mpq_class v = q(value);
  const mpq_class slack = v * mpq_class(1UL, 10'000'000'000'000'000'000UL);
  EXPECT_LE(mpfr_cmp_q(x.lower(), mpq_class(v + slack).get_mpq_t()), 0) << x.debug_string();
  EXPECT_GE(mpfr_cmp_q(x.upper(), mpq_class(v - slack).get_mpq_t()), 0) << x.debug_string();
  // And it is narrow (the default tolerance is 2^-100).
  EXPECT_TRUE(relative_width_at_most(x, mpq_class(1UL, 1'000'000'000'000'000'000UL)));
}

TEST(GdpConversionsTest, EpsilonForMuDelta) {
  expect_near_contains(gdp_epsilon(q("1"), q("1e-5")).value, "4.377178095681224627650116");
  expect_near_contains(gdp_epsilon(q("0.5"), q("1e-10")).value, "3.099430330243196050640159");
}

TEST(GdpConversionsTest, MuForEpsilonDelta) {
  expect_near_contains(gdp_mu_for(q("1"), q("1e-5")).value, "0.2680511232112942179030356");
  expect_near_contains(gdp_mu_for(q("3"), q("0.01")).value, "1.210665276236044538224752");
}

// delta near 1 is compared on 1 - delta: delta = 1 - 10^-59 was refused (LimitError) before,
// 1 - 10^-5000 is the digit limit's version. Certified on both ends through the complement, and
// for 1 - 10^-59 through delta itself at 600 bits (enough to see 10^-59).
TEST(GdpConversionsTest, MuForDeltaNearOne) {
  mpq_class one_minus_tiny(1);
  mpz_ui_pow_ui(one_minus_tiny.get_den_mpz_t(), 10, 5000);
  one_minus_tiny = 1 - one_minus_tiny;
  const mpq_class d59 = 1 - q("1e-59");
  for (const mpq_class& delta : {q("0.6"), d59, one_minus_tiny}) {
    const Certified mu = gdp_mu_for(q("1"), delta);
    EXPECT_TRUE(mu.tolerance_met);
    const mpq_class level = 1 - delta;
    const Interval at_lower = gdp_delta_complement_at(q("1"), to_mpq(mu.value.lower()), 600);
    const Interval at_upper = gdp_delta_complement_at(q("1"), to_mpq(mu.value.upper()), 600);
    EXPECT_GE(mpfr_cmp_q(at_lower.lower(), level.get_mpq_t()), 0);  // mu_lower meets delta
    EXPECT_LT(mpfr_cmp_q(at_upper.upper(), level.get_mpq_t()), 0);  // mu_upper misses it
  }
  const Certified mu59 = gdp_mu_for(q("1"), d59);
  EXPECT_TRUE(upper_at_most(gdp_delta_at(q("1"), to_mpq(mu59.value.lower()), 600), d59));
  EXPECT_TRUE(lower_above(gdp_delta_at(q("1"), to_mpq(mu59.value.upper()), 600), d59));
  EXPECT_TRUE(lower_above(mu59.value, q("32.6594014227757")));
  EXPECT_TRUE(upper_at_most(mu59.value, q("32.6594014227758")));
}

// Finding 9 (docs/FUZZING.md): eps = 0 with a tiny delta puts mu* ~ sqrt(2 pi) delta far below
// the first guess 1; the bracket used to shrink from [0, 1] one halving at a time (10^-3000
// needed ~10,000 steps per precision and the CLI never answered). The exponent search finds
// it in ~40 evaluations: ONE pass at 160 bits already brackets mu* to 2^-100 relative (the
// linear search stopped after 360 halvings at ~2^-360 absolute, so its bracket was [0, 2^-360]).
TEST(GdpConversionsTest, MuForTinyDeltaIsFoundOnTheExponent) {
  const mpq_class tiny = q("1e-100000");
  for (const char* d : {"1e-300", "1e-3000", "1e-100000"}) {
    const mpq_class delta = q(d);
    for (const mpq_class& eps : {mpq_class(0), tiny}) {
      const Interval once = internal::gdp_mu_for_at(eps, delta, 160, 102);
      EXPECT_TRUE(relative_width_at_most(once, power_of_two(-100))) << d << once.debug_string();
      const Certified mu = gdp_mu_for(eps, delta);
      EXPECT_TRUE(mu.tolerance_met) << d;
      // Lower end safe (delta at it is <= the target), upper end not, both proven.
      EXPECT_TRUE(upper_at_most(gdp_delta_at(eps, to_mpq(mu.value.lower()), 256), delta)) << d;
      EXPECT_TRUE(lower_above(gdp_delta_at(eps, to_mpq(mu.value.upper()), 256), delta)) << d;
    }
    // At eps = 0, delta = erf(mu / (2 sqrt 2)) = mu / sqrt(2 pi) (1 - O(mu^2)): mu* / delta is
    // sqrt(2 pi) = 2.506628274631000502415765... to far more than 20 digits.
    const Interval ratio = gdp_mu_for(mpq_class(0), delta).value / delta;
    expect_near_contains(ratio, "2.506628274631000502415765");
  }
}

// mu = 1 with delta just below delta_1(0) = erf(1/(2 sqrt 2)) = 0.3829...: eps* ~ (delta_1(0) -
// delta) / Phi(-1/2) is 10^-1000-small, and telling delta_1(x) from delta takes ~3,400 bits.
// Finding 9's second half: such a delta with 4,000 matching digits took 182 s. Now the gap
// G = delta_1(0) - delta is evaluated once at high precision and compared with an enclosure of
// delta_1(0) - delta_1(x) that is relatively accurate at any precision, so ONE pass at 160
// bits brackets eps* (the direct comparison cannot decide anything there); and the bisection
// stops at the tolerance instead of refining to the working precision.
mpq_class just_below_delta_at_zero_of_mu_one() {
  Real d0(4000);
  mpfr_set_ui(d0.get(), 8, MPFR_RNDN);
  mpfr_rec_sqrt(d0.get(), d0.get(), MPFR_RNDD);  // 1/(2 sqrt 2), rounded down
  mpfr_erf(d0.get(), d0.get(), MPFR_RNDD);       // <= delta_1(0)
  return to_mpq(d0.get()) - q("1e-1000");
}

TEST(GdpConversionsTest, EpsilonNearZeroWhenDeltaIsJustBelowDeltaAtZero) {
  const mpq_class delta = just_below_delta_at_zero_of_mu_one();
  const Certified eps = gdp_epsilon(mpq_class(1), delta);
  EXPECT_TRUE(eps.tolerance_met);
  EXPECT_TRUE(upper_at_most(gdp_delta_at(to_mpq(eps.value.upper()), mpq_class(1), 4096), delta));
  EXPECT_TRUE(lower_above(gdp_delta_at(to_mpq(eps.value.lower()), mpq_class(1), 4096), delta));
  // 1 / Phi(-1/2) = 3.2410967045669699440...; eps* = that times 10^-1000 (1 + O(10^-1000))
  // up to the 2^-3990 by which d0 may sit below delta_1(0).
  EXPECT_TRUE(lower_above(eps.value, q("3.2410967045669699e-1000")));
  EXPECT_TRUE(upper_at_most(eps.value, q("3.2410967045669700e-1000")));
  // One pass at 160 bits (tolerance 2^-100) already brackets it.
  const Interval low = internal::gdp_epsilon_at(Interval(1L, 160), delta, 160, 102);
  EXPECT_TRUE(relative_width_at_most(low, power_of_two(-100))) << low.debug_string();
  EXPECT_LE(mpfr_cmp(low.lower(), eps.value.upper()), 0);  // both contain eps*: they overlap
  EXPECT_GE(mpfr_cmp(low.upper(), eps.value.lower()), 0);
  // One pass at 4,096 bits with a 102-bit goal stops near 2^-102, not at ~2^-4070.
  const Interval once = internal::gdp_epsilon_at(Interval(1L, 4096), delta, 4096, 102);
  EXPECT_TRUE(relative_width_at_most(once, power_of_two(-100)));
  EXPECT_FALSE(relative_width_at_most(once, power_of_two(-200)));
}

// The same with mu an interval [1 - 2^-3500, 1 + 2^-3500] (as composition produces): the upper
// end is safe for mu's upper end, the lower end is proven infeasible for mu's lower end.
TEST(GdpConversionsTest, EpsilonNearZeroForAnIntervalMu) {
  const mpq_class delta = just_below_delta_at_zero_of_mu_one();
  const mpq_class m_lo = 1 - power_of_two(-3500);
  const mpq_class m_hi = 1 + power_of_two(-3500);
  Interval mu(4096);
  mpfr_set_q(mu.lower(), m_lo.get_mpq_t(), MPFR_RNDD);
  mpfr_set_q(mu.upper(), m_hi.get_mpq_t(), MPFR_RNDU);
  const Certified eps = gdp_epsilon(mu, delta);
  EXPECT_TRUE(eps.tolerance_met);
  EXPECT_TRUE(upper_at_most(gdp_delta_at(to_mpq(eps.value.upper()), m_hi, 4096), delta));
  EXPECT_TRUE(lower_above(gdp_delta_at(to_mpq(eps.value.lower()), m_lo, 4096), delta));
}

// gdp_epsilon with delta near 1 compares on 1 - delta, like gdp_mu_for: `convert gdp --mu 1e6
// --delta 0.(5000 nines)` ran for minutes (found by a pairwise sweep of hostile values,
// 2026-11-23). Both ends certified through the complement at 256 bits; mu = 30 at 1 - 10^-29
// matches the value the direct comparison gave before (110.85962819646370270...).
TEST(GdpConversionsTest, EpsilonForDeltaNearOne) {
  mpq_class tiny(1);
  mpz_ui_pow_ui(tiny.get_den_mpz_t(), 10, 5000);
  const mpq_class near_one = 1 - tiny;
  // One pass at 160 bits decides every comparison (comparing delta itself could not tell
  // 1 - 10^-5000 from 1 there and the bracket stayed wide; the full call then ran for minutes,
  // hence ASSERT).
  const Interval once = internal::gdp_epsilon_at(Interval(1'000'000L, 160), near_one, 160, 102);
  ASSERT_TRUE(relative_width_at_most(once, power_of_two(-100))) << once.debug_string();
  for (const mpq_class& mu : {q("1e6"), q("400")}) {  // delta_mu(0) > 1 - 10^-5000 needs mu > 303.4
    const Certified eps = gdp_epsilon(mu, near_one);
    EXPECT_TRUE(eps.tolerance_met);
    EXPECT_GT(mpfr_sgn(eps.value.lower()), 0);
    const Interval at_upper = gdp_delta_complement_at(to_mpq(eps.value.upper()), mu, 256);
    const Interval at_lower = gdp_delta_complement_at(to_mpq(eps.value.lower()), mu, 256);
    EXPECT_GE(mpfr_cmp_q(at_upper.lower(), tiny.get_mpq_t()), 0);  // upper end meets delta
    EXPECT_LT(mpfr_cmp_q(at_lower.upper(), tiny.get_mpq_t()), 0);  // lower end misses it
  }
  expect_near_contains(gdp_epsilon(q("30"), 1 - q("1e-29")).value, "110.8596281964637027");
  // mu = 30: delta_30(0) = 1 - erfc(30 / (2 sqrt 2)) ~ 1 - 10^-50 is below 1 - 10^-5000.
  EXPECT_TRUE(gdp_epsilon(q("30"), near_one).value.is_point());
}

TEST(GdpConversionsTest, PureDpToGdp) {
  expect_near_contains(gdp_mu_of_pure_dp(q("0.2")).value, "0.2504839050688713471720368");
  expect_near_contains(gdp_mu_of_pure_dp(q("1")).value, "1.232035385344900972855673");
  expect_near_contains(gdp_mu_of_pure_dp(q("5")).value, "4.946678445595658592842702");
  expect_near_contains(gdp_mu_of_pure_dp(q("30")).value, "14.71533363001752484605588");
  EXPECT_TRUE(gdp_mu_of_pure_dp(q("0")).value.contains(0L));
  // Far tail: eps = 10^4 gives mu ~ 2 sqrt(2 eps) without underflow; certified narrow.
  const Certified big = gdp_mu_of_pure_dp(q("10000"));
  EXPECT_TRUE(big.tolerance_met);
  EXPECT_GT(mpfr_cmp_d(big.value.lower(), 2 * 141.0), 0);
}

TEST(GdpConversionsTest, Table1GdpRow) {
  // 50 compositions of the 0.2-DP -> mu-GDP map, then eps at delta = 0.1 (paper: 3.1).
  const Certified mu1 = gdp_mu_of_pure_dp(q("0.2"));
  const std::vector<std::pair<Interval, unsigned long>> parts = {{mu1.value, 50}};
  const Interval mu50 = gdp_compose_counted(parts);
  const Certified eps = gdp_epsilon(mu50, q("0.1"));
  EXPECT_GT(mpfr_cmp_d(eps.value.lower(), 3.1049694), 0);
  EXPECT_LT(mpfr_cmp_d(eps.value.upper(), 3.1049696), 0);
}

TEST(GdpConversionsTest, Composition) {
  const std::vector<Interval> mus = {Interval(3L, 128), Interval(4L, 128)};
  EXPECT_TRUE(gdp_compose(mus).contains(5L));
  EXPECT_THROW((void)gdp_compose(std::vector<Interval>{Interval(-1L, 128)}), ParameterError);
}

TEST(GdpConversionsTest, RejectsBadInput) {
  EXPECT_THROW((void)gdp_epsilon(q("0"), q("1e-5")), ParameterError);
  EXPECT_THROW((void)gdp_epsilon(q("1"), q("0")), ParameterError);
  EXPECT_THROW((void)gdp_epsilon(q("1"), q("1")), ParameterError);
  EXPECT_THROW((void)gdp_mu_for(q("-1"), q("0.5")), ParameterError);
  EXPECT_THROW((void)gdp_mu_of_pure_dp(q("-0.1")), ParameterError);
}

RC_GTEST_PROP(GdpConversionsProperties, RoundTripsWithContainment, ()) {
  const mpq_class mu(*rc::gen::inRange(1, 801), 100);  // (0, 8]
  mpz_class p10;
  mpz_ui_pow_ui(p10.get_mpz_t(), 10, static_cast<unsigned long>(*rc::gen::inRange(1, 16)));
  const mpq_class delta(mpz_class(1), p10);
  ZivOptions loose;  // 64-bit work keeps 100 cases fast; containment holds at any precision
  loose.tolerance = mpq_class(1L, 1'000'000L);
  loose.initial_precision = 64;
  const Certified eps = gdp_epsilon(mu, delta, loose);
  RC_ASSERT(mpfr_cmp(eps.value.lower(), eps.value.upper()) <= 0);
  // The upper end is feasible: delta_mu(upper) <= delta, proven.
  const mpq_class e_up = to_mpq(eps.value.upper());
  RC_ASSERT(upper_at_most(gdp_delta(e_up, mu, loose).value, delta));
  // mu from (eps, delta) from mu: the mu bracket at e_up reaches at least mu (delta_mu(e_up)
  // <= delta means mu <= mu*(e_up)), and at e_lo at most mu.
  const Certified back = gdp_mu_for(e_up, delta, loose);
  RC_ASSERT(mpfr_cmp_q(back.value.upper(), mu.get_mpq_t()) >= 0);
  if (mpfr_sgn(eps.value.lower()) > 0) {
    const Certified back_lo = gdp_mu_for(to_mpq(eps.value.lower()), delta, loose);
    RC_ASSERT(mpfr_cmp_q(back_lo.value.lower(), mu.get_mpq_t()) <= 0);
  }
  // Monotone in mu: a larger mu needs a larger eps.
  const Certified eps2 = gdp_epsilon(mpq_class(mu * 2), delta, loose);
  RC_ASSERT(mpfr_cmp(eps.value.lower(), eps2.value.upper()) <= 0);
}

RC_GTEST_PROP(GdpConversionsProperties, PureDpMuMonotone, ()) {
  const int a = *rc::gen::inRange(0, 2001);
  const int b = *rc::gen::inRange(0, 2001);
  ZivOptions loose;  // 64-bit work keeps 100 cases fast; containment holds at any precision
  loose.tolerance = mpq_class(1L, 1'000'000L);
  loose.initial_precision = 64;
  const Certified m1 = gdp_mu_of_pure_dp(mpq_class(std::min(a, b), 100), loose);
  const Certified m2 = gdp_mu_of_pure_dp(mpq_class(std::max(a, b), 100), loose);
  RC_ASSERT(mpfr_cmp(m1.value.lower(), m2.value.upper()) <= 0);
  // mu-GDP with this mu implies eps-DP's (eps, delta) points? The converse: eps-DP is mu-GDP,
  // so delta_mu(eps') >= the eps-DP profile (e^eps - e^eps')/(1 + e^eps) at eps' = 0.
  if (a > 0) {
    const mpq_class eps(a, 100);
    const Certified mu = gdp_mu_of_pure_dp(eps, loose);
    const Interval d0 = gdp_delta_at(mpq_class(0), to_mpq(mu.value.upper()), 128);
    const Interval e(eps, 128);
    const Interval pure0 = expm1(e) / (exp(e) + mpq_class(1));
    RC_ASSERT(!certainly_less(d0, pure0));
  }
}

}  // namespace
}  // namespace exactdp::accounting
