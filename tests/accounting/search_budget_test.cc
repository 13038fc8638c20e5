// search_budget_test.cc — the work budget of the parameter searches
// (accounting/search_budget.h): a condition that is never met is refused with the
// caller's LimitError after a bounded number of evaluations, no probe is ever built over the
// bit budget, and a condition that is met somewhere is found to the requested precision from
// any start. The fake conditions throw std::runtime_error once a search has gone past its
// budget, so a budget that is not enforced fails these tests instead of hanging them.
#include <gtest/gtest.h>

#include <stdexcept>

#include <exactdp/accounting/internal/certified_search.h>
#include <exactdp/accounting/search_budget.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting::internal {
namespace {

LimitError refused() { return LimitError("epsilon", "epsilon, delta: refused by the search budget"); }

// Counts the probes and records the largest; throws once the search is clearly unbounded.
struct Watch {
  int calls = 0;
  long max_bits = 0;
  void see(const mpq_class& x) {
    ++calls;
    if (probe_bits(x) > max_bits) max_bits = probe_bits(x);
    if (calls > 2 * kMaxSearchEvaluations || max_bits > 2 * kMaxSearchProbeBits) {
      throw std::runtime_error("the search ran past its budget");
    }
  }
};

TEST(SearchBudget, CountsEvaluationsAndBits) {
  SearchBudget budget(refused, 64, 3);
  budget.charge(mpq_class(1));
  budget.charge(mpq_class(3, 7));
  EXPECT_EQ(budget.evaluations(), 2);
  EXPECT_THROW(budget.charge(power_of_two(-100)), LimitError);  // 101 + 1 bits > 64
  budget.charge(mpq_class(5));
  EXPECT_THROW(budget.charge(mpq_class(5)), LimitError);  // the fourth evaluation
  EXPECT_THROW(budget.check_bits(65), LimitError);
}

TEST(SearchBudget, LargestMeetingFindsTheThresholdFromFarAway) {
  for (const mpq_class& x0 : {mpq_class(1000), power_of_two(-1000), power_of_two(5000)}) {
    const mpq_class threshold(3, 7);
    Watch w;
    SearchBudget budget(refused);
    const mpq_class x = largest_meeting([&](const mpq_class& p) { w.see(p); return p <= threshold; }, x0, budget);
    EXPECT_LE(x, threshold);
    EXPECT_GT(x, threshold * (1 - power_of_two(-30)));
    EXPECT_LT(w.calls, 200);
  }
}

TEST(SearchBudget, LargestMeetingRefusesAConditionNeverMet) {
  Watch w;
  SearchBudget budget(refused);
  try {
    (void)largest_meeting([&](const mpq_class& x) { w.see(x); return false; }, mpq_class(1), budget);
    FAIL() << "a condition never met was not refused";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "epsilon");
  }
  EXPECT_LE(w.max_bits, kMaxSearchProbeBits);
  EXPECT_LE(w.calls, 30);  // galloping down: about log2(2^22) probes
}

TEST(SearchBudget, LargestMeetingRefusesWhenEvaluationsRunOut) {
  Watch w;
  SearchBudget budget(refused, kMaxSearchProbeBits, 10);
  EXPECT_THROW((void)largest_meeting([&](const mpq_class& x) { w.see(x); return x <= mpq_class(1, 3); },
                                     power_of_two(-60), budget),
               LimitError);
  EXPECT_LE(w.calls, 10);
}

TEST(SearchBudget, WidenBracketIsBoundedWhateverItsRounds) {
  // 60 rounds would square the factor to 2^(2^60) bits: the budget refuses long before.
  Watch w;
  const RationalDecider undecided = [&](const mpq_class& x, Interval&) { w.see(x); return Side::kUndecided; };
  EXPECT_THROW((void)widen_bracket(undecided, mpq_class(1), mpq_class(2), 60, refused), LimitError);
  EXPECT_LE(w.max_bits, kMaxSearchProbeBits);
  EXPECT_LE(w.calls, 30);
}

}  // namespace
}  // namespace exactdp::accounting::internal
