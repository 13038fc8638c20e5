// accounting/pld/pld_wide_route.h: long compositions at small delta with wide masses.
//   * the widths it reaches where the 2^-60 masses gave a bracket several per cent wide or
//     refused (pinned: a looser bound fails these);
//   * containment: one step (the closed form of subsampled_gaussian_exact.h) and eight steps
//     (the few-step route's bracket, a separate construction) at deltas the route is built for;
//   * every answer it gives lies inside the 2^-60 route's answer for the same query (narrower,
//     never different), add/remove and replace-one;
//   * over its cost budget it steps aside and the 2^-60 route answers;
//   * delta queries (pld_delta) of long compositions: inside the 2^-60 route's answer, pinned
//     width, and consistent with the epsilon query at the same grid.
// No timing asserts (BENCHMARKS.md has the timings).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pld/pld_few_steps.h>
#include <exactdp/accounting/pld/pld_wide_route.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/subsampled_gaussian_exact.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {

bool overlap(const Interval& a, const Interval& b) {
  return mpfr_lessequal_p(a.lower(), b.upper()) && mpfr_lessequal_p(b.lower(), a.upper());
}

bool inside(const Interval& inner, const Interval& outer) {
  return mpfr_lessequal_p(outer.lower(), inner.lower()) && mpfr_lessequal_p(inner.upper(), outer.upper());
}

double lower_d(const Interval& x) { return mpfr_get_d(x.lower(), MPFR_RNDD); }
double upper_d(const Interval& x) { return mpfr_get_d(x.upper(), MPFR_RNDU); }
double relative_width(const Interval& x) { return (upper_d(x) - lower_d(x)) / upper_d(x); }

pld::PldOptions grid(unsigned long n, bool wide = true) {
  pld::PldOptions o;
  o.discretization.steps_per_unit = n;
  o.wide_masses = wide;
  return o;
}

RdpComposition dp_sgd(const mpq_class& q, const mpq_class& sigma, unsigned long steps) {
  return {{RdpEvent::poisson_gaussian(sigma, q), steps}};
}

// q = 0.004, sigma = 0.8, 10^4 steps, delta = 10^-12 (a target of the long-composition work;
// about a second). The 2^-60 masses misplace about k N 2^-60 + k 2^-43 ~ 10^-9 of mass there, far
// above delta.
TEST(PldWideRoute, PinsTheWidthAtTenThousandStepsAndDeltaTenToMinusTwelve) {
  const RdpComposition events = dp_sgd(mpq_class(1, 250), mpq_class(4, 5), 10000);
  const mpq_class delta(1, 1000000000000);
  ASSERT_TRUE(pld::wide_route_wanted(events, delta, Neighbouring::kAddRemove));
  const pld::PldAnswer a = pld::pld_epsilon(events, delta, Neighbouring::kAddRemove, grid(2500));
  EXPECT_NE(a.grid.find("test 2^-"), std::string::npos) << a.grid;  // the wide route answered
  EXPECT_LT(relative_width(a.value), 5e-4) << lower_d(a.value) << " " << upper_d(a.value);  // measured 2.0e-4
  EXPECT_GT(lower_d(a.value), 6.75);
  EXPECT_LT(upper_d(a.value), 6.757);
}

// The case the 2^-60 masses answered [8.413, 8.876] and refused at delta 10^-9: dp_accounting's
// pessimistic PLD (grid 10^-4) gives 8.585 and 9.38, Opacus' PRV [8.574, 8.595].
TEST(PldWideRoute, DpSgdAtTenToTheFiveStepsContainsThePeersEstimate) {
  const RdpComposition events = dp_sgd(mpq_class(1, 1000), mpq_class(3, 5), 100000);
  const pld::PldAnswer a = pld::pld_epsilon(events, mpq_class(1, 100000000), Neighbouring::kAddRemove, grid(2500));
  EXPECT_LT(relative_width(a.value), 2e-3) << lower_d(a.value) << " " << upper_d(a.value);  // measured 9.2e-4
  EXPECT_LE(lower_d(a.value), 8.585);
  EXPECT_GE(upper_d(a.value), 8.585);
  EXPECT_LT(upper_d(a.value), 8.585 * 1.001);  // at most 0.1 % above the peer's
}

// One step: the closed-form profile's epsilon (certified bisection) is inside.
TEST(PldWideRoute, OneStepContainsTheClosedForm) {
  const mpq_class q(1, 100), sigma(4, 5), delta(1, 1000000000000);
  const RdpComposition events = dp_sgd(q, sigma, 1);
  const std::optional<pld::PldAnswer> a =
      pld::wide_pld_epsilon(events, delta, Neighbouring::kAddRemove, grid(10000));
  ASSERT_TRUE(a);
  const std::optional<Certified> exact = subsampled_gaussian_epsilon(1 / sigma, q, delta);
  ASSERT_TRUE(exact);
  EXPECT_TRUE(overlap(exact->value, a->value)) << lower_d(exact->value) << " vs [" << lower_d(a->value) << ", "
                                               << upper_d(a->value) << "]";
  EXPECT_LT(relative_width(a->value), 1e-3);
}

// Eight steps: the few-step route's certified bracket (its own discretisation at 2^-96 and
// finer) and this one are brackets of the same number, so they intersect.
TEST(PldWideRoute, EightStepsMeetTheFewStepRoute) {
  const RdpComposition events = dp_sgd(mpq_class(1, 50), mpq_class(7, 10), 8);
  const mpq_class delta(1, 10000000000);
  for (const Neighbouring relation : {Neighbouring::kAddRemove, Neighbouring::kReplaceOne}) {
    const std::optional<pld::PldAnswer> a = pld::wide_pld_epsilon(events, delta, relation, grid(1000));
    ASSERT_TRUE(a);
    const pld::FewStepsAnswer few = pld::few_steps_epsilon(events, delta, relation, pld::FewStepsOptions{1000});
    EXPECT_TRUE(overlap(few.value, a->value)) << "[" << lower_d(few.value) << ", " << upper_d(few.value) << "] vs ["
                                              << lower_d(a->value) << ", " << upper_d(a->value) << "]";
  }
}

