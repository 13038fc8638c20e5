// accounting/pld/pld_few_steps.h and pld/wide_pld.h: a few composed steps with wide masses.
//   * the wide Kronecker convolution equals the naive one (exact integers, then rounded);
//   * k = 1: the bracket contains the closed forms (subsampled_gaussian_exact.h,
//     subsampled_discrete_gaussian_exact.h); discrete Laplace k = 3 the closed form of
//     discrete_laplace_exact.h;
//   * k = 2: an INDEPENDENT certified reference, a one-dimensional Riemann sum with interval
//     arithmetic: delta_2(eps) = E_{x ~ P}[delta_1(eps - L(x))] for each pair order, delta_1 the
//     one-step hockey-stick at any real eps' from its normal-tail form, decreasing in eps', and L
//     monotone in x, so cell by cell the loss at the cell's far (near) end gives an upper (lower)
//     Riemann sum. Two certified brackets of the same number must intersect; with a wrong q
//     (1/99 against 1/100) they do not (the check can fail);
//   * epsilon brackets consistent with the reference's delta brackets.
// No timing asserts (BENCHMARKS.md has the timings).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include <exactdp/accounting/discrete_laplace_exact.h>
#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/pld/pld_few_steps.h>
#include <exactdp/accounting/pld/wide_pld.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/subsampled_discrete_gaussian_exact.h>
#include <exactdp/accounting/subsampled_gaussian_exact.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace pld_few_steps_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kP = 128;
const pld::FewStepsOptions kCoarse{500};  // a coarser grid where tightness is not what is checked

bool overlap(const Interval& a, const Interval& b) {
  return mpfr_lessequal_p(a.lower(), b.upper()) && mpfr_lessequal_p(b.lower(), a.upper());
}

double relative_width(const Interval& x) {
  return (mpfr_get_d(x.upper(), MPFR_RNDU) - mpfr_get_d(x.lower(), MPFR_RNDD)) / mpfr_get_d(x.upper(), MPFR_RNDU);
}

// ---- the wide convolution ---------------------------------------------------------------------

std::vector<mpz_class> pseudo_random_masses(std::size_t n, unsigned bits, unsigned long seed) {
  gmp_randclass r(gmp_randinit_default);
  r.seed(seed);
  std::vector<mpz_class> m(n);
  for (std::size_t j = 0; j < n; ++j) m[j] = r.get_z_bits(1 + (j * 37 + seed) % bits);
  m.front() += 1;
  m.back() += 1;
  return m;
}

std::vector<mpz_class> naive(const std::vector<mpz_class>& a, const std::vector<mpz_class>& b) {
  std::vector<mpz_class> c(a.size() + b.size() - 1);
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
  }
  return c;
}

TEST(WidePld, ChainConvolutionIsExactThenRoundedUp) {
  constexpr unsigned s = 150;
  for (const unsigned long seed : {1UL, 2UL, 3UL}) {
    pld::WideChain a{1000, -7, s, pseudo_random_masses(300, 150, seed), mpz_class(5)};
    pld::WideChain b{1000, 4, s, pseudo_random_masses(211 + seed, 150, seed + 10), mpz_class(3)};
    const pld::WideChain c = pld::compose(a, b, 2 * s + 8);  // a budget of 0: nothing truncated
    const std::vector<mpz_class> want = naive(a.masses, b.masses);
    ASSERT_EQ(c.masses.size(), want.size());
    EXPECT_EQ(c.first_index, -3);
    EXPECT_EQ(c.infinity_mass, 8);
    for (std::size_t j = 0; j < want.size(); ++j) {
      mpz_class up;
      mpz_cdiv_q_2exp(up.get_mpz_t(), want[j].get_mpz_t(), s);
      ASSERT_EQ(c.masses[j], up) << j;
    }
  }
}

TEST(WidePld, TestPairConvolutionRoundsPDownQUp) {
  constexpr unsigned s = 100;
  pld::WideTestPair a{1000, 0, s, pseudo_random_masses(120, 100, 4), pseudo_random_masses(120, 100, 5)};
  const pld::WideTestPair c = pld::compose(a, a, 2 * s + 8);
  const std::vector<mpz_class> p = naive(a.p, a.p), q = naive(a.q, a.q);
  ASSERT_EQ(c.p.size(), p.size());
  for (std::size_t j = 0; j < p.size(); ++j) {
    mpz_class down, up;
    mpz_fdiv_q_2exp(down.get_mpz_t(), p[j].get_mpz_t(), s);
    mpz_cdiv_q_2exp(up.get_mpz_t(), q[j].get_mpz_t(), s);
    ASSERT_EQ(c.p[j], down) << j;
    ASSERT_EQ(c.q[j], up) << j;
  }
}

