// Certified RDP of the Poisson-subsampled discrete Gaussian and discrete Laplace
// (accounting/rdp_subsampled_discrete.h): against brute-force sums over the integers written
// here (both pair orders, the larger taken), and the limits that send an event to the pld route.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_subsampled_discrete.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace rdp_subsampled_discrete_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kP = 160;

// max over the two orders of 1/(alpha-1) log E_Q0[y^power], y = (1-q) + q Q1/Q0, summed over
// x in [-500, 500] (the laws used here put below 10^-60 outside), by direct PMF evaluation.
Interval brute_rdp(const std::vector<Interval>& q0, const std::vector<Interval>& q1, const mpq_class& q,
                   const mpq_class& a) {
  Interval rem(0L, kP), add(0L, kP);
  for (std::size_t i = 0; i < q0.size(); ++i) {
    const Interval mix = q0[i] * (1 - q) + q1[i] * q;
    const Interval y = mix / q0[i];
    rem = rem + q0[i] * exp(log(y) * a);
    add = add + q0[i] * exp(log(y) * (1 - a));
  }
  return max(log(rem), log(add)) / (a - 1);
}

void pmfs(bool gaussian, const mpq_class& param, long delta, std::vector<Interval>& q0, std::vector<Interval>& q1) {
  Interval z(0L, kP);
  for (long x = -500; x <= 500; ++x) {
    const auto w = [&](long v) {
      return gaussian ? exp(-Interval(mpq_class(v * v) / (2 * param), kP))
                      : exp(-Interval(mpq_class(std::labs(v)) / param, kP));
    };
    q0.push_back(w(x));
    q1.push_back(w(x - delta));
    z = z + w(x);
  }
  for (auto& v : q0) v = v / z;
  for (auto& v : q1) v = v / z;
}

::testing::AssertionResult overlaps(const Interval& a, const Interval& b) {
  if (mpfr_cmp(a.lower(), b.upper()) > 0 || mpfr_cmp(a.upper(), b.lower()) < 0) {
    return ::testing::AssertionFailure() << mpfr_get_d(a.lower(), MPFR_RNDN) << " vs " << mpfr_get_d(b.lower(), MPFR_RNDN);
  }
  return ::testing::AssertionSuccess();
}

TEST(RdpSubsampledDiscrete, MatchesBruteForceSums) {
  const mpq_class q(1, 20);
  std::vector<Interval> g0, g1, l0, l1;
  pmfs(true, mpq_class(3), 2, g0, g1);
  pmfs(false, mpq_class(3, 2), 2, l0, l1);
  const PrivacyEvent dg = laws::discrete_gaussian_event(mpq_class(3), 2);
  const PrivacyEvent dl = laws::discrete_laplace_event(mpq_class(3, 2), 2);
  for (unsigned long alpha : {2UL, 3UL, 8UL, 40UL}) {
    const Interval a = poisson_discrete_rdp(dg, q, alpha, kP);
    EXPECT_TRUE(overlaps(a, brute_rdp(g0, g1, q, mpq_class(mpz_class(alpha))))) << "dg alpha " << alpha;
    mpfr_t w;
    mpfr_init2(w, kP);
    mpfr_sub(w, a.upper(), a.lower(), MPFR_RNDU);
    mpfr_div(w, w, a.lower(), MPFR_RNDU);
    EXPECT_LT(mpfr_get_d(w, MPFR_RNDU), 1e-30) << "relative width at alpha " << alpha;  // a certified value, not a bound
    mpfr_clear(w);
    const Interval b = poisson_discrete_rdp(dl, q, alpha, kP);
    EXPECT_TRUE(overlaps(b, brute_rdp(l0, l1, q, mpq_class(mpz_class(alpha))))) << "dl alpha " << alpha;
  }
}

