// accounting/discrete_laplace_exact.h: k discrete Laplace steps (plain or Poisson-subsampled)
// from their finite privacy-loss distribution, against an independent brute force — the
// hockey-stick sums of both pair orders over every output vector of a truncated lattice, in long
// double, from the pmfs alone (no count vectors, no multinomials) — and the route's wiring.
// The check is shown to fail for a neighbouring sensitivity or rate.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/accounting/discrete_laplace_exact.h>
#include <exactdp/accounting/event_composition.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {

using Real80 = long double;

struct Pair {
  Real80 t, q;
  long delta;
  // P[z] of the discrete Laplace centred at s.
  Real80 pmf(long z, long s) const {
    const Real80 r = std::exp(-1 / t);
    return (1 - r) / (1 + r) * std::pow(r, static_cast<Real80>(std::labs(z - s)));
  }
  Real80 p(long z) const { return (1 - q) * pmf(z, 0) + q * pmf(z, delta); }
  Real80 q0(long z) const { return pmf(z, 0); }
};

// max over both orders of sum_x (A(x) - e^eps B(x))_+ over x in [-m, m + delta]^k (the pmfs of one
// coordinate tabulated first; the k-fold products formed per output vector).
Real80 brute_force(const Pair& pr, int k, Real80 eps, long m) {
  const Real80 c = std::exp(eps);
  std::vector<Real80> p, q;
  for (long z = -m; z <= m + pr.delta; ++z) {
    p.push_back(pr.p(z));
    q.push_back(pr.q0(z));
  }
  std::vector<std::size_t> x(static_cast<std::size_t>(k), 0);
  Real80 remove = 0, add = 0;
  for (;;) {
    Real80 a = 1, b = 1;
    for (std::size_t i : x) {
      a *= p[i];
      b *= q[i];
    }
    remove += std::max<Real80>(0, a - c * b);
    add += std::max<Real80>(0, b - c * a);
    std::size_t i = 0;
    while (i < x.size() && x[i] + 1 == p.size()) x[i++] = 0;
    if (i == x.size()) break;
    ++x[i];
  }
  return std::max(remove, add);
}

bool agrees(const Interval& v, Real80 bf) {
  return mpfr_get_ld(v.lower(), MPFR_RNDD) <= bf * (1 + 1e-9L) + 1e-30L &&
         mpfr_get_ld(v.upper(), MPFR_RNDU) >= bf * (1 - 1e-9L) - 1e-30L;
}

struct Case {
  const char *t, *q;
  long delta;
  int k;
  const char* eps;
};

DiscreteLaplaceSteps steps_of(const Case& c) {
  return {parse_rational("t", c.t), mpz_class(c.delta), parse_rational("q", c.q), static_cast<std::uint64_t>(c.k)};
}

TEST(DiscreteLaplaceExact, MatchesBruteForceInOneTwoAndThreeSteps) {
  // Plain and subsampled, sensitivity 1 to 3, eps = 0 (where both orders give the total
  // variation) to 1.5. (For these steps the remove order decides: the brute force takes the max.)
  for (const Case c : {Case{"1", "1", 1, 1, "0.5"}, Case{"2", "0.3", 2, 1, "0.1"}, Case{"1", "0.01", 3, 1, "0.001"},
                       Case{"3/2", "0.9", 1, 2, "0.2"}, Case{"1", "1", 2, 2, "1"}, Case{"2", "0.5", 1, 2, "0"},
                       Case{"1", "0.2", 1, 3, "0.05"}, Case{"1", "1", 1, 3, "1.5"}}) {
    const Pair pr{parse_rational("t", c.t).get_d(), parse_rational("q", c.q).get_d(), c.delta};
    const long m = c.k == 3 ? 45 : 90;  // truncated mass < 3 e^-45: far below the 1e-9 relative check
    const Real80 bf = brute_force(pr, c.k, parse_rational("eps", c.eps).get_d(), m);
    const Certified d = discrete_laplace_steps_delta(steps_of(c), parse_rational("eps", c.eps));
    EXPECT_TRUE(d.tolerance_met);
    EXPECT_TRUE(agrees(d.value, bf)) << c.t << " " << c.q << " " << c.delta << " " << c.k << " " << c.eps << ": "
                                     << d.value.debug_string() << " vs " << static_cast<double>(bf);
  }
}