TEST(WidePld, DeltaAndEpsilonOfAKnownChain) {
  // Mass 1/2 at loss 1 and 1/2 at loss 0 (n = 1, s = 8): delta(eps) = (1 - e^(eps - 1)) / 2 for
  // 0 <= eps < 1.
  pld::WideChain c{1, 0, 8, {mpz_class(128), mpz_class(128)}, mpz_class(0)};
  const Real d = pld::delta_upper(c, mpq_class(1, 2));
  const Interval truth = (Interval(1L, 512) - exp(Interval(mpq_class(-1, 2), 512))) * mpq_class(1, 2);
  EXPECT_TRUE(mpfr_greaterequal_p(d.get(), truth.lower()));
  EXPECT_LT(mpfr_get_d(d.get(), MPFR_RNDU) - mpfr_get_d(truth.upper(), MPFR_RNDU), 1e-30);
  const std::optional<mpq_class> e = pld::epsilon_upper(c, mpq_class(1, 10));  // truth 1 + log(0.8)
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->get_d(), 1 + std::log(0.8), 1e-6);
  EXPECT_GE(e->get_d(), 1 + std::log(0.8));
}

// ---- the few-step route against closed forms (k = 1, discrete Laplace k = 3) ------------------

TEST(FewSteps, OneSubsampledGaussianStepContainsTheClosedForm) {
  const mpq_class mu(5, 4), q(1, 100);
  const RdpComposition events{{RdpEvent::poisson_gaussian(mpq_class(4, 5), q), 1}};
  for (const mpq_class& eps : {mpq_class(4), mpq_class(1, 2), mpq_class(0)}) {
    const Interval exact = subsampled_gaussian_delta(mu, q, eps, 256);
    const Interval few = pld::few_steps_delta(events, eps, Neighbouring::kAddRemove, kCoarse).value;
    EXPECT_TRUE(overlap(exact, few)) << eps;
    EXPECT_LT(relative_width(few), 1e-2) << eps;
  }
  const std::optional<Certified> exact = subsampled_gaussian_epsilon(mu, q, mpq_class(1, 100000));
  ASSERT_TRUE(exact);
  EXPECT_TRUE(overlap(exact->value, pld::few_steps_epsilon(events, mpq_class(1, 100000), Neighbouring::kAddRemove, kCoarse).value));
}

TEST(FewSteps, OneSubsampledDiscreteGaussianStepContainsTheClosedForm) {
  const mpq_class sigma2(4), q(1, 10);
  const RdpComposition events{
      {RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(sigma2, mpz_class(1)), q), 1}};
  for (const mpq_class& eps : {mpq_class(1, 4), mpq_class(1)}) {
    const Interval exact = subsampled_discrete_gaussian_delta(sigma2, mpz_class(1), q, eps, 256);
    const Interval few = pld::few_steps_delta(events, eps).value;
    EXPECT_TRUE(overlap(exact, few)) << eps;
    EXPECT_LT(relative_width(few), 1e-2) << eps;
  }
}

TEST(FewSteps, ThreeSubsampledDiscreteLaplaceStepsContainTheClosedForm) {
  const DiscreteLaplaceSteps steps{mpq_class(1, 2), mpz_class(1), mpq_class(1, 5), 3};
  const RdpComposition events{
      {RdpEvent::poisson_subsampled(laws::discrete_laplace_event(steps.scale, mpz_class(1)), steps.q), 3}};
  for (const mpq_class& eps : {mpq_class(1, 2), mpq_class(1)}) {
    const Interval exact = discrete_laplace_steps_delta(steps, eps, 256);
    const Interval few = pld::few_steps_delta(events, eps).value;
    EXPECT_TRUE(overlap(exact, few)) << eps;
  }
}

// ---- k = 2 against an independent certified quadrature ----------------------------------------

// One Poisson-subsampled Gaussian step in units of sigma (mu, q), any real eps' (an interval: the
// result encloses delta_1 over all of it, delta_1 being monotone).
struct Step {
  mpq_class mu, q;

