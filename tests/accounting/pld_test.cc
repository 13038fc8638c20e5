// pld_test.cc — the pld route (accounting/pld/*): exact composition, certified discretisation,
// containment of exact values.
//   * Kronecker convolution equals the naive O(n^2) convolution with the same rounding, on
//     random inputs (both sides).
//   * Randomized response (pure eps-DP, two atoms on the grid): the k-fold composition's delta
//     has an exact binomial form (Kairouz-Oh-Viswanath); the upper chain's delta is >= it and
//     the lower chain's <= it at several eps; a deliberately broken upper chain (masses rounded
//     DOWN) falls below it and is caught.
//   * Gaussian: k-fold mu-GDP is mu sqrt(k)-GDP, whose delta(eps) is certified by
//     gaussian_profile.h; the pld interval contains it.
//   * One Poisson-subsampled Gaussian step: the exact delta(eps) of each dominating pair has a
//     closed form in normal cdfs (certified here with normal.h); the pld interval contains it.
#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/accounting/pld/pld_test_bound.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace pld_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using pld::DiscretePld;
using pld::Side;

constexpr mpfr_prec_t kP = 256;

// [lo, hi] contains the (enclosed) true value t: lo <= t.upper and t.lower <= hi.
::testing::AssertionResult brackets(const Interval& answer_lower_end, const Interval& answer_upper_end,
                                    const Interval& truth) {
  if (mpfr_cmp(answer_lower_end.lower(), truth.upper()) > 0) {
    return ::testing::AssertionFailure() << "lower end " << mpfr_get_d(answer_lower_end.lower(), MPFR_RNDN)
                                         << " above the truth " << mpfr_get_d(truth.upper(), MPFR_RNDN);
  }
  if (mpfr_cmp(answer_upper_end.upper(), truth.lower()) < 0) {
    return ::testing::AssertionFailure() << "upper end " << mpfr_get_d(answer_upper_end.upper(), MPFR_RNDN)
                                         << " below the truth " << mpfr_get_d(truth.lower(), MPFR_RNDN);
  }
  return ::testing::AssertionSuccess();
}

RC_GTEST_PROP(PldComposition, KroneckerEqualsNaiveConvolution, ()) {
  const Side side = *rc::gen::element(Side::kUpper, Side::kLower);
  const auto masses = [](std::size_t n) {
    return rc::gen::container<std::vector<std::uint64_t>>(
        n, rc::gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 60));
  };
  DiscretePld a, b;
  a.side = b.side = side;
  a.masses = *masses(*rc::gen::inRange<std::size_t>(1, 60));
  b.masses = *masses(*rc::gen::inRange<std::size_t>(1, 60));
  a.first_index = *rc::gen::inRange<long>(-50, 50);
  b.first_index = *rc::gen::inRange<long>(-50, 50);
  a.infinity_mass = *rc::gen::inRange<std::uint64_t>(0, 1000);
  b.infinity_mass = *rc::gen::inRange<std::uint64_t>(0, 1000);
  const DiscretePld fast = pld::compose(a, b, 500);  // tail_bits 500: no truncation
  DiscretePld slow = pld::compose_naive(a, b);
  // compose() drops zero coefficients at both ends (a lower-side product below one unit
  // rounds to 0); do the same to the naive result before comparing.
  pld::trim_zero_ends(slow);
  RC_ASSERT(fast.first_index == slow.first_index);
  RC_ASSERT(fast.masses == slow.masses);
  RC_ASSERT(fast.infinity_mass == slow.infinity_mass);
}