TEST(DiscreteLaplaceExact, TheCheckCatchesAWrongSensitivityOrRate) {
  // The same comparison fails when the closed form is asked about a neighbouring parameter: an
  // off-by-one in the sensitivity or a 1 % error in the rate would not pass it.
  const Pair pr{2, 0.3L, 2};
  const Real80 bf = brute_force(pr, 2, 0.1L, 90);
  EXPECT_TRUE(agrees(discrete_laplace_steps_delta({mpq_class(2), 2, mpq_class(3, 10), 2}, mpq_class(1, 10)).value, bf));
  EXPECT_FALSE(agrees(discrete_laplace_steps_delta({mpq_class(2), 3, mpq_class(3, 10), 2}, mpq_class(1, 10)).value, bf));
  EXPECT_FALSE(
      agrees(discrete_laplace_steps_delta({mpq_class(2), 2, mpq_class(303, 1000), 2}, mpq_class(1, 10)).value, bf));
}

TEST(DiscreteLaplaceExact, PlainStepHasItsPureEpsilon) {
  // One plain step of scale t and sensitivity Delta is exactly (Delta/t)-DP: delta(Delta/t) = 0,
  // and epsilon at a tiny delta approaches Delta/t from below.
  const DiscreteLaplaceSteps s{mpq_class(2), mpz_class(3), mpq_class(1), 1};
  const Certified at = discrete_laplace_steps_delta(s, mpq_class(3, 2));
  EXPECT_TRUE(at.value.contains(0L));
  const std::optional<Certified> e = discrete_laplace_steps_epsilon(s, mpq_class(1, 1000000000));
  ASSERT_TRUE(e.has_value());
  EXPECT_LE(mpfr_cmp_d(e->value.upper(), 1.5), 0);
  EXPECT_GT(mpfr_cmp_d(e->value.upper(), 1.4), 0);
}

TEST(DiscreteLaplaceExact, EpsilonInvertsTheProfile) {
  const DiscreteLaplaceSteps s{mpq_class(1), mpz_class(1), mpq_class(1, 100), 1000};
  const mpq_class delta(1, 100000);
  const std::optional<Certified> e = discrete_laplace_steps_epsilon(s, delta);
  ASSERT_TRUE(e.has_value());
  const mpq_class hi = to_mpq(e->value.upper()), lo = to_mpq(e->value.lower());
  EXPECT_LE(to_mpq(discrete_laplace_steps_delta(s, hi).value.upper()), delta);
  if (lo > 0) {
    EXPECT_GT(to_mpq(discrete_laplace_steps_delta(s, lo).value.lower()), delta);
  }
}

TEST(DiscreteLaplaceExact, AutoRouteAnswersFromTheClosedFormInsideThePldBracket) {
  EventCompositionRequest r;
  r.events = {{RdpEvent::poisson_subsampled(laws::discrete_laplace_event(mpq_class(1), 1), mpq_class(1, 10)), 50}};
  r.want_epsilon = false;
  r.target = mpq_class(1);
  const EventCompositionResult out = compose_events(r);
  EXPECT_EQ(out.answer().route, "exact");
  for (const auto& route : out.routes) {
    if (route.route == "pld") {  // pld's bracket contains the exact value
      EXPECT_LE(mpfr_cmp(route.value.lower(), out.answer().value.upper()), 0);
      EXPECT_GE(mpfr_cmp(route.value.upper(), out.answer().value.lower()), 0);
    }
  }
  r.route = "exact";
  r.events = {{RdpEvent::poisson_subsampled(laws::discrete_laplace_event(mpq_class(1), 2), mpq_class(1, 10)), 5000}};
  EXPECT_THROW((void)compose_events(r), ParameterError);  // C(5002, 2) count vectors: refused naming route
}

TEST(DiscreteLaplaceExact, RefusesBadParametersByName) {
  const auto names = [](const DiscreteLaplaceSteps& s, const char* what) {
    try {
      (void)discrete_laplace_steps_delta(s, mpq_class(1));
      ADD_FAILURE() << "accepted";
    } catch (const ParameterError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  names({mpq_class(0), 1, 1, 1}, "scale");
  names({mpq_class(1), 0, 1, 1}, "sensitivity");
  names({mpq_class(1), 1, mpq_class(3, 2), 1}, "q");
  names({mpq_class(1), 1, 1, 0}, "count");
  names({mpq_class(1), 1000, 1, 1000}, "route");
}

}  // namespace
}  // namespace exactdp::accounting
