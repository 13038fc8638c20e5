// The replace-one dominating pair of the Poisson-subsampled Gaussian (accounting/pld/
// pld_replace_pair.h; the theorem and its proof are in docs/ACCOUNTING.md). These tests check
// what can be checked numerically: (1) the chain's delta encloses the pair's closed-form delta
// (256-bit references, no accountant code) and stays within 1 % of it; (2) replace-one pairs with
// shifts a, b anywhere in the disc |a|, |b| <= Delta have (brute-force 2-D quadrature) a delta at
// most the certified upper end, while a pair OUTSIDE the relation (|a| = 1.5 Delta) exceeds it,
// so the comparison can fail; (3) a composed DP-SGD answer is a bracket under 1 % wide that lies
// inside the group bound's.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_replace_pair.h>
#include <exactdp/accounting/subsampled_gaussian_exact.h>
#include <exactdp/accounting/subsampled_gaussian_replace_exact.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace pld_replace_pair_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kRef = 256;

pld::PldOptions grid(unsigned long n) {
  pld::PldOptions o;
  o.discretization.steps_per_unit = n;
  return o;
}

// The pair's delta in closed form at 256 bits (round to nearest: a reference, not a bound): the
// loss is increasing, so delta(eps) = P(X > x*) - e^eps Q(X > x*) with x* = X(eps) (the root of
// c u^2 - a (e^eps - 1) u - c e^eps, u = e^(mu x*), a = 1 - q, c = q e^(-mu^2/2)).
double pair_delta(double mu, double q, double eps) {
  mpfr_t a, c, e, t, u, x, s, p, r, tmp;
  for (mpfr_ptr v : {a, c, e, t, u, x, s, p, r, tmp}) mpfr_init2(v, kRef);
  const auto tail = [&](mpfr_ptr out, mpfr_srcptr at, double shift) {  // 1 - Phi(at - shift)
    mpfr_sub_d(tmp, at, shift, MPFR_RNDN);
    mpfr_sqrt_ui(out, 2, MPFR_RNDN);
    mpfr_div(out, tmp, out, MPFR_RNDN);
    mpfr_erfc(out, out, MPFR_RNDN);
    mpfr_div_2ui(out, out, 1, MPFR_RNDN);
  };
  mpfr_set_d(a, 1 - q, MPFR_RNDN);
  mpfr_set_d(c, -mu * mu / 2, MPFR_RNDN);
  mpfr_exp(c, c, MPFR_RNDN);
  mpfr_mul_d(c, c, q, MPFR_RNDN);
  mpfr_set_d(e, eps, MPFR_RNDN);
  mpfr_exp(e, e, MPFR_RNDN);
  mpfr_sub_ui(t, e, 1, MPFR_RNDN);
  mpfr_mul(t, t, a, MPFR_RNDN);  // a (e^eps - 1)
  mpfr_sqr(u, t, MPFR_RNDN);
  mpfr_sqr(s, c, MPFR_RNDN);
  mpfr_mul(s, s, e, MPFR_RNDN);
  mpfr_mul_ui(s, s, 4, MPFR_RNDN);
  mpfr_add(u, u, s, MPFR_RNDN);
  mpfr_sqrt(u, u, MPFR_RNDN);
  mpfr_add(u, u, t, MPFR_RNDN);
  mpfr_div(u, u, c, MPFR_RNDN);
  mpfr_div_2ui(u, u, 1, MPFR_RNDN);
  mpfr_log(x, u, MPFR_RNDN);
  mpfr_div_d(x, x, mu, MPFR_RNDN);  // x*
  tail(s, x, 0);    // N(0,1) beyond x*
  tail(p, x, mu);   // N(mu,1)
  tail(r, x, -mu);  // N(-mu,1)
  mpfr_mul_d(p, p, q, MPFR_RNDN);
  mpfr_mul_d(r, r, q, MPFR_RNDN);
  mpfr_mul(tmp, s, a, MPFR_RNDN);
  mpfr_add(p, p, tmp, MPFR_RNDN);  // P(X > x*)
  mpfr_add(r, r, tmp, MPFR_RNDN);  // Q(X > x*)
  mpfr_mul(r, r, e, MPFR_RNDN);
  mpfr_sub(p, p, r, MPFR_RNDN);
  const double out = mpfr_get_d(p, MPFR_RNDN);
  for (mpfr_ptr v : {a, c, e, t, u, x, s, p, r, tmp}) mpfr_clear(v);
  return out;
}

