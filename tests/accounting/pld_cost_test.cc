// The pld route's cost model (pld_cost.h): requests estimated over the budget are refused with
// LimitError naming the parameter to change, BEFORE anything is discretised or convolved (the
// speed of the refusals is in bench/pld_cost_refusals.sh, not asserted here); requests that fit
// still answer, and the estimate grows with what drives the work.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pld/pld_cost.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace pld_cost_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

RdpComposition poisson_gaussian(unsigned long count) {
  return {{RdpEvent::poisson_gaussian(mpq_class(1), mpq_class(1, 100)), count}};
}

RdpComposition poisson_discrete_gaussian(unsigned long count) {
  return {{RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(1), 1), mpq_class(1, 100)), count}};
}

pld::PldOptions grid(unsigned long steps_per_unit) {
  pld::PldOptions o;
  o.discretization.steps_per_unit = steps_per_unit;
  return o;
}

// The parameter a LimitError names, or "" when `run` answered.
template <class Run>
std::string refusal_of(Run run) {
  try {
    run();
  } catch (const LimitError& e) {
    return e.parameter();
  }
  return "";
}

TEST(PldCost, AFineStepIsRefusedNamingPldStep) {
  const mpq_class delta(1, 100000);
  EXPECT_EQ(refusal_of([&] { (void)pld::pld_epsilon(poisson_gaussian(1000), delta, Neighbouring::kAddRemove, grid(10'000'000)); }),
            "pld-step");
  EXPECT_EQ(refusal_of([&] {
              (void)pld::pld_epsilon(poisson_discrete_gaussian(1000), delta, Neighbouring::kAddRemove, grid(10'000'000));
            }),
            "pld-step");
  // 1/100000 over 1000 events: half a million points an event, about 30 s before the model.
  EXPECT_EQ(refusal_of([&] { (void)pld::pld_delta(poisson_gaussian(1000), 1, Neighbouring::kAddRemove, grid(100'000)); }),
            "pld-step");
}

TEST(PldCost, AHugeCountIsRefusedNamingCount) {
  const RdpComposition events = poisson_gaussian(1'000'000'000);
  EXPECT_EQ(refusal_of([&] {
              (void)pld::pld_epsilon(events, mpq_class(1, 100000), Neighbouring::kAddRemove,
                                     grid(pld::default_steps_per_unit(events)));
            }),
            "count");
}

TEST(PldCost, AGridTooCoarseIsRefusedNamingPldStep) {
  // Step 1: the lower end's tilted masses grow by up to e^(1/2) an event (once an internal error).
  EXPECT_EQ(refusal_of([&] { (void)pld::pld_epsilon(poisson_gaussian(1000), mpq_class(1, 100000), Neighbouring::kAddRemove, grid(1)); }),
            "pld-step");
}

TEST(PldCost, TheBudgetIsTheCallersOwn) {
  // A request that answers at the default budget is refused under a tiny one: the check runs.
  pld::PldOptions o = grid(2500);
  EXPECT_EQ(refusal_of([&] { (void)pld::pld_epsilon(poisson_gaussian(100), mpq_class(1, 100000), Neighbouring::kAddRemove, o); }), "");
  o.cost_budget.max_seconds = 1e-6;
  EXPECT_EQ(refusal_of([&] { (void)pld::pld_epsilon(poisson_gaussian(100), mpq_class(1, 100000), Neighbouring::kAddRemove, o); }),
            "count");
  o.cost_budget.max_seconds = 10;
  o.cost_budget.max_bytes = 1000;
  EXPECT_EQ(refusal_of([&] { (void)pld::pld_epsilon(poisson_gaussian(100), mpq_class(1, 100000), Neighbouring::kAddRemove, o); }),
            "count");
}

TEST(PldCost, TheEstimateGrowsWithCountAndStep) {
  const pld::PldCostEstimate base = pld::estimate_pld_cost(poisson_gaussian(1000), Neighbouring::kAddRemove, grid(5000));
  const pld::PldCostEstimate more = pld::estimate_pld_cost(poisson_gaussian(100000), Neighbouring::kAddRemove, grid(5000));
  const pld::PldCostEstimate finer = pld::estimate_pld_cost(poisson_gaussian(1000), Neighbouring::kAddRemove, grid(50000));
  EXPECT_GT(base.seconds, 0);
  EXPECT_GT(more.composed_points, 2 * base.composed_points);
  EXPECT_GT(more.seconds, base.seconds);
  EXPECT_GT(finer.grid_points, 9 * base.grid_points);
  EXPECT_GT(finer.seconds, 5 * base.seconds);
  // Measured on this code: 34,888 composed points at step 1/5000 (the estimate is within 2x).
  EXPECT_GT(base.composed_points, 34888 / 2);
  EXPECT_LT(base.composed_points, 34888 * 2);
}

}  // namespace pld_cost_test
}  // namespace
}  // namespace exactdp::accounting