  static Interval unit() { return hull(Interval(0L, kP), Interval(1L, kP)); }

  // remove: P = (1-q) N(0,1) + q N(mu,1) against N(0,1); the optimal set x > x1.
  [[nodiscard]] Interval remove(const Interval& eps) const {
    const Interval c = exp(eps);
    if (mpfr_cmp_q(c.upper(), mpq_class(1 - q).get_mpq_t()) <= 0) return Interval(1L, kP) - c;
    if (mpfr_cmp_q(c.lower(), mpq_class(1 - q).get_mpq_t()) <= 0) return unit();  // straddles 1 - q
    const Interval x1 = (log((c - (1 - q)) / q) + mu * mu / 2) / mu;
    return max(normal_sf(x1 - mu) * q - (c - (1 - q)) * normal_sf(x1), Interval(0L, kP));
  }
  // add: N(0,1) against the mixture; the optimal set x < x2 (empty when e^-eps' <= 1 - q).
  [[nodiscard]] Interval add(const Interval& eps) const {
    const Interval ci = exp(-eps);
    if (mpfr_cmp_q(ci.upper(), mpq_class(1 - q).get_mpq_t()) <= 0) return Interval(0L, kP);
    if (mpfr_cmp_q(ci.lower(), mpq_class(1 - q).get_mpq_t()) <= 0) return unit();  // straddles 1 - q
    const Interval x2 = (log((ci - (1 - q)) / q) + mu * mu / 2) / mu;
    const Interval mix = normal_cdf(x2) * (1 - q) + normal_cdf(x2 - mu) * q;
    return max(normal_cdf(x2) - exp(eps) * mix, Interval(0L, kP));
  }
  [[nodiscard]] Interval loss(const mpq_class& x) const {  // remove order; the add order's is its negative
    return log(exp(Interval(mu * x - mu * mu / 2, kP)) * q + (1 - q));
  }
};

// Certified [lower, upper] of the two-step delta(eps) (both orders) by Riemann sums over x-cells
// of width h on [-X, X + mu], the rest bounded by its mass (upper) or dropped (lower).
Interval two_step_reference(const Step& s, const mpq_class& eps, const mpq_class& h, const mpq_class& x_max) {
  Interval rem_lo(0L, kP), rem_hi(0L, kP), add_lo(0L, kP), add_hi(0L, kP);
  const Interval e(eps, kP);
  const mpq_class first = -x_max, last = x_max + s.mu;
  // tails: remove P-mass of x < first and x > last, add (N(0,1)) likewise; weight at most 1.
  const Interval tail_rem = normal_cdf(first, kP) + normal_sf(last - s.mu, kP);
  const Interval tail_add = normal_cdf(first, kP) + normal_sf(last, kP);
  rem_hi = rem_hi + tail_rem;
  add_hi = add_hi + tail_add;
  Interval f0 = normal_cdf(first, kP), f1 = normal_cdf(first - s.mu, kP);
  Interval l_a = s.loss(first);
  for (mpq_class a = first; a < last; a += h) {
    const mpq_class b = a + h;
    const Interval g0 = normal_cdf(b, kP), g1 = normal_cdf(b - s.mu, kP);
    const Interval l_b = s.loss(b);
    const Interval p0 = max(g0 - f0, Interval(0L, kP)), p1 = max(g1 - f1, Interval(0L, kP));
    const Interval p_mix = p0 * (1 - s.q) + p1 * s.q;
    // remove: loss increasing in x, delta_1(eps - L) increasing in L.
    rem_hi = rem_hi + p_mix * s.remove(e - Interval::from_ends(l_b.upper(), l_b.upper(), kP));
    rem_lo = rem_lo + p_mix * s.remove(e - Interval::from_ends(l_a.lower(), l_a.lower(), kP));
    // add: loss -L decreasing in x: its largest value in the cell at a.
    add_hi = add_hi + p0 * s.add(e + Interval::from_ends(l_a.lower(), l_a.lower(), kP));
    add_lo = add_lo + p0 * s.add(e + Interval::from_ends(l_b.upper(), l_b.upper(), kP));
    f0 = g0;
    f1 = g1;
    l_a = l_b;
  }
  const Interval lo = max(rem_lo, add_lo), hi = max(rem_hi, add_hi);
  return Interval::from_ends(lo.lower(), hi.upper(), kP);
}