TEST(PldReplacePair, ChainEnclosesTheClosedFormDelta) {
  for (const auto& [mu, q] : std::vector<std::pair<double, double>>{{1.0, 0.1}, {1.25, 0.01}, {0.5, 0.5}, {1.0, 1.0}}) {
    const RdpEvent event = RdpEvent::poisson_gaussian(mpq_class(1) / mpq_class(mu), mpq_class(q));
    pld::DiscretizationOptions o;
    o.steps_per_unit = 2000;
    const pld::DiscretePld chain = pld::discretize_replace_pair(event, o);
    for (const char* e : {"0", "1/4", "1", "2"}) {
      const mpq_class eps(e);
      const double exact = pair_delta(mu, q, eps.get_d());
      const double upper = mpfr_get_d(pld::delta_at(chain, eps).upper(), MPFR_RNDU);
      const std::string what = "mu=" + std::to_string(mu) + " q=" + std::to_string(q) + " eps=" + e;
      EXPECT_GE(upper, exact) << what;
      EXPECT_LE(upper, exact * 1.01 + 1e-17) << what;  // step 1/2000, one event
    }
  }
}

TEST(PldReplacePair, RefusesOtherEvents) {
  const RdpEvent laplace = RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(2), 1), mpq_class(1, 10));
  EXPECT_FALSE(pld::covers_replace_pair(laplace));
  EXPECT_TRUE(pld::covers_replace_pair(RdpEvent::poisson_gaussian(1, mpq_class(1, 10))));
  try {
    (void)pld::discretize_replace_pair(laplace, pld::DiscretizationOptions{});
    FAIL() << "a Laplace event has no proven replace-one pair here";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "route");
  }
}

// delta at e^eps = g of (1-q) N(0,I) + q N(a,I) against (1-q) N(0,I) + q N(b,I) in 2-D, by
// Simpson's rule on [-10, 10]^2 with 600 intervals per side (double precision; the kink where
// p = g r limits it to about 10^-4 relative, hence the 10^-3 margin below).
double brute_force_delta(double q, std::pair<double, double> a, std::pair<double, double> b, double g) {
  constexpr int kN = 600;
  constexpr double kLo = -10, kH = 20.0 / kN;
  const auto weight = [](int i) { return i == 0 || i == kN ? 1.0 : (i % 2 ? 4.0 : 2.0); };
  double total = 0;
  for (int i = 0; i <= kN; ++i) {
    const double x = kLo + i * kH;
    for (int j = 0; j <= kN; ++j) {
      const double y = kLo + j * kH;
      const double base = (1 - q) * std::exp(-(x * x + y * y) / 2);
      const double p = base + q * std::exp(-((x - a.first) * (x - a.first) + (y - a.second) * (y - a.second)) / 2);
      const double r = base + q * std::exp(-((x - b.first) * (x - b.first) + (y - b.second) * (y - b.second)) / 2);
      if (p > g * r) total += weight(i) * weight(j) * (p - g * r);
    }
  }
  return total * kH * kH / 9 / (2 * M_PI);
}

TEST(PldReplacePair, ReplaceOnePairsInTheDiscStayBelowTheUpperEnd) {
  // sigma = 1, Delta = 1, q = 1/5: shifts a (record x) and b (record x') with |a|, |b| <= 1.
  const double q = 0.2;
  const RdpComposition events{{RdpEvent::poisson_gaussian(1, mpq_class(1, 5)), 1}};
  const std::vector<std::pair<std::pair<double, double>, std::pair<double, double>>> pairs{
      {{1, 0}, {0, 1}},           // orthogonal, full length
      {{0.6, 0.8}, {-0.6, 0.8}},  // equal length, 106 degrees apart
      {{1, 0}, {-0.7, 0.1}},      // almost antipodal, unequal lengths
      {{0.3, -0.2}, {0.9, 0.1}},  // short and long
      {{1, 0}, {0, 0}},           // x' adds nothing: the add/remove pair
      {{0.995, 0.0998}, {-0.995, 0.0998}},  // near the antipodal pair
  };
  for (const char* e : {"0", "1/2"}) {
    const mpq_class eps(e);
    const pld::PldAnswer rep = pld::pld_delta(events, eps, Neighbouring::kReplaceOne, grid(1000));
    const double upper = mpfr_get_d(rep.value.upper(), MPFR_RNDU), g = std::exp(eps.get_d());
    for (const auto& [a, b] : pairs) {
      EXPECT_LE(brute_force_delta(q, a, b, g), upper * (1 + 1e-3))
          << "eps=" << e << " a=(" << a.first << "," << a.second << ") b=(" << b.first << "," << b.second << ")";
    }
    // The comparison can fail: a record adding 1.5 Delta is outside the relation and exceeds it.
    EXPECT_GT(brute_force_delta(q, {1.5, 0}, {-1, 0}, g), upper * 1.05) << "eps=" << e;
  }
}

