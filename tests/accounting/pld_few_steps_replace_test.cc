// accounting/pld/pld_few_steps.h under REPLACE-ONE: a few Poisson-subsampled Gaussian steps
// through the wide-mass chain of the proven +Delta/-Delta dominating pair (pld_replace_pair.h)
// and the wide test pair of the same records (pld_replace_instance.h).
//   * k = 1: the bracket contains the one-step closed form (subsampled_gaussian_replace_exact.h);
//   * k = 2: an INDEPENDENT certified reference, a one-dimensional Riemann sum with interval
//     arithmetic written here: delta_2(eps) = E_{x ~ P}[delta_1(eps - L(x))] for the pair
//     P = (1-q) N(0,1) + q N(mu,1), Q = (1-q) N(0,1) + q N(-mu,1) (one order: the pair is its own
//     reflection), delta_1(eps') = P(x > X(eps')) - e^eps' Q(x > X(eps')) at the root X of the
//     increasing loss L, decreasing in eps', so cell by cell the loss at the cell's far (near)
//     end gives an upper (lower) Riemann sum. Two certified brackets of the same number must
//     intersect; with a wrong q (1/90 against 1/100), or the add/remove pair in place of the
//     replace-one pair, they do not (the check can fail);
//   * the epsilon bracket is consistent with the reference's delta brackets;
//   * plain events under replace-one are their own pair (the same bracket as under add/remove).
// No timing asserts (BENCHMARKS.md has the timings).
#include <gtest/gtest.h>

#include <optional>

#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/pld/pld_few_steps.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/subsampled_gaussian_replace_exact.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace pld_few_steps_replace_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kP = 128;
const pld::FewStepsOptions kCoarse{500};  // where tightness is not what is checked
constexpr Neighbouring kReplace = Neighbouring::kReplaceOne;

bool overlap(const Interval& a, const Interval& b) {
  return mpfr_lessequal_p(a.lower(), b.upper()) && mpfr_lessequal_p(b.lower(), a.upper());
}

double relative_width(const Interval& x) {
  return (mpfr_get_d(x.upper(), MPFR_RNDU) - mpfr_get_d(x.lower(), MPFR_RNDD)) / mpfr_get_d(x.upper(), MPFR_RNDU);
}

Interval point(mpfr_srcptr x) { return Interval::from_ends(x, x, kP); }

// One replace-one step in units of sigma: P = a N(0,1) + q N(mu,1), Q = a N(0,1) + q N(-mu,1).
struct ReplaceStep {
  mpq_class mu, q;

  [[nodiscard]] Interval loss(const mpq_class& x) const {
    const mpq_class a = 1 - q, m2 = mu * mu / 2;
    return log(exp(Interval(mu * x - m2, kP)) * q + a) - log(exp(Interval(-mu * x - m2, kP)) * q + a);
  }
  // delta_1(eps') for a real eps' (an interval: the result encloses delta_1 over all of it, as
  // delta_1 is monotone and the formula is evaluated in interval arithmetic). The optimal set is
  // x > X(eps'): u = e^(mu X) solves c u^2 - a (E - 1) u - c E = 0, E = e^eps', c = q e^(-mu^2/2).
  [[nodiscard]] Interval delta(const Interval& eps) const {
    const mpq_class a = 1 - q;
    const Interval e = exp(eps), c = exp(Interval(-mu * mu / 2, kP)) * q;
    const Interval t = (e - mpq_class(1)) * a;
    const Interval u = (t + sqrt(square(t) + square(c) * e * mpq_class(4))) / (c * mpq_class(2));
    const Interval x = log(u) / mu;
    const Interval p_tail = normal_sf(x) * a + normal_sf(x - mu) * q;
    const Interval q_tail = normal_sf(x) * a + normal_sf(x + mu) * q;
    return max(p_tail - e * q_tail, Interval(0L, kP));
  }
};

// Certified [lower, upper] of the two-step delta(eps) by Riemann sums over x-cells of width h
// on [-x_max, x_max + mu] under P; the rest bounded by its P-mass (upper) or dropped (lower).
Interval two_step_reference(const ReplaceStep& s, const mpq_class& eps, const mpq_class& h, const mpq_class& x_max) {
  const mpq_class a = 1 - s.q;
  const mpq_class first = -x_max, last = x_max + s.mu;
  const auto cdf_p = [&](const mpq_class& x) { return normal_cdf(x, kP) * a + normal_cdf(x - s.mu, kP) * s.q; };
  Interval lo(0L, kP), hi = cdf_p(first) + (Interval(1L, kP) - cdf_p(last));
  const Interval e(eps, kP);
  Interval f = cdf_p(first), l_a = s.loss(first);
  for (mpq_class x = first; x < last; x += h) {
    const Interval g = cdf_p(x + h), l_b = s.loss(x + h);
    const Interval mass = max(g - f, Interval(0L, kP));
    hi = hi + mass * s.delta(e - point(l_b.upper()));  // the largest loss in the cell
    lo = lo + mass * s.delta(e - point(l_a.lower()));  // the smallest
    f = g;
    l_a = l_b;
  }
  return Interval::from_ends(lo.lower(), hi.upper(), kP);
}