// Randomized response with epsilon e0 = 1/2 on the grid step 1/10: losses +-1/2 with P-masses
// p = e^e0 / (1 + e^e0) and 1 - p.
DiscretePld randomized_response(Side side) {
  DiscretePld d;
  d.side = side;
  d.steps_per_unit = 10;
  d.scale_bits = 60;
  d.first_index = -5;
  d.masses.assign(11, 0);
  const Interval e = exp(Interval(mpq_class(1, 2), kP));
  const Interval p = e / (e + mpq_class(1));
  const Interval one_minus_p = mpq_class(1) - p;
  const bool up = side == Side::kUpper;
  const auto fixed = [&](const Interval& x) {
    mpfr_t y;
    mpfr_init2(y, kP);
    mpfr_mul_2ui(y, up ? x.upper() : x.lower(), 60, up ? MPFR_RNDU : MPFR_RNDD);
    mpz_class z;
    mpfr_get_z(z.get_mpz_t(), y, up ? MPFR_RNDU : MPFR_RNDD);
    mpfr_clear(y);
    return static_cast<std::uint64_t>(mpz_get_ui(z.get_mpz_t()));
  };
  d.masses[10] = fixed(p);
  d.masses[0] = fixed(one_minus_p);
  return d;
}

// KOV: delta(eps) of k-fold randomized response.
Interval exact_rr_delta(unsigned k, const mpq_class& eps) {
  const Interval e = exp(Interval(mpq_class(1, 2), kP));
  const Interval p = e / (e + mpq_class(1));
  Interval sum(0L, kP);
  mpz_class binom(1);
  for (unsigned i = 0; i <= k; ++i) {
    const mpq_class loss = mpq_class(static_cast<long>(k) - 2 * static_cast<long>(i), 2);
    if (loss > eps) {
      Interval term(binom, kP);
      for (unsigned j = 0; j < k - i; ++j) term = term * p;
      for (unsigned j = 0; j < i; ++j) term = term * (mpq_class(1) - p);
      sum = sum + term * (mpq_class(1) - exp(Interval(eps - loss, kP)));
    }
    binom = binom * (k - i) / (i + 1);
  }
  return sum;
}

TEST(PldComposition, RandomizedResponseBracketsTheExactComposition) {
  const unsigned k = 20;
  const DiscretePld hi = pld::self_compose(randomized_response(Side::kUpper), k, 500);
  const DiscretePld lo = pld::self_compose(randomized_response(Side::kLower), k, 500);
  // A deliberately broken upper chain: every mass rounded DOWN (initial masses and products),
  // i.e. the lower chain's arithmetic offered as an upper bound.
  DiscretePld broken_one = randomized_response(Side::kLower);
  const DiscretePld broken = pld::self_compose(broken_one, k, 500);
  for (const char* e : {"0", "1/2", "1", "3", "6"}) {
    const mpq_class eps(e);
    const Interval truth = exact_rr_delta(k, eps);
    const Interval u = pld::delta_at(hi, eps, kP), l = pld::delta_at(lo, eps, kP);
    EXPECT_TRUE(brackets(l, u, truth)) << "eps = " << e;
    // Tight: the upper end is within 2^-50 of the truth.
    Interval gap = u - truth;
    EXPECT_LT(mpfr_get_d(gap.upper(), MPFR_RNDU), 1e-15) << e;
    // The broken chain (rounded down where it must round up) is caught: below the truth.
    const Interval b = pld::delta_at(broken, eps, kP);
    EXPECT_LT(mpfr_cmp(b.upper(), truth.lower()), 0) << "broken upper chain not caught at eps = " << e;
  }
  // epsilon at delta: the upper chain's grid answer has delta <= target, the lower's > target.
  const mpq_class target(1, 1000);
  const auto eu = pld::epsilon_at(hi, target, kP);
  ASSERT_TRUE(eu.has_value());
  EXPECT_LE(mpfr_cmp_q(exact_rr_delta(k, *eu).lower(), target.get_mpq_t()), 0);
  const auto el = pld::epsilon_at(lo, target, kP);
  EXPECT_GT(mpfr_cmp_q(exact_rr_delta(k, *el).upper(), target.get_mpq_t()), 0);
  EXPECT_LE(*el, *eu);
}