// Where the route applies its answer is inside the 2^-60 route's (both certified: only narrower).
TEST(PldWideRoute, NarrowerThanTheSixtyBitMasses) {
  const RdpComposition events = dp_sgd(mpq_class(1, 100), mpq_class(1), 3000);
  const mpq_class delta(1, 100000000);  // the 2^-60 route misplaces about 10^-9: a wide bracket
  for (const Neighbouring relation : {Neighbouring::kAddRemove, Neighbouring::kReplaceOne}) {
    ASSERT_TRUE(pld::wide_route_wanted(events, delta, relation));
    const pld::PldAnswer wide = pld::pld_epsilon(events, delta, relation, grid(1000));
    const pld::PldAnswer narrow_masses = pld::pld_epsilon(events, delta, relation, grid(1000, false));
    EXPECT_TRUE(inside(wide.value, narrow_masses.value))
        << "[" << lower_d(wide.value) << ", " << upper_d(wide.value) << "] vs [" << lower_d(narrow_masses.value) << ", "
        << upper_d(narrow_masses.value) << "]";
    EXPECT_LT(relative_width(wide.value), 0.5 * relative_width(narrow_masses.value));
  }
}

TEST(PldWideRoute, AppliesOnlyWhereTheSixtyBitMassesFallShort) {
  const RdpComposition events = dp_sgd(mpq_class(1, 100), mpq_class(1), 1000);
  EXPECT_FALSE(pld::wide_route_wanted(events, mpq_class(1, 100000), Neighbouring::kAddRemove));
  EXPECT_TRUE(pld::wide_route_wanted(events, mpq_class(1, 1000000000), Neighbouring::kAddRemove));
  const mpq_class tiny(mpz_class(1), mpz_class(1) << 700);  // below 2^-600: past the wide scales' limit
  EXPECT_FALSE(pld::wide_route_wanted(events, tiny, Neighbouring::kAddRemove));
  const RdpComposition pure{{RdpEvent::plain(laws::pure_dp_event(mpq_class(1))), 1000}};
  EXPECT_FALSE(pld::wide_route_wanted(pure, mpq_class(1, 1000000000), Neighbouring::kAddRemove));
}

TEST(PldWideRoute, OverItsBudgetTheSixtyBitRouteAnswers) {
  const RdpComposition events = dp_sgd(mpq_class(1, 100), mpq_class(1), 3000);
  const mpq_class delta(1, 100000000000);
  pld::PldOptions o = grid(1000);
  o.cost_budget.max_seconds = 0.01;  // the wide estimate is above this, the 2^-60 route's is not checked here
  EXPECT_FALSE(pld::wide_pld_epsilon(events, delta, Neighbouring::kAddRemove, o));
  o.cost_budget.max_seconds = 10;
  const std::optional<pld::PldAnswer> fits = pld::wide_pld_epsilon(events, delta, Neighbouring::kAddRemove, o);
  ASSERT_TRUE(fits);
}

}  // namespace
}  // namespace exactdp::accounting

namespace exactdp::accounting {
namespace {

// The delta query at the epsilon of the 10^-12 case above: the 2^-60 masses answer [0, 5.7e-10]
// (their misplaced mass); the wide masses bracket delta to 1 %, inside that answer, and delta at
// the epsilon query's certified upper end is at most 10^-12 (the same chain read both ways).
TEST(PldWideRoute, DeltaQueriesOfLongCompositionsAreTight) {
  const RdpComposition events = dp_sgd(mpq_class(1, 250), mpq_class(4, 5), 10000);
  ASSERT_TRUE(pld::wide_delta_route_wanted(events, Neighbouring::kAddRemove));
  const mpq_class eps(67558, 10000);
  const pld::PldAnswer wide = pld::pld_delta(events, eps, Neighbouring::kAddRemove, grid(2500));
  const pld::PldAnswer narrow = pld::pld_delta(events, eps, Neighbouring::kAddRemove, grid(2500, false));
  EXPECT_NE(wide.grid.find("test 2^-"), std::string::npos) << wide.grid;
  EXPECT_TRUE(inside(wide.value, narrow.value)) << wide.value.debug_string() << " " << narrow.value.debug_string();
  EXPECT_LT(relative_width(wide.value), 0.01) << wide.value.debug_string();  // measured 0.6 %
  EXPECT_GT(lower_d(wide.value), 0.99e-12);
  EXPECT_LT(upper_d(wide.value), 1.01e-12);
  const pld::PldAnswer e = pld::pld_epsilon(events, mpq_class(1, 1000000000000), Neighbouring::kAddRemove, grid(2500));
  mpq_class eps_upper;
  mpfr_get_q(eps_upper.get_mpq_t(), e.value.upper());
  const pld::PldAnswer at_upper = pld::pld_delta(events, eps_upper, Neighbouring::kAddRemove, grid(2500));
  EXPECT_LE(upper_d(at_upper.value), 1e-12) << at_upper.value.debug_string();
  EXPECT_FALSE(pld::wide_delta_route_wanted(dp_sgd(mpq_class(1, 100), mpq_class(11, 10), 1000),
                                            Neighbouring::kAddRemove));
}

}  // namespace
}  // namespace exactdp::accounting
