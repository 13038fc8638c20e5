// The wide-mass compositions of pld_wide_compose.h: one event's objects, self-composed and
// composed across the events.
#include <exactdp/accounting/pld/pld_wide_compose.h>

#include <algorithm>
#include <optional>
#include <utility>

#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/accounting/pld/pld_replace_instance.h>
#include <exactdp/accounting/pld/pld_replace_pair.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting::pld {
namespace {

void check_count(unsigned long count) {
  if (count < 1) throw ParameterError::out_of_range("count", "0", "count >= 1");
}

// Each event's object (`one(event)`) self-composed `count` times, the events composed together.
template <class T, class One>
T compose_all(const RdpComposition& events, unsigned tail_bits, One one) {
  std::optional<T> acc;
  for (const auto& [event, count] : events) {
    check_count(count);
    T many = self_compose(one(event), count, tail_bits);
    acc = acc ? compose(*acc, many, tail_bits) : std::move(many);
  }
  if (!acc) throw ParameterError("event", "event: at least one event is needed");
  return std::move(*acc);
}

}  // namespace

bool uses_replace_pair(const RdpComposition& events, Neighbouring relation) {
  return relation == Neighbouring::kReplaceOne &&
         std::any_of(events.begin(), events.end(), [](const auto& e) { return e.first.is_subsampled(); });
}

// Under replace-one with subsampled events one order: the pair P = (1-q) N(0,1) + q N(mu,1),
// Q = (1-q) N(0,1) + q N(-mu,1) is its own reflection (Q(x) = P(-x)), so log(dQ/dP)(X), X ~ Q, has
// the law of log(dP/dQ)(Y), Y = -X ~ P: both orders have one loss distribution (the same holds
// for the instance's atoms, pld_replace_instance.h).
std::vector<PairOrder> wide_orders(const RdpComposition& events, Neighbouring relation) {
  if (uses_replace_pair(events, relation)) return {PairOrder::kRemove};
  const bool symmetric = std::all_of(events.begin(), events.end(), [](const auto& e) { return is_symmetric(e.first); });
  if (symmetric) return {PairOrder::kRemove};
  return {PairOrder::kRemove, PairOrder::kAdd};
}

WideChain compose_wide_upper(const RdpComposition& events, const WideSetup& s) {
  return compose_all<WideChain>(events, s.tail_bits, [&](const RdpEvent& event) {
    if (s.replace_pair) return discretize_replace_pair_wide(event, s.steps_per_unit, s.scale_bits, s.tail_bits);
    return discretize_wide(event, s.order, s.steps_per_unit, s.scale_bits, s.tail_bits).upper;
  });
}

WideTestPair compose_wide_test(const RdpComposition& events, const WideSetup& s) {
  return compose_all<WideTestPair>(events, s.tail_bits, [&](const RdpEvent& event) {
    if (s.replace_pair) return discretize_replace_instance_wide(event, s.steps_per_unit, s.scale_bits, s.tail_bits);
    return discretize_wide(event, s.order, s.steps_per_unit, s.scale_bits, s.tail_bits).test;
  });
}

// The instance first under replace-one: it refuses beyond 2*10^6 cells before the pair's chain
// is made.
WideComposed compose_wide_both(const RdpComposition& events, const WideSetup& s) {
  std::optional<WideComposed> acc;
  for (const auto& [event, count] : events) {
    check_count(count);
    WideDiscretizedEvent one;
    if (s.replace_pair) {
      one.test = discretize_replace_instance_wide(event, s.steps_per_unit, s.scale_bits, s.tail_bits);
      one.upper = discretize_replace_pair_wide(event, s.steps_per_unit, s.scale_bits, s.tail_bits);
    } else {
      one = discretize_wide(event, s.order, s.steps_per_unit, s.scale_bits, s.tail_bits);
    }
    WideChain upper = self_compose(one.upper, count, s.tail_bits);
    WideTestPair test = self_compose(one.test, count, s.tail_bits);
    if (!acc) {
      acc = WideComposed{std::move(upper), std::move(test)};
    } else {
      acc->upper = compose(acc->upper, upper, s.tail_bits);
      acc->test = compose(acc->test, test, s.tail_bits);
    }
  }
  if (!acc) throw ParameterError("event", "event: at least one event is needed");
  return std::move(*acc);
}

}  // namespace exactdp::accounting::pld