// k-fold Gaussian with mu = 1/2 is (mu sqrt k)-GDP: its exact delta lies in the pld interval,
// and the epsilon bracket at delta = 1e-5 straddles the exact epsilon (about 9.995).
TEST(PldRoute, GaussianCompositionContainsTheExactProfile) {
  const unsigned long k = 16;  // mu sqrt(k) = 2
  pld::PldOptions o;
  o.discretization.steps_per_unit = 1000;
  const RdpComposition events{{RdpEvent::plain(laws::gdp_event(mpq_class(1, 2))), k}};
  const mpq_class eps(2);
  const pld::PldAnswer a = pld::pld_delta(events, eps, Neighbouring::kAddRemove, o);
  EXPECT_TRUE(brackets(a.value, a.value, gdp_delta_at(eps, mpq_class(2), kP)));
  const mpq_class target(1, 100000);
  const pld::PldAnswer ea = pld::pld_epsilon(events, target, Neighbouring::kAddRemove, o);
  const mpq_class lo = to_mpq(ea.value.lower()), hi = to_mpq(ea.value.upper());
  EXPECT_LE(mpfr_cmp_q(gdp_delta_at(hi, mpq_class(2), kP).upper(), target.get_mpq_t()), 0) << "upper end";
  EXPECT_GT(mpfr_cmp_q(gdp_delta_at(lo, mpq_class(2), kP).lower(), target.get_mpq_t()), 0) << "lower end";
  EXPECT_LT(hi - lo, mpq_class(1, 50));
}

// delta(eps) of mu-GDP for an enclosed mu: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).
Interval gdp_delta_at_mu(const mpq_class& eps, const Interval& mu) {
  const Interval a = Interval(-eps, kP) / mu;
  const Interval half = mu / mpq_class(2);
  return normal_cdf(a + half) - exp(Interval(eps, kP)) * normal_cdf(a - half);
}

// Many steps: 2000-fold Gaussian with mu = 1/20 is (sqrt(5))-GDP. Rounding every step's loss
// down by up to a grid step (1/1000) would lose about 1 in epsilon; the test bound must not.
TEST(PldRoute, ManyStepsLowerEndStaysTight) {
  const unsigned long k = 2000;
  pld::PldOptions o;
  o.discretization.steps_per_unit = 1000;
  const RdpComposition events{{RdpEvent::plain(laws::gdp_event(mpq_class(1, 20))), k}};
  const mpq_class target(1, 100000);
  const pld::PldAnswer ea = pld::pld_epsilon(events, target, Neighbouring::kAddRemove, o);
  const Interval mu = sqrt(Interval(5L, kP));
  const mpq_class lo = to_mpq(ea.value.lower()), hi = to_mpq(ea.value.upper());
  EXPECT_LE(mpfr_cmp_q(gdp_delta_at_mu(hi, mu).upper(), target.get_mpq_t()), 0) << "upper end";
  EXPECT_GT(mpfr_cmp_q(gdp_delta_at_mu(lo, mu).lower(), target.get_mpq_t()), 0) << "lower end";
  EXPECT_LT(hi - lo, mpq_class(1, 100)) << mpfr_get_d(ea.value.lower(), MPFR_RNDD) << " " << mpfr_get_d(ea.value.upper(), MPFR_RNDU);
}

