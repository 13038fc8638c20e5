// accounting/rdp_accountant.h: calibrate_dp_sgd (the rdp route of exactdp calibrate dp-sgd) at
// q = 0.01, 100 steps, epsilon = 1, delta = 10^-5, the case whose search evaluates the fractional
// orders most. The search decides most probes at 64 bits and one order at a time, placing them by
// interpolation (two probes around the estimated crossing); the answer is
// pinned: the bracket's ends, the order at the upper end, and epsilon there, rechecked with the
// fractional-order bound itself (containment of the printed value, upper end <= the target).
#include <gtest/gtest.h>

#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/rdp_fractional.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

mpq_class q_of(const char* s) { return parse_rational("t", s); }

// Whether x lies within [lo, hi] (the command line's 20 digits, rounded outward).
bool within(const Interval& x, const char* lo, const char* hi) {
  return mpfr_cmp_q(x.lower(), q_of(lo).get_mpq_t()) >= 0 && mpfr_cmp_q(x.upper(), q_of(hi).get_mpq_t()) <= 0;
}

TEST(DpSgdRdpRouteTest, HundredStepsAtEpsilonOneIsPinned) {
  const mpq_class q(1, 100), epsilon(1), delta(1, 100'000);
  const DpSgdCalibration c = calibrate_dp_sgd(q, 100, epsilon, delta);
  EXPECT_EQ(c.sigma_lower, mpq_class(18122625, 16777216));  // 1.0801926255226135253...
  EXPECT_EQ(c.sigma_upper, mpq_class(1132665, 1048576));    // 1.0801935195922851563...
  EXPECT_TRUE(c.width_met);
  EXPECT_EQ(c.order_at_upper, mpq_class(103, 10));
  // epsilon at the ends: upper end <= 1 at sigma_upper, lower end > 1 at sigma_lower, within the
  // command line's digits.
  EXPECT_LE(mpfr_cmp_ui(c.epsilon_at_upper.upper(), 1), 0);
  EXPECT_TRUE(within(c.epsilon_at_upper, "0.99999943101807879669", "0.9999994310180787967"));
  EXPECT_GT(mpfr_cmp_ui(c.epsilon_at_lower.lower(), 1), 0);
  EXPECT_TRUE(within(c.epsilon_at_lower, "1.0000014559252676864", "1.0000014559252676865"));
  // The order at the upper end proves it on its own.
  const Interval tau = sampled_gaussian_rdp_fractional(1 / c.sigma_upper, q, c.order_at_upper, kDefaultPrecision);
  const Interval eps = rdp_to_epsilon(tau * mpq_class(100), c.order_at_upper, delta);
  EXPECT_LE(mpfr_cmp_ui(eps.upper(), 1), 0);
  EXPECT_TRUE(within(eps, "0.99999943101807879669", "0.9999994310180787967"));
}

}  // namespace
}  // namespace exactdp::accounting