// The discrete Gaussian at integer sensitivity: its remove-order divergence is the Gaussian's
// (the shifted theta sum equals the normaliser), and here the add order is below it.
TEST(RdpSubsampledDiscrete, DiscreteGaussianEqualsTheSampledGaussianAtIntegerShift) {
  const mpq_class q(1, 100);
  const RdpEvent dg = RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(4), 2), q);
  const RdpEvent g = RdpEvent::poisson_gaussian(mpq_class(1), q);  // mu = 1 = 2 / sqrt(4)
  for (unsigned long alpha : {2UL, 5UL, 32UL}) {
    EXPECT_TRUE(overlaps(dg.rdp(alpha, Neighbouring::kAddRemove, kP), g.rdp(alpha, Neighbouring::kAddRemove, kP)))
        << alpha;
  }
}

// Fractional orders: the same brute-force sums at real powers (the discrete Gaussian's remove
// order is then a direct sum with a shifted-weight tail bound, not the binomial identity).
TEST(RdpSubsampledDiscrete, FractionalOrdersMatchBruteForceSums) {
  const mpq_class q(1, 20);
  std::vector<Interval> g0, g1, l0, l1;
  pmfs(true, mpq_class(3), 2, g0, g1);
  pmfs(false, mpq_class(3, 2), 2, l0, l1);
  const RdpEvent dg = RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(3), 2), q);
  const RdpEvent dl = RdpEvent::poisson_subsampled(laws::discrete_laplace_event(mpq_class(3, 2), 2), q);
  for (const char* alpha : {"3/2", "27/4", "81/8", "65/2"}) {
    const mpq_class a(alpha);
    EXPECT_TRUE(dg.supports_order(a));
    EXPECT_TRUE(dg.rdp_is_exact_at(a));
    const Interval x = dg.rdp(a, Neighbouring::kAddRemove, kP);
    EXPECT_TRUE(overlaps(x, brute_rdp(g0, g1, q, a))) << "dg alpha " << alpha;
    const mpq_class one_in_1e30(mpz_class(1), mpz_class("1000000000000000000000000000000"));
    EXPECT_TRUE(upper_at_most(x - Interval::point(x.lower(), kP), to_mpq(x.lower()) * one_in_1e30))
        << "relative width at alpha " << alpha << ": " << x.debug_string();
    EXPECT_TRUE(overlaps(dl.rdp(a, Neighbouring::kAddRemove, kP), brute_rdp(l0, l1, q, a))) << "dl alpha " << alpha;
  }
  // q = 1: the plain event (the discrete Gaussian's fractional order is then its zCDP bound).
  const PrivacyEvent plain = laws::discrete_gaussian_event(mpq_class(3), 2);
  const RdpEvent all = RdpEvent::poisson_subsampled(plain, mpq_class(1));
  EXPECT_TRUE(overlaps(all.rdp(mpq_class(3, 2), Neighbouring::kAddRemove, kP),
                       RdpEvent::plain(plain).rdp(mpq_class(3, 2), Neighbouring::kAddRemove, kP)));
  EXPECT_FALSE(all.rdp_is_exact_at(mpq_class(3, 2)));
  EXPECT_TRUE(all.rdp_is_exact_at(mpq_class(3)));
}

TEST(RdpSubsampledDiscrete, LimitsSendTheEventToThePldRoute) {
  const mpq_class q(1, 100);
  EXPECT_TRUE(RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(2500), 1), q).has_rdp());
  const RdpEvent wide = RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(2501), 1), q);
  EXPECT_FALSE(wide.has_rdp());
  EXPECT_THROW((void)wide.rdp(2, Neighbouring::kAddRemove, kP), ParameterError);
  EXPECT_FALSE(RdpEvent::poisson_subsampled(laws::discrete_laplace_event(mpq_class(1), 1001), q).has_rdp());
  EXPECT_THROW((void)RdpEvent::poisson_subsampled(laws::discrete_laplace_event(mpq_class(1), 1), q)
                   .rdp(2, Neighbouring::kReplaceOne, kP),
               ParameterError);
}

}  // namespace rdp_subsampled_discrete_test
}  // namespace
}  // namespace exactdp::accounting