// The lower end's Q chain must be an UPPER bound: halving its masses (a chain rounded the
// wrong way, grossly) pushes the test bound above the exact 2-GDP delta, and the containment
// check catches it.
TEST(PldRoute, ABrokenQChainIsCaught) {
  const unsigned long k = 16;
  pld::DiscretizationOptions o;
  o.steps_per_unit = 1000;
  const auto one = pld::discretize(RdpEvent::plain(laws::gdp_event(mpq_class(1, 2))), pld::PairOrder::kRemove,
                                   Neighbouring::kAddRemove, o);
  const pld::DiscretePld p = pld::self_compose(one.test_p, k, 44);
  const pld::DiscretePld q = pld::self_compose(one.test_q, k, 44);
  pld::DiscretePld broken = q;
  for (auto& m : broken.masses) m /= 2;
  for (const char* e : {"1/2", "1", "2"}) {
    const mpq_class eps(e);
    const Interval truth = gdp_delta_at(eps, mpq_class(2), kP);
    const Real good = pld::test_delta_lower(p, q, eps, kP), bad = pld::test_delta_lower(p, broken, eps, kP);
    EXPECT_LE(mpfr_cmp(good.get(), truth.upper()), 0) << e;
    EXPECT_GT(mpfr_cmp(bad.get(), truth.upper()), 0) << "broken Q chain not caught at eps = " << e;
  }
}

// Tilted chains: truncated mass is never placed on a grid point (an untilted Q-mass far below
// the kept range would be huge there): it goes to anywhere_mass, with the cross terms.
TEST(PldComposition, TiltedTruncationGoesToAnywhereMass) {
  pld::DiscretePld a;
  a.side = pld::Side::kUpper;
  a.steps_per_unit = 10;
  a.scale_bits = 60;
  a.tilted = true;
  a.tilt_half_steps = 1;
  a.first_index = -5;
  a.masses = {1, 1, std::uint64_t{1} << 59, std::uint64_t{1} << 59, 1};
  const pld::DiscretePld c = pld::compose(a, a, 56);  // budget 2^(120-56) = 2^64 units at 2^-120
  EXPECT_EQ(c.tilt_half_steps, 2);
  EXPECT_EQ(c.infinity_mass, 0u);
  EXPECT_GT(c.anywhere_mass, 0u);
  EXPECT_LT(c.masses.size(), 9u);  // the dust at both ends was truncated
  const pld::DiscretePld n = pld::compose_naive(a, a);
  EXPECT_EQ(n.masses.size(), 9u);
}

// One step of the Poisson-subsampled Gaussian (sigma = 1, q = 1/10): the dominating pairs'
// exact deltas (closed forms in normal cdfs, with x(eps) the loss-eps point) lie in the
// discretised intervals; the route's answer is the larger of the two orders.
Interval remove_delta(const mpq_class& mu, const mpq_class& q, const mpq_class& eps) {
  // P = (1-q) N(0,1) + q N(mu,1) vs Q = N(0,1): L > eps iff x > x_e,
  // delta = (1-q) sf(x_e) + q sf(x_e - mu) - e^eps sf(x_e).
  const Interval x = (log((exp(Interval(eps, kP)) - (1 - q)) / q) + mu * mu / 2) / mu;
  return normal_sf(x) * mpq_class(1 - q) + normal_sf(x - mu) * q - exp(Interval(eps, kP)) * normal_sf(x);
}
Interval add_delta(const mpq_class& mu, const mpq_class& q, const mpq_class& eps) {
  // P = N(0,1) vs Q = the mixture: L > eps iff x < x_e (when e^-eps > 1 - q, else delta = 0),
  // delta = cdf(x_e) - e^eps ((1-q) cdf(x_e) + q cdf(x_e - mu)).
  const Interval base = exp(Interval(-eps, kP)) - (1 - q);
  if (mpfr_sgn(base.upper()) <= 0) return Interval(0L, kP);
  const Interval x = (log(base / q) + mu * mu / 2) / mu;
  return normal_cdf(x) - exp(Interval(eps, kP)) * (normal_cdf(x) * mpq_class(1 - q) + normal_cdf(x - mu) * q);
}

