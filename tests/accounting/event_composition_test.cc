// accounting/event_composition.h: the route choice of compose_events (what `exactdp compose
// --event` prints) and its refusals, each naming the parameter; the answer is the smallest
// certified upper end among the routes evaluated.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/accounting/event_composition.h>
#include <exactdp/accounting/pld/pld_few_steps.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace event_composition_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

const mpq_class kDelta(1, 100'000);

EventCompositionRequest plain_gaussians() {
  EventCompositionRequest r;
  r.events = {{RdpEvent::plain(laws::gaussian_event(mpq_class(2))), 4}};
  r.target = kDelta;
  return r;
}

void expect_names(const EventCompositionRequest& r, const std::string& parameter) {
  try {
    (void)compose_events(r);
    ADD_FAILURE() << "no error, expected one naming " << parameter;
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), parameter) << e.what();
  }
}

TEST(EventCompositionTest, AutoAnswersWithTheSmallestUpperEnd) {
  const EventCompositionResult r = compose_events(plain_gaussians());
  ASSERT_GE(r.routes.size(), 2U);  // rdp and the accountant's routes
  for (const auto& route : r.routes) EXPECT_LE(mpfr_cmp(r.answer().value.upper(), route.value.upper()), 0);
  EXPECT_EQ(r.answer().route.rfind("gdp", 0), 0U) << r.answer().route;  // 4 x sigma 2 is exactly 1-GDP
  EXPECT_FALSE(r.rdp_detail.empty());
  EXPECT_TRUE(r.pld_detail.empty());  // plain events: pld only when asked for
}

TEST(EventCompositionTest, EachRouteReportsItsOwnTolerance) {
  // 50 Laplace(b = 5): KOV (exact) answers; the gdp route (a measured mu bracket of width ~1e-4)
  // misses the default tolerance 2^-100 and must say so although it was not chosen.
  EventCompositionRequest r;
  r.events = {{RdpEvent::plain(laws::laplace_event(mpq_class(5))), 50}};
  r.target = mpq_class(1, 10);
  const EventCompositionResult out = compose_events(r);
  EXPECT_EQ(out.answer().route, "kov (exact)");
  EXPECT_TRUE(out.answer().tolerance_met);
  bool saw_gdp = false;
  for (const auto& route : out.routes) {
    if (route.route != "gdp") continue;
    saw_gdp = true;
    EXPECT_FALSE(route.tolerance_met);
  }
  EXPECT_TRUE(saw_gdp);
}

TEST(EventCompositionTest, OneSubsampledGaussianStepIsExact) {
  // One poisson-gaussian step: the exact route answers, narrow, inside the pld route's proven
  // bracket and below the rdp route's bound; for delta and for epsilon.
  for (const bool want_epsilon : {false, true}) {
    EventCompositionRequest r;
    r.events = {{RdpEvent::poisson_gaussian(mpq_class(4, 5), mpq_class(1, 100)), 1}};
    r.want_epsilon = want_epsilon;
    r.target = want_epsilon ? mpq_class(1, 1'000'000'000) : mpq_class(4);
    const EventCompositionResult out = compose_events(r);
    EXPECT_EQ(out.answer().route, "exact");
    EXPECT_TRUE(out.answer().tolerance_met);
    EXPECT_TRUE(relative_width_at_most(out.answer().value, mpq_class(1, 1'000'000)));
    bool saw_pld = false;
    for (const auto& route : out.routes) {
      EXPECT_FALSE(certainly_less(route.value, out.answer().value)) << route.route;  // no route proves less
      if (route.route == "pld") {
        saw_pld = true;
        EXPECT_FALSE(certainly_less(out.answer().value, route.value));  // the pld lower end is a bound
      }
    }
    EXPECT_TRUE(saw_pld);
  }
  // Two steps: the few-step wide-mass pld (pld/pld_few_steps.h) answers the exact route, inside
  // the pld route's bracket; more than pld::kFewStepsMaxCount steps: no exact route.
  EventCompositionRequest two;
  two.events = {{RdpEvent::poisson_gaussian(mpq_class(4, 5), mpq_class(1, 100)), 2}};
  two.want_epsilon = false;
  two.target = 4;
  const EventCompositionResult few = compose_events(two);
  EXPECT_EQ(few.answer().route, "exact");
  EXPECT_TRUE(relative_width_at_most(few.answer().value, mpq_class(1, 1000)));
  for (const auto& route : few.routes) EXPECT_FALSE(certainly_less(route.value, few.answer().value)) << route.route;
  EventCompositionRequest many = two;
  many.events[0].second = pld::kFewStepsMaxCount + 1;
  many.want_epsilon = true;
  many.target = kDelta;
  for (const auto& route : compose_events(many).routes) EXPECT_NE(route.route, "exact");
  many.route = "exact";
  expect_names(many, "route");
  many.events[0].second = 1;
  many.relation = Neighbouring::kReplaceOne;  // one step: the closed form of its +Delta/-Delta pair
  EXPECT_EQ(compose_events(many).answer().route, "exact");
  many.events[0].first = RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(2), 1), mpq_class(1, 100));
  expect_names(many, "route");  // no closed form for a replace-one Laplace step
}

TEST(EventCompositionTest, ForcedRouteIsTheOnlyOne) {
  EventCompositionRequest r = plain_gaussians();
  r.route = "rdp";
  const EventCompositionResult rdp = compose_events(r);
  ASSERT_EQ(rdp.routes.size(), 1U);
  EXPECT_EQ(rdp.answer().route.rfind("rdp", 0), 0U);
  r.route = "zcdp";
  const EventCompositionResult zcdp = compose_events(r);
  ASSERT_EQ(zcdp.routes.size(), 1U);
  EXPECT_EQ(zcdp.answer().route.rfind("zcdp", 0), 0U);
  r.route = "kov";  // KOV composes pure-DP events only
  expect_names(r, "route");
}

TEST(EventCompositionTest, RefusalsNameTheParameter) {
  EventCompositionRequest r = plain_gaussians();
  r.route = "frob";
  expect_names(r, "route");
  r = plain_gaussians();
  r.target = mpq_class(2);
  expect_names(r, "delta");
  r = plain_gaussians();
  r.want_epsilon = false;
  r.target = mpq_class(-1);
  expect_names(r, "epsilon");
  r = plain_gaussians();
  r.pld_step = mpq_class(1, 1000);  // plain events under auto: pld does not run
  expect_names(r, "pld-step");
  r = plain_gaussians();
  r.events.clear();
  expect_names(r, "event");
  r = plain_gaussians();
  r.events = {{RdpEvent::poisson_gaussian(mpq_class(1), mpq_class(1, 100)), 10}};
  r.route = "gdp";
  expect_names(r, "route");
  r.route = "rdp";
  r.relation = Neighbouring::kReplaceOne;
  expect_names(r, "route");
  r = plain_gaussians();
  r.options.tolerance = mpq_class(1, mpz_class(1) << 800);
  expect_names(r, "tolerance");
  EXPECT_THROW((void)parse_neighbouring("swap"), ParameterError);
  EXPECT_EQ(parse_neighbouring("replace-one"), Neighbouring::kReplaceOne);
}

}  // namespace event_composition_test
}  // namespace
}  // namespace exactdp::accounting
