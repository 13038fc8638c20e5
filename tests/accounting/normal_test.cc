#include <exactdp/accounting/normal.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/core/decimal.h>
#include <exactdp/core/rational.h>
#include "tests/accounting/rational_generators.h"

namespace exactdp::accounting {
namespace {

mpq_class dec(const char* s) { return parse_rational("test", s); }

TEST(Normal, KnownValues) {
  EXPECT_TRUE(normal_cdf(mpq_class(0), 128).contains(mpq_class(1, 2)));
  // Phi(1.96) = 0.9750021048517795...
  const Interval p = normal_cdf(dec("1.96"), 128);
  EXPECT_TRUE(lower_above(p, dec("0.97500210485177")));
  EXPECT_TRUE(upper_at_most(p, dec("0.97500210485178")));
  // Q(5) = 2.866515718791939e-7
  const Interval q = normal_sf(mpq_class(5), 128);
  EXPECT_TRUE(lower_above(q, dec("0.0000002866515718791")));
  EXPECT_TRUE(upper_at_most(q, dec("0.0000002866515718792")));
  EXPECT_LE(relative_width_log2(q), -120);
}

TEST(Normal, ComplementsAddToOne) {
  for (long x : {-30L, -3L, 0L, 2L, 7L}) {
    const Interval s = normal_cdf(mpq_class(x), 200) + normal_sf(mpq_class(x), 200);
    EXPECT_TRUE(s.contains(1L)) << x;
  }
}

TEST(Normal, FarTailsDoNotUnderflow) {
  const Interval a = normal_cdf(mpq_class(-40000), 128);
  EXPECT_TRUE(a.is_positive());
  EXPECT_LE(relative_width_log2(a), -110);
  const Interval b = normal_cdf(mpq_class(-1'000'000), 128);
  EXPECT_TRUE(b.is_positive());
  EXPECT_LE(relative_width_log2(b), -100);
  // log Phi(-10^6) = -5e11 - log(10^6) - log(2 pi)/2 + log(1 - 1e-12 + ...)
  const Interval lb = log_normal_cdf(mpq_class(-1'000'000), 128);
  const Interval expected = Interval(mpq_class(-500'000'000'000L), 128) -
                            log(Interval(1'000'000L, 128)) -
                            mul_2si(log(mul_2si(pi_interval(128), 1)), -1);
  // The Mills-ratio factor is 1 - 1e-12 + ..., so log is within 2e-12 of `expected`.
  EXPECT_TRUE(certainly_less(lb, expected));
  EXPECT_TRUE(certainly_less(expected - mpq_class(2, 1'000'000'000'000L), lb));
}

TEST(Normal, AsymptoticAndDirectAgree) {
  // At t = 2^20 + 1 the asymptotic series is used; at slightly less, erfc. Both must contain the
  // true value, and log Q is continuous, so the two brackets at the same point (via an interval
  // straddling the threshold) must overlap with the direct evaluation.
  for (long t : {(1L << 20), (1L << 20) + 1, 3'000'000L}) {
    const Interval series = log_normal_sf(Interval(mpq_class(t), 256));
    const Interval direct = log(normal_sf(Interval(mpq_class(t), 256)));
    EXPECT_NO_THROW((void)intersect(series, direct)) << t;
    EXPECT_LE(relative_width_log2(series), -200) << t;
  }
  // Beyond MPFR's exponent range Phi underflows but log Phi does not.
  const mpq_class huge = -mpq_class(mpz_class("100000000000"));  // -1e11
  const Interval lp = log_normal_cdf(huge, 128);
  EXPECT_TRUE(lp.is_finite());
  EXPECT_LE(relative_width_log2(lp), -100);
  const Interval p = normal_cdf(huge, 128);
  EXPECT_TRUE(p.is_nonnegative());  // [0, tiny]: certified even though it underflowed
}

TEST(Normal, MillsRatio) {
  // R(0) = sqrt(pi/2) = 1.2533141373155002512...
  const Interval r0 = mills_ratio(mpq_class(0), 128);
  EXPECT_TRUE(lower_above(r0, parse_rational("t", "1.25331413731550025")));
  EXPECT_TRUE(upper_at_most(r0, parse_rational("t", "1.25331413731550026")));
  // Huge arguments: R(t) ~ 1/t - 1/t^3, no underflow.
  const mpq_class big(mpz_class("1" + std::string(200, '0')));
  const Interval rb = mills_ratio(big, 128) * big;
  EXPECT_TRUE(rb.contains(1L) || upper_at_most(rb, mpq_class(1)));
  EXPECT_TRUE(lower_above(rb, parse_rational("t", "0.9999999999")));
  // Negative arguments: R(-t) = (1 - Q(t)) / phi(t).
  const Interval rn = mills_ratio(mpq_class(-3), 200);
  const Interval expected = normal_cdf(mpq_class(3), 300) / normal_pdf(Interval(-3L, 300));
  EXPECT_NO_THROW((void)intersect(rn, expected));
}

// The continued fraction (t >= 6) against MPFR's erfc directly at high precision: two
// independent algorithms for Q(t).
RC_GTEST_PROP(NormalProperty, ContinuedFractionMatchesErfc, ()) {
  const mpq_class t = *test_support::rational_in(mpq_class(6), mpq_class(300));
  const Interval cf = normal_sf(t, 160);  // continued-fraction path
  Interval u = Interval(t, 2000) * inv_sqrt2_interval(2000);
  const Interval direct = mul_2si(erfc(u), -1);  // MPFR erfc at 2000 bits
  (void)intersect(cf, direct);
  RC_ASSERT(relative_width_log2(cf) <= -140);
  (void)intersect(mills_ratio(t, 160), direct / normal_pdf(Interval(t, 2000)));
}

RC_GTEST_PROP(NormalProperty, MonotoneAndNested, ()) {
  const mpq_class a = *test_support::rational_in(mpq_class(-60), mpq_class(60));
  const mpq_class b = a + *test_support::positive_rational(1);
  const Interval pa = normal_cdf(a, 96), pb = normal_cdf(b, 96);
  RC_ASSERT(!certainly_less(pb, pa));  // Phi increasing
  const Interval pa_hi = normal_cdf(a, 600);
  RC_ASSERT(pa.contains(pa_hi));
  RC_ASSERT(log_normal_cdf(a, 96).contains(log(pa_hi)));
  RC_ASSERT(normal_sf(Interval(a, 96)).contains(normal_cdf(mpq_class(-a), 600)));
}

}  // namespace
}  // namespace exactdp::accounting