TEST(PldRoute, OneSubsampledStepContainsTheExactDelta) {
  const mpq_class mu(1), q(1, 10);
  const RdpEvent event = RdpEvent::poisson_gaussian(mpq_class(1), q);
  pld::DiscretizationOptions o;
  o.steps_per_unit = 1000;
  const auto rem = pld::discretize(event, pld::PairOrder::kRemove, Neighbouring::kAddRemove, o);
  const auto add = pld::discretize(event, pld::PairOrder::kAdd, Neighbouring::kAddRemove, o);
  const auto lower = [](const pld::DiscretizedEvent& d, const mpq_class& eps) {
    const Real l = pld::test_delta_lower(d.test_p, d.test_q, eps, kP);
    return Interval::point(l.get(), kP);
  };
  for (const char* e : {"0", "1/200", "1/20", "1/2", "1"}) {
    const mpq_class eps(e);
    const Interval truth_remove = remove_delta(mu, q, eps), truth_add = add_delta(mu, q, eps);
    EXPECT_TRUE(brackets(lower(rem, eps), pld::delta_at(rem.upper, eps, kP), truth_remove)) << e;
    EXPECT_TRUE(brackets(lower(add, eps), pld::delta_at(add.upper, eps, kP), truth_add)) << e;
    // and the lower end means something: within 1 % of the truth at these eps (one step)
    if (mpfr_cmp_d(truth_remove.lower(), 1e-6) > 0) {
      EXPECT_GT(mpfr_get_d(lower(rem, eps).lower(), MPFR_RNDD), 0.99 * mpfr_get_d(truth_remove.lower(), MPFR_RNDD)) << e;
    }
  }
  const pld::PldAnswer a = pld::pld_delta({{event, 1}}, mpq_class(1, 20), Neighbouring::kAddRemove, {o, 44});
  EXPECT_TRUE(brackets(a.value, a.value, max(remove_delta(mu, q, mpq_class(1, 20)), add_delta(mu, q, mpq_class(1, 20)))));
}

TEST(PldRoute, RefusesWhatItCannotDiscretise) {
  const RdpComposition zcdp{{RdpEvent::plain(laws::zcdp_event(mpq_class(1))), 3}};
  EXPECT_THROW((void)pld::pld_epsilon(zcdp, mpq_class(1, 100000)), exactdp::ParameterError);
  const RdpComposition pure{{RdpEvent::plain(laws::pure_dp_event(mpq_class(1))), 3}};
  EXPECT_THROW((void)pld::pld_epsilon(pure, mpq_class(1, 100000)), exactdp::ParameterError);
  const RdpComposition sub{{RdpEvent::poisson_gaussian(mpq_class(1), mpq_class(1, 10)), 3}};
  EXPECT_THROW((void)pld::pld_epsilon(sub, mpq_class(0)), exactdp::ParameterError);
  // discretize() itself takes subsampled events under add/remove only (replace-one goes through
  // the accountant's group bound, pld_replace_one_test.cc).
  EXPECT_THROW((void)pld::discretize(sub.front().first, pld::PairOrder::kRemove, Neighbouring::kReplaceOne, {}),
               exactdp::ParameterError);
}

}  // namespace pld_test
}  // namespace
}  // namespace exactdp::accounting

namespace exactdp::accounting {
namespace {
namespace pld_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

// The default grid follows the total count: 1/5000, then 1/2500 at the stated thresholds,
// without overflowing on counts near the 10^12 limit.
TEST(PldRoute, DefaultGridFollowsTheCount) {
  const RdpEvent e = RdpEvent::poisson_gaussian(mpq_class(1), mpq_class(1, 100));
  EXPECT_EQ(pld::default_steps_per_unit({{e, 1}}), 5000u);
  EXPECT_EQ(pld::default_steps_per_unit({{e, 3000}, {e, 2000}}), 5000u);
  EXPECT_EQ(pld::default_steps_per_unit({{e, 3000}, {e, 2001}}), 2500u);
  EXPECT_EQ(pld::default_steps_per_unit({{e, 50001}}), 2500u);
  EXPECT_EQ(pld::default_steps_per_unit({{e, 1'000'000'000'000UL}, {e, 1'000'000'000'000UL}}), 2500u);
}

}  // namespace pld_test
}  // namespace
}  // namespace exactdp::accounting
