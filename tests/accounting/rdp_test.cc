// RDP accounting (accounting/rdp.h, rdp_accountant.h): closed forms against independent
// recomputations (MPFR at 2000 bits by the plain binomial sum, Mironov's unfactored Laplace
// form, and numerical integration of the sampled Gaussian's divergence in double precision),
// the q = 1 reduction to the Gaussian, validity against the exact single-step delta(eps) of the
// dominating pair, reference epsilons from mpmath, monotonicity, and a deliberately broken
// formula that the integration check rejects.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace rdp_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

mpq_class q_of(const char* s) { return parse_rational("t", s); }

double mid(const Interval& x) {
  return 0.5 * (mpfr_get_d(x.lower(), MPFR_RNDN) + mpfr_get_d(x.upper(), MPFR_RNDN));
}

// ---- independent references ---------------------------------------------------------------

// log(A_alpha)/(alpha-1) by the plain binomial sum at 2000 bits (round-to-nearest): an
// approximation within ~2^-1900 relative of the exact value.
void binomial_sum_reference(const mpq_class& mu, const mpq_class& q,
                              unsigned long alpha, mpfr_t out) {
  const mpfr_prec_t p = 2000;
  mpfr_t sum, t, e;
  mpfr_inits2(p, sum, t, e, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_zero(sum, 1);
  for (unsigned long k = 0; k <= alpha; ++k) {
    mpz_class bin;
    mpz_bin_uiui(bin.get_mpz_t(), alpha, k);
    mpq_class coeff = mpq_class(bin);
    for (unsigned long i = 0; i < alpha - k; ++i) coeff *= (1 - q);
    for (unsigned long i = 0; i < k; ++i) coeff *= q;
    const mpq_class expo = mpq_class(mpz_class(k * k - k)) * mu * mu / 2;
    mpfr_set_q(e, expo.get_mpq_t(), MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_mul_q(t, e, coeff.get_mpq_t(), MPFR_RNDN);
    mpfr_add(sum, sum, t, MPFR_RNDN);
  }
  mpfr_log(sum, sum, MPFR_RNDN);
  mpfr_div_ui(sum, sum, alpha - 1, MPFR_RNDN);
  mpfr_set_prec(out, p);
  mpfr_set(out, sum, MPFR_RNDN);
  mpfr_clears(sum, t, e, static_cast<mpfr_ptr>(nullptr));
}

// Simpson's rule on [lo, hi] with n (even) panels.
double simpson(const std::function<double(double)>& f, double lo, double hi, int n) {
  const double h = (hi - lo) / n;
  double s = f(lo) + f(hi);
  for (int i = 1; i < n; ++i) s += f(lo + i * h) * (i % 2 == 1 ? 4 : 2);
  return s * h / 3;
}

double normal_pdf(double x, double m, double s) {
  return std::exp(-(x - m) * (x - m) / (2 * s * s)) / (s * std::sqrt(2 * M_PI));
}

// D_alpha(mix || N(0, s^2)) for mix = (1-q) N(0,s^2) + q N(1,s^2), by numerical integration of
// E_{N(0,s^2)}[L^alpha] with the likelihood ratio L(x) = (1-q) + q e^{(2x-1)/(2 s^2)}.
double integrated_rdp(double q, double s, int alpha) {
  const auto f = [&](double x) {
    const double l = (1 - q) + q * std::exp((2 * x - 1) / (2 * s * s));
    return normal_pdf(x, 0, s) * std::pow(l, alpha);
  };
  // The integrand's mass lies within a few s of 0 .. alpha/(s^2)*s^2 = alpha.
  const double lo = -40 * s, hi = 40 * s + alpha;
  return std::log(simpson(f, lo, hi, 100'000)) / (alpha - 1);
}

// The exact delta(eps) of one step for the dominating pair in the order (P, Q):
// integral of max(0, P - e^eps Q).
double integrated_delta(double q, double s, double eps, bool mixture_first) {
  const auto f = [&](double x) {
    const double n0 = normal_pdf(x, 0, s), n1 = normal_pdf(x, 1, s);
    const double mix = (1 - q) * n0 + q * n1;
    const double v = mixture_first ? mix - std::exp(eps) * n0 : n0 - std::exp(eps) * mix;
    return v > 0 ? v : 0.0;
  };
  return simpson(f, -40 * s, 40 * s + 1, 100'000);
}

// Whether an RDP function agrees with the integration within a margin.
bool agrees_with_integration(const std::function<double(double, double, int)>& rdp, double q,
                             double s, int alpha) {
  const double want = integrated_rdp(q, s, alpha);
  const double got = rdp(q, s, alpha);
  return std::abs(got - want) <= 1e-7 * std::max(1e-6, std::abs(want));
}

// ---- single events ------------------------------------------------------------------------

TEST(RdpTest, PoissonGaussianMatchesBinomialSumAt2000Bits) {
  mpfr_t ref;
  mpfr_init2(ref, 2000);
  for (const char* qs : {"0.01", "1/3", "0.5", "0.999"}) {
    for (const char* sig : {"0.5", "1", "4.5"}) {
      for (const unsigned long alpha : {2UL, 3UL, 7UL, 32UL, 100UL}) {
        const mpq_class q = q_of(qs), mu = 1 / q_of(sig);
        const Interval v = poisson_gaussian_rdp(mu, q, alpha, 128);
        binomial_sum_reference(mu, q, alpha, ref);
        // ref is within 2^-1900 (relative) of the exact value, which v contains.
        EXPECT_LE(mpfr_cmp(v.lower(), ref), 0) << qs << " " << sig << " " << alpha;
        EXPECT_GE(mpfr_cmp(v.upper(), ref), 0) << qs << " " << sig << " " << alpha;
        EXPECT_LT(relative_width_log2(v), -100) << v.debug_string();
      }
    }
  }
  mpfr_clear(ref);
}

TEST(RdpTest, PoissonGaussianMatchesNumericalIntegration) {
  const auto ours = [](double q, double s, int alpha) {
    return mid(poisson_gaussian_rdp(1 / q_of(std::to_string(s).c_str()),
                                    q_of(std::to_string(q).c_str()),
                                    static_cast<unsigned long>(alpha), 128));
  };
  for (const double q : {0.01, 0.1, 0.5}) {
    for (const double s : {0.8, 1.0, 2.0}) {
      for (const int alpha : {2, 3, 5, 8}) {
        EXPECT_TRUE(agrees_with_integration(ours, q, s, alpha)) << q << " " << s << " " << alpha;
      }
    }
  }
}

// The check above has power: the sum with e^{k^2 mu^2/2} in place of e^{(k^2-k) mu^2/2} (an
// easy slip) is rejected at every point where the other test passes.
TEST(RdpTest, BrokenBinomialSumIsRejectedByIntegration) {
  const auto broken = [](double q, double s, int alpha) {
    double a = 0;
    for (int k = 0; k <= alpha; ++k) {
      a += std::tgamma(alpha + 1) / (std::tgamma(k + 1) * std::tgamma(alpha - k + 1)) *
           std::pow(1 - q, alpha - k) * std::pow(q, k) * std::exp(k * k / (2 * s * s));
    }
    return std::log(a) / (alpha - 1);
  };
  for (const double q : {0.01, 0.1, 0.5}) {
    for (const double s : {0.8, 1.0, 2.0}) {
      for (const int alpha : {2, 3, 5, 8}) {
        EXPECT_FALSE(agrees_with_integration(broken, q, s, alpha)) << q << " " << s << " " << alpha;
      }
    }
  }
}

TEST(RdpTest, QEqualOneIsTheGaussian) {
  for (const unsigned long alpha : {2UL, 9UL, 4096UL}) {
    const Interval v = poisson_gaussian_rdp(mpq_class(3, 2), mpq_class(1), alpha, 128);
    EXPECT_TRUE(v.contains(mpq_class(mpz_class(alpha)) * mpq_class(9, 8)));
  }
  // And close to 1 the subsampled value approaches it from below.
  const Interval near = poisson_gaussian_rdp(mpq_class(1), q_of("0.999999"), 10, 128);
  const Interval gauss = gaussian_rdp(mpq_class(1), 10, 128);
  EXPECT_TRUE(certainly_less(near, gauss));
  EXPECT_LT(mpfr_get_d(gauss.lower(), MPFR_RNDN) - mpfr_get_d(near.upper(), MPFR_RNDN), 1e-3);
}

TEST(RdpTest, LaplaceMatchesMironovUnfactoredForm) {
  for (const char* es : {"0.001", "0.1", "1", "7"}) {
    for (const unsigned long alpha : {2UL, 3UL, 10UL, 50UL}) {
      const mpq_class eps = q_of(es);
      const Interval v = laplace_rdp(eps, alpha, 128);
      // Mironov 2017 Prop. 6 as printed, at 1000 bits, round-to-nearest.
      mpfr_t a, b, e;
      mpfr_inits2(1000, a, b, e, static_cast<mpfr_ptr>(nullptr));
      const double al = static_cast<double>(alpha);
      mpfr_set_q(e, eps.get_mpq_t(), MPFR_RNDN);
      mpfr_mul_d(a, e, al - 1, MPFR_RNDN);
      mpfr_exp(a, a, MPFR_RNDN);
      const mpq_class aq{mpz_class(alpha)};
      const mpq_class c1 = aq / (2 * aq - 1), c2 = (aq - 1) / (2 * aq - 1);
      mpfr_mul_q(a, a, c1.get_mpq_t(), MPFR_RNDN);
      mpfr_mul_d(b, e, -al, MPFR_RNDN);
      mpfr_exp(b, b, MPFR_RNDN);
      mpfr_mul_q(b, b, c2.get_mpq_t(), MPFR_RNDN);
      mpfr_add(a, a, b, MPFR_RNDN);
      mpfr_log(a, a, MPFR_RNDN);
      mpfr_div_d(a, a, al - 1, MPFR_RNDN);
      // The reference is within ~2^-900 of the exact value; compare the double midpoints.
      const double want = mpfr_get_d(a, MPFR_RNDN);
      EXPECT_NEAR(mid(v), want, 1e-14 * want) << es << " " << alpha;
      EXPECT_TRUE(v.is_nonnegative());
      EXPECT_TRUE(upper_at_most(v, eps));
      mpfr_clears(a, b, e, static_cast<mpfr_ptr>(nullptr));
    }
  }
}

// Pure eps-DP gives RDP min(alpha eps^2 / 2, eps) (Bun & Steinke 2016, Prop. 1.4: eps^2/2-zCDP).
// Where the zCDP term is the smaller (alpha eps < 2) it is the bound, exactly; EventKinds below
// checks the other side (eps = 1, alpha = 5). A halved zCDP term (an unsound bound: it would
// under-charge every pure-DP step of a composition) is caught only here.
TEST(RdpTest, PureDpBoundIsTheZcdpTermWhereThatIsSmaller) {
  const mpq_class eps(1, 10);
  for (const auto& [alpha, want] : {std::pair{2UL, mpq_class(1, 100)}, std::pair{5UL, mpq_class(1, 40)},
                                    std::pair{20UL, mpq_class(1, 10)}, std::pair{100UL, mpq_class(1, 10)}}) {
    const Interval direct = pure_dp_rdp_bound(eps, mpq_class(alpha), 128);
    EXPECT_TRUE(direct.contains(want)) << "alpha " << alpha;
    const Interval event = RdpEvent::plain(laws::pure_dp_event(eps)).rdp(alpha, Neighbouring::kAddRemove, 128);
    EXPECT_TRUE(event.contains(want)) << "alpha " << alpha;
  }
}

TEST(RdpTest, EventKinds) {
  const Interval g = RdpEvent::plain(laws::gaussian_event(mpq_class(2))).rdp(4, Neighbouring::kAddRemove, 128);
  EXPECT_TRUE(g.contains(mpq_class(1, 2)));  // 4 * (1/2)^2 / 2
  const Interval dg =
      RdpEvent::plain(laws::discrete_gaussian_event(mpq_class(4))).rdp(3, Neighbouring::kAddRemove, 128);
  EXPECT_TRUE(dg.contains(mpq_class(3, 8)));
  const Interval pure = RdpEvent::plain(laws::pure_dp_event(mpq_class(1))).rdp(
      5, Neighbouring::kAddRemove, 128);
  EXPECT_TRUE(pure.contains(1L));  // min(1, 5/2), the bound's value
  EXPECT_TRUE(pure.is_point());
  EXPECT_FALSE(RdpEvent::plain(laws::pure_dp_event(mpq_class(1))).rdp_is_exact());
  const RdpEvent sg = RdpEvent::poisson_gaussian(mpq_class(1), q_of("0.01"));
  EXPECT_TRUE(sg.rdp_is_exact());
  EXPECT_THROW((void)sg.rdp(5, Neighbouring::kReplaceOne, 128), ParameterError);
  EXPECT_THROW((void)sg.rdp(1, Neighbouring::kAddRemove, 128), ParameterError);
  EXPECT_THROW((void)RdpEvent::poisson_gaussian(mpq_class(1), mpq_class(0)), ParameterError);
  EXPECT_THROW((void)RdpEvent::poisson_gaussian(mpq_class(1), q_of("1.5")), ParameterError);
  EXPECT_THROW((void)RdpEvent::poisson_gaussian(q_of("1e-4"), q_of("0.5")), ParameterError);
}

// ---- composition and conversion -----------------------------------------------------------

// mpmath (60 digits): min over the integer orders 2..256 of Balle et al. Thm 21 for
// q = 0.01, sigma = 1, delta = 1e-5 (the optimum is at order 8 and 4, inside the default set);
// the integer set is passed explicitly (by default one fractional order is added:
// rdp_fractional_test.cc).
TEST(RdpAccountantTest, DpSgdReferenceValues) {
  struct Row {
    unsigned long steps;
    const char* eps;
    unsigned long order;
  };
  for (const Row& row : {Row{1000, "2.10775307545156529446", 8}, Row{10000, "6.71940211793923219195", 4}}) {
    const RdpComposition events = {{RdpEvent::poisson_gaussian(mpq_class(1), q_of("0.01")), row.steps}};
    const RdpAnswer a = rdp_epsilon(events, q_of("1e-5"), Neighbouring::kAddRemove, {}, default_rdp_orders());
    const mpq_class ref = q_of(row.eps), margin = q_of("1e-19");
    EXPECT_TRUE(upper_at_most(a.value.value, ref + margin)) << a.value.value.debug_string();
    EXPECT_FALSE(upper_at_most(a.value.value, ref - margin)) << a.value.value.debug_string();
    EXPECT_TRUE(a.value.tolerance_met);
    EXPECT_EQ(a.order, row.order);
    EXPECT_TRUE(a.exact_rdp);
  }
}

// Validity: for one step, the certified RDP delta(eps) is >= the exact delta of the dominating
// pair in both orders (numerical integration, relative accuracy far below the 1e-6 margin).
TEST(RdpAccountantTest, SingleStepDeltaBoundsTheExactDelta) {
  for (const double q : {0.01, 0.2, 1.0}) {
    for (const double s : {0.7, 1.0, 2.0}) {
      for (const char* es : {"0.05", "0.5", "1.5"}) {
        const RdpComposition events = {
            {RdpEvent::poisson_gaussian(q_of(std::to_string(s).c_str()), q_of(std::to_string(q).c_str())), 1}};
        const RdpAnswer a = rdp_delta(events, q_of(es));
        const double eps = std::stod(es);
        const double exact = std::max(integrated_delta(q, s, eps, true), integrated_delta(q, s, eps, false));
        EXPECT_GE(mpfr_get_d(a.value.value.upper(), MPFR_RNDD), exact * (1 + 1e-6))
            << q << " " << s << " " << es;
      }
    }
  }
}

// For plain Gaussians the exact composed epsilon is the mu-GDP one: RDP's bound is above it and
// not absurdly so; q = 1 gives the plain Gaussian's answer.
TEST(RdpAccountantTest, GaussianAgainstExactGdp) {
  for (const unsigned long k : {1UL, 100UL, 2500UL}) {
    const RdpComposition plain = {{RdpEvent::plain(laws::gaussian_event(mpq_class(5))), k}};
    const RdpAnswer a = rdp_epsilon(plain, q_of("1e-6"));
    mpz_class root;
    mpz_sqrt(root.get_mpz_t(), mpz_class(k).get_mpz_t());
    ASSERT_EQ(root * root, mpz_class(k));
    const Certified exact = gdp_epsilon(mpq_class(root, 5), q_of("1e-6"));
    EXPECT_TRUE(certainly_less(exact.value, a.value.value)) << k;
    EXPECT_LT(mid(a.value.value), 1.3 * mid(exact.value)) << k;
    const RdpComposition sub = {{RdpEvent::poisson_gaussian(mpq_class(5), mpq_class(1)), k}};
    const RdpAnswer b = rdp_epsilon(sub, q_of("1e-6"));
    EXPECT_TRUE(b.value.value.contains(a.value.value) || a.value.value.contains(b.value.value));
  }
}

TEST(RdpAccountantTest, ConversionFormulaAtOneOrder) {
  // tau = 1, alpha = 10, delta = 1e-5: 1 + log(0.9) - (log 1e-5 + log 10)/9.
  const Interval e = rdp_to_epsilon(Interval(1L, 128), 10, q_of("1e-5"));
  const double want = 1 + std::log(0.9) - (std::log(1e-5) + std::log(10.0)) / 9;
  EXPECT_NEAR(mid(e), want, 1e-14);
  // delta at that epsilon is delta again (the two conversions are inverse at one order).
  const Interval d = rdp_to_delta(Interval(1L, 128), 10, to_mpq(e.upper()));
  EXPECT_TRUE(upper_at_most(d, q_of("1e-5")));
  EXPECT_NEAR(mid(d), 1e-5, 1e-18);
  // Clamps: a huge delta leaves epsilon at 0; a tiny tau at large epsilon leaves delta <= 1.
  EXPECT_TRUE(rdp_to_epsilon(Interval(0L, 128), 2, q_of("0.9")).contains(0L));
  EXPECT_TRUE(upper_at_most(rdp_to_delta(Interval(50L, 128), 2, mpq_class(0)), mpq_class(1)));
}

// Events known only by an upper bound (pure DP, zCDP) give a narrow interval around the route's
// bound, so the precision loop stops at once (it ran to the 65536-bit cap when the lower end
// was the uninformative 0).
TEST(RdpAccountantTest, BoundOnlyEventsMeetTheTolerance) {
  const RdpComposition events = {{RdpEvent::plain(laws::pure_dp_event(q_of("1e300"))), 7},
                                 {RdpEvent::plain(laws::zcdp_event(q_of("0.5"))), 3}};
  const RdpAnswer a = rdp_epsilon(events, q_of("1e-5"));
  EXPECT_TRUE(a.value.tolerance_met);
  EXPECT_FALSE(a.exact_rdp);
  EXPECT_LE(a.value.precision, 256);
}

TEST(RdpAccountantTest, BadInput) {
  const RdpComposition events = {{RdpEvent::poisson_gaussian(mpq_class(1), q_of("0.01")), 10}};
  EXPECT_THROW((void)rdp_epsilon(events, mpq_class(0)), ParameterError);
  EXPECT_THROW((void)rdp_epsilon(events, mpq_class(1)), ParameterError);
  EXPECT_THROW((void)rdp_delta(events, mpq_class(-1)), ParameterError);
  EXPECT_THROW((void)rdp_epsilon({}, q_of("1e-5")), ParameterError);
  const RdpComposition zero = {{RdpEvent::poisson_gaussian(mpq_class(1), q_of("0.01")), 0}};
  EXPECT_THROW((void)rdp_epsilon(zero, q_of("1e-5")), ParameterError);
  EXPECT_THROW((void)rdp_epsilon(events, q_of("1e-5"), Neighbouring::kReplaceOne), ParameterError);
}

TEST(RdpAccountantTest, CalibrateDpSgd) {
  const DpSgdCalibration c = calibrate_dp_sgd(q_of("0.01"), 1000, mpq_class(2), q_of("1e-5"));
  EXPECT_TRUE(c.width_met);
  EXPECT_LT(c.sigma_lower, c.sigma_upper);
  EXPECT_TRUE(upper_at_most(c.epsilon_at_upper, mpq_class(2)));
  EXPECT_TRUE(lower_above(c.epsilon_at_lower, mpq_class(2)));
  // Recheck with the accountant itself: sigma_upper meets the target, sigma_lower does not.
  const RdpAnswer at_hi =
      rdp_epsilon({{RdpEvent::poisson_gaussian(c.sigma_upper, q_of("0.01")), 1000}}, q_of("1e-5"));
  EXPECT_TRUE(upper_at_most(at_hi.value.value, mpq_class(2)));
  const RdpAnswer at_lo =
      rdp_epsilon({{RdpEvent::poisson_gaussian(c.sigma_lower, q_of("0.01")), 1000}}, q_of("1e-5"));
  EXPECT_TRUE(lower_above(at_lo.value.value, mpq_class(2)));
  // sigma = 1 gives 2.108 > 2, so the answer is a little above 1.
  EXPECT_GT(c.sigma_lower, mpq_class(1));
  EXPECT_LT(c.sigma_upper, q_of("1.1"));
  EXPECT_THROW((void)calibrate_dp_sgd(mpq_class(0), 10, mpq_class(1), q_of("1e-5")), ParameterError);
  EXPECT_THROW((void)calibrate_dp_sgd(q_of("0.01"), 0, mpq_class(1), q_of("1e-5")), ParameterError);
}

// ---- properties ---------------------------------------------------------------------------

// Monotone: more sampling or less noise never proves a SMALLER divergence; bounded by the
// Gaussian's value; valid intervals.
RC_GTEST_PROP(RdpProperties, SampledGaussianMonotoneAndBounded, ()) {
  const mpq_class q1(*rc::gen::inRange(1, 1000), 1000);
  const mpq_class q2 = q1 + mpq_class(*rc::gen::inRange(1, 1000), 1'000'000);
  const mpq_class sigma(*rc::gen::inRange(30, 500), 100);
  const mpq_class sigma2 = sigma + mpq_class(*rc::gen::inRange(1, 100), 100);
  const unsigned long alpha = *rc::gen::inRange(2, 65);
  const Interval v1 = poisson_gaussian_rdp(1 / sigma, q1, alpha, 128);
  const Interval v2 = poisson_gaussian_rdp(1 / sigma, q2 > 1 ? mpq_class(1) : q2, alpha, 128);
  const Interval v3 = poisson_gaussian_rdp(1 / sigma2, q1, alpha, 128);
  RC_ASSERT(v1.is_valid() && v1.is_nonnegative());
  RC_ASSERT(!certainly_less(v2, v1));  // increasing in q
  RC_ASSERT(!certainly_less(v1, v3));  // decreasing in sigma
  RC_ASSERT(!certainly_less(gaussian_rdp(1 / sigma, alpha, 128), v1));
}

RC_GTEST_PROP(RdpProperties, EpsilonMonotoneInCount, ()) {
  const mpq_class q(*rc::gen::inRange(1, 100), 1000);
  const unsigned long n = *rc::gen::inRange(1, 5000);
  const unsigned long extra = *rc::gen::inRange(1, 5000);
  const std::vector<unsigned long> orders = {2, 4, 8, 16, 32, 64};
  const RdpAnswer a = rdp_epsilon({{RdpEvent::poisson_gaussian(mpq_class(1), q), n}}, q_of("1e-5"),
                                  Neighbouring::kAddRemove, {}, orders);
  const RdpAnswer b = rdp_epsilon({{RdpEvent::poisson_gaussian(mpq_class(1), q), n + extra}},
                                  q_of("1e-5"), Neighbouring::kAddRemove, {}, orders);
  RC_ASSERT(!certainly_less(b.value.value, a.value.value));
}

}  // namespace rdp_test
}  // namespace
}  // namespace exactdp::accounting