TEST(PldReplacePair, ComposedDpSgdIsTightAndInsideTheGroupBound) {
  // 200 steps, q = 1/100, sigma = 1: the bracket is under 1 % wide; with one poisson-laplace
  // event of negligible effect added, the route falls back to the group bound, whose bracket
  // contains this one's upper end.
  const mpq_class delta("1/100000");
  const RdpComposition sgd{{RdpEvent::poisson_gaussian(1, mpq_class(1, 100)), 200}};
  const pld::PldAnswer pair = pld::pld_epsilon(sgd, delta, Neighbouring::kReplaceOne, grid(1000));
  const double lo = mpfr_get_d(pair.value.lower(), MPFR_RNDD), up = mpfr_get_d(pair.value.upper(), MPFR_RNDU);
  EXPECT_LT(lo, up);
  EXPECT_LT(up, lo * 1.01);
  RdpComposition mixed = sgd;
  mixed.push_back({RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(1000), 1), mpq_class(1, 100)), 1});
  const pld::PldAnswer group = pld::pld_epsilon(mixed, delta, Neighbouring::kReplaceOne, grid(1000));
  EXPECT_GT(mpfr_get_d(group.value.upper(), MPFR_RNDD), up * 1.05) << "the group bound is not tight";
}

// One step in closed form (subsampled_gaussian_replace_exact.h, the exact route): encloses the
// 256-bit reference with a relative width below 10^-20, lies inside the pld bracket, is above the
// add/remove profile (a closed form of the wrong pair would be caught), and epsilon(delta)
// round-trips. At sigma 2, eps 1 the pld answer is limited by its 2^-60 masses; this one is not.
TEST(PldReplacePair, OneStepClosedFormIsTheExactProfile) {
  for (const auto& [mu, q] : std::vector<std::pair<double, double>>{{1.25, 0.01}, {0.5, 0.01}, {1.0, 0.5}, {1.0, 1.0}}) {
    const mpq_class m = mpq_class(mu), qq = mpq_class(q);
    for (const char* e : {"0", "1/2", "1", "4"}) {
      const mpq_class eps(e);
      const std::string what = "mu=" + std::to_string(mu) + " q=" + std::to_string(q) + " eps=" + e;
      const Certified c = subsampled_gaussian_replace_delta(m, qq, eps, ZivOptions{});
      const double exact = pair_delta(mu, q, eps.get_d());
      const double lo = mpfr_get_d(c.value.lower(), MPFR_RNDD), up = mpfr_get_d(c.value.upper(), MPFR_RNDU);
      EXPECT_LE(lo, exact * (1 + 1e-12)) << what;
      EXPECT_GE(up, exact * (1 - 1e-12)) << what;
      EXPECT_TRUE(c.tolerance_met) << what;
      const double add_remove = mpfr_get_d(subsampled_gaussian_delta(m, qq, eps, 128).upper(), MPFR_RNDU);
      if (exact > 0) {
        EXPECT_GT(lo, add_remove) << what;
      }
    }
  }
  // sigma = 2, eps = 1: about 2.8e-27, far below the pld route's 2^-60 resolution.
  const Certified tiny = subsampled_gaussian_replace_delta(mpq_class(1, 2), mpq_class(1, 100), mpq_class(1), ZivOptions{});
  EXPECT_GT(mpfr_get_d(tiny.value.lower(), MPFR_RNDD), 2.7e-27);
  EXPECT_LT(mpfr_get_d(tiny.value.upper(), MPFR_RNDU), 2.9e-27);
  EXPECT_NEAR(mpfr_get_d(tiny.value.lower(), MPFR_RNDN), pair_delta(0.5, 0.01, 1.0), 1e-36);
  // epsilon at delta = 10^-5, sigma = 0.8: inside the pld bracket [0.49335, 0.493401] of the
  // default grid, and delta at its ends brackets 10^-5.
  const mpq_class delta(1, 100000);
  const std::optional<Certified> eps = subsampled_gaussian_replace_epsilon(mpq_class(5, 4), mpq_class(1, 100), delta);
  ASSERT_TRUE(eps.has_value());
  const double e_lo = mpfr_get_d(eps->value.lower(), MPFR_RNDD), e_up = mpfr_get_d(eps->value.upper(), MPFR_RNDU);
  EXPECT_GE(e_lo, 0.49335);
  EXPECT_LE(e_up, 0.493401);
  EXPECT_LE(pair_delta(1.25, 0.01, e_up), 1e-5 * (1 + 1e-9));
  EXPECT_GE(pair_delta(1.25, 0.01, e_lo), 1e-5 * (1 - 1e-9));
}

}  // namespace pld_replace_pair_test
}  // namespace
}  // namespace exactdp::accounting