RdpComposition steps(const mpq_class& sigma, const mpq_class& q, unsigned long k) {
  return {{RdpEvent::poisson_gaussian(sigma, q), k}};
}

TEST(FewStepsReplaceOne, OneStepContainsTheClosedForm) {
  const mpq_class mu(5, 4), q(1, 100);
  for (const mpq_class& eps : {mpq_class(4), mpq_class(1, 2), mpq_class(0)}) {
    const Interval exact = subsampled_gaussian_replace_delta(mu, q, eps, 256);
    const Interval few = pld::few_steps_delta(steps(mpq_class(4, 5), q, 1), eps, kReplace, kCoarse).value;
    EXPECT_TRUE(overlap(exact, few)) << eps;
    EXPECT_LT(relative_width(few), 1e-2) << eps;
  }
  const std::optional<Certified> exact = subsampled_gaussian_replace_epsilon(mu, q, mpq_class(1, 100000));
  ASSERT_TRUE(exact);
  EXPECT_TRUE(overlap(exact->value,
                      pld::few_steps_epsilon(steps(mpq_class(4, 5), q, 1), mpq_class(1, 100000), kReplace, kCoarse).value));
}

TEST(FewStepsReplaceOne, TwoStepsAgreeWithAnIndependentQuadrature) {
  const ReplaceStep s{mpq_class(5, 4), mpq_class(1, 100)};  // sigma = 0.8
  const mpq_class eps(4);
  const Interval reference = two_step_reference(s, eps, mpq_class(1, 100), mpq_class(10));
  EXPECT_LT(relative_width(reference), 5e-2);
  const Interval few = pld::few_steps_delta(steps(mpq_class(4, 5), s.q, 2), eps, kReplace).value;
  EXPECT_TRUE(overlap(reference, few));
  EXPECT_LT(relative_width(few), 1e-3);
  // Deliberately wrong answers are rejected by the same check: q = 1/90, and the add/remove pair.
  EXPECT_FALSE(overlap(reference, pld::few_steps_delta(steps(mpq_class(4, 5), mpq_class(1, 90), 2), eps, kReplace,
                                                       kCoarse).value));
  EXPECT_FALSE(overlap(reference, pld::few_steps_delta(steps(mpq_class(4, 5), s.q, 2), eps,
                                                       Neighbouring::kAddRemove, kCoarse).value));
}

TEST(FewStepsReplaceOne, TwoStepsAtSigma2AgreeWithTheQuadrature) {
  const ReplaceStep s{mpq_class(1, 2), mpq_class(1, 100)};  // sigma = 2
  const mpq_class eps(1, 2);
  const Interval reference = two_step_reference(s, eps, mpq_class(1, 100), mpq_class(10));
  const Interval few = pld::few_steps_delta(steps(mpq_class(2), s.q, 2), eps, kReplace, kCoarse).value;
  EXPECT_TRUE(overlap(reference, few));
  EXPECT_LT(relative_width(few), 1e-2);
}

TEST(FewStepsReplaceOne, TwoStepsEpsilonIsConsistentWithTheQuadrature) {
  // At the epsilon bracket's upper end the true delta is <= the target, at its lower end >=: the
  // reference's lower (upper) end there must not contradict that.
  const ReplaceStep s{mpq_class(1, 2), mpq_class(1, 100)};  // sigma = 2
  const mpq_class delta(1, 100000);
  const Interval e = pld::few_steps_epsilon(steps(mpq_class(2), s.q, 2), delta, kReplace).value;
  EXPECT_LT(relative_width(e), 1e-2);
  const Interval at_upper = two_step_reference(s, to_mpq(e.upper()), mpq_class(1, 100), mpq_class(10));
  const Interval at_lower = two_step_reference(s, to_mpq(e.lower()), mpq_class(1, 100), mpq_class(10));
  EXPECT_LE(mpfr_cmp_q(at_upper.lower(), delta.get_mpq_t()), 0);
  EXPECT_GE(mpfr_cmp_q(at_lower.upper(), delta.get_mpq_t()), 0);
}

TEST(FewStepsReplaceOne, PlainEventsAreTheirOwnPair) {
  // A plain Gaussian's sensitivity is the relation's: the same bracket under both relations.
  const RdpComposition plain{{RdpEvent::plain(laws::gaussian_event(mpq_class(2))), 3}};
  ASSERT_TRUE(pld::few_steps_applies(plain, kReplace));
  const Interval rep = pld::few_steps_delta(plain, mpq_class(1, 2), kReplace, kCoarse).value;
  const Interval ar = pld::few_steps_delta(plain, mpq_class(1, 2), Neighbouring::kAddRemove, kCoarse).value;
  EXPECT_TRUE(mpfr_equal_p(rep.lower(), ar.lower()));
  EXPECT_TRUE(mpfr_equal_p(rep.upper(), ar.upper()));
}

}  // namespace pld_few_steps_replace_test
}  // namespace
}  // namespace exactdp::accounting