TEST(FewSteps, TwoSubsampledGaussianStepsAgreeWithAnIndependentQuadrature) {
  const Step s{mpq_class(5, 4), mpq_class(1, 100)};  // sigma = 0.8
  const mpq_class eps(4);
  const Interval reference = two_step_reference(s, eps, mpq_class(1, 100), mpq_class(10));
  EXPECT_LT(relative_width(reference), 5e-2);
  const RdpComposition events{{RdpEvent::poisson_gaussian(mpq_class(4, 5), s.q), 2}};
  const Interval few = pld::few_steps_delta(events, eps).value;
  EXPECT_TRUE(overlap(reference, few));
  EXPECT_LT(relative_width(few), 1e-2);
  // A deliberately wrong answer (q = 1/90) is rejected by the same check.
  const RdpComposition wrong{{RdpEvent::poisson_gaussian(mpq_class(4, 5), mpq_class(1, 90)), 2}};
  EXPECT_FALSE(overlap(reference, pld::few_steps_delta(wrong, eps, Neighbouring::kAddRemove, kCoarse).value));
}

TEST(FewSteps, TwoStepsEpsilonIsConsistentWithTheQuadrature) {
  // At the epsilon bracket's upper end the true delta is <= the target, at its lower end >=: the
  // reference's lower (upper) end there must not contradict that.
  const Step s{mpq_class(1, 2), mpq_class(1, 100)};  // sigma = 2
  const mpq_class delta(1, 100000);
  const RdpComposition events{{RdpEvent::poisson_gaussian(mpq_class(2), s.q), 2}};
  const Interval e = pld::few_steps_epsilon(events, delta).value;
  EXPECT_LT(relative_width(e), 1e-2);
  const Interval at_upper = two_step_reference(s, to_mpq(e.upper()), mpq_class(1, 100), mpq_class(10));
  const Interval at_lower = two_step_reference(s, to_mpq(e.lower()), mpq_class(1, 100), mpq_class(10));
  EXPECT_LE(mpfr_cmp_q(at_upper.lower(), delta.get_mpq_t()), 0);
  EXPECT_GE(mpfr_cmp_q(at_lower.upper(), delta.get_mpq_t()), 0);
}

TEST(FewSteps, RefusesWhatItDoesNotCover) {
  const RdpComposition many{{RdpEvent::poisson_gaussian(mpq_class(1), mpq_class(1, 100)), pld::kFewStepsMaxCount + 1}};
  EXPECT_FALSE(pld::few_steps_applies(many, Neighbouring::kAddRemove));
  EXPECT_THROW((void)pld::few_steps_delta(many, mpq_class(1)), ParameterError);
  const RdpComposition two{{RdpEvent::poisson_gaussian(mpq_class(1), mpq_class(1, 100)), 2}};
  EXPECT_TRUE(pld::few_steps_applies(two, Neighbouring::kReplaceOne));  // its dominating pair is proven
  // Replace-one: a subsampled Laplace keeps the group bound (no proven pair); a plain event
  // beside a subsampled one is refused, as by the pld route.
  const RdpComposition laplace{
      {RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(2), 1), mpq_class(1, 100)), 2}};
  EXPECT_TRUE(pld::few_steps_applies(laplace, Neighbouring::kAddRemove));
  EXPECT_FALSE(pld::few_steps_applies(laplace, Neighbouring::kReplaceOne));
  EXPECT_THROW((void)pld::few_steps_delta(laplace, mpq_class(1), Neighbouring::kReplaceOne), ParameterError);
  const RdpComposition mixed{two[0], {RdpEvent::plain(laws::gaussian_event(mpq_class(2))), 1}};
  EXPECT_FALSE(pld::few_steps_applies(mixed, Neighbouring::kReplaceOne));
  EXPECT_THROW((void)pld::few_steps_epsilon(two, mpq_class(0)), ParameterError);
  EXPECT_THROW((void)pld::few_steps_delta(two, mpq_class(-1)), ParameterError);
  // Far over the budget even at step 1/250: LimitError naming count, before any work.
  const RdpComposition wide{{RdpEvent::poisson_gaussian(mpq_class(1, 20), mpq_class(1, 100)), 10}};
  EXPECT_THROW((void)pld::few_steps_delta(wide, mpq_class(1)), LimitError);
}

}  // namespace pld_few_steps_test
}  // namespace
}  // namespace exactdp::accounting
