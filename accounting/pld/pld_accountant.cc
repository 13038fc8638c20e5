#include <exactdp/accounting/pld/pld_accountant.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/samplers/errors.h>
#include <exactdp/samplers/rational.h>

namespace exactdp::accounting::pld {
namespace {

struct Chains {
  DiscretePld upper, lower;
};

Chains compose_all(const RdpComposition& events, PairOrder order, Neighbouring relation, const PldOptions& o,
                   std::size_t& points) {
  if (events.empty()) throw ParameterError("event", "event: at least one event is needed");
  std::optional<Chains> acc;
  for (const auto& [event, count] : events) {
    if (count < 1) throw ParameterError::out_of_range("count", "0", "count >= 1");
    const DiscretePldPair one = discretize_both(event, order, relation, o.discretization);
    Chains many{self_compose(one.upper, count, o.composition_tail_bits),
                self_compose(one.lower, count, o.composition_tail_bits)};
    if (acc) {
      acc->upper = compose(acc->upper, many.upper, o.composition_tail_bits);
      acc->lower = compose(acc->lower, many.lower, o.composition_tail_bits);
    } else {
      acc = std::move(many);
    }
    points = std::max(points, std::max(acc->upper.masses.size(), acc->lower.masses.size()));
  }
  return std::move(*acc);
}

std::string grid_text(const PldOptions& o) {
  return "step 1/" + std::to_string(o.discretization.steps_per_unit) + ", masses at 2^-" +
         std::to_string(o.discretization.scale_bits);
}

}  // namespace

PldAnswer pld_epsilon(const RdpComposition& events, const mpq_class& delta, Neighbouring relation,
                      const PldOptions& options) {
  if (delta <= 0 || delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(delta)), "0 < delta < 1");
  }
  PldAnswer out;
  out.grid = grid_text(options);
  mpq_class lower(0), upper(0);
  for (const PairOrder order : {PairOrder::kRemove, PairOrder::kAdd}) {
    const Chains chains = compose_all(events, order, relation, options, out.points);
    const std::optional<mpq_class> u = epsilon_at(chains.upper, delta);
    if (!u) {
      throw LimitError("delta", "delta: the pld route cannot certify any epsilon at this delta (the mass moved to "
                                "infinity by truncation exceeds it); use a larger delta or another route");
    }
    upper = std::max(upper, *u);
    lower = std::max(lower, *epsilon_at(chains.lower, delta));
  }
  out.value = Interval::from_ends(Interval(lower, kDefaultPrecision).lower(),
                                  Interval(upper, kDefaultPrecision).upper(), kDefaultPrecision);
  return out;
}

PldAnswer pld_delta(const RdpComposition& events, const mpq_class& epsilon, Neighbouring relation,
                    const PldOptions& options) {
  if (epsilon < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
  PldAnswer out;
  out.grid = grid_text(options);
  std::optional<Interval> lower, upper;
  for (const PairOrder order : {PairOrder::kRemove, PairOrder::kAdd}) {
    const Chains chains = compose_all(events, order, relation, options, out.points);
    const Interval u = delta_at(chains.upper, epsilon);
    const Interval l = delta_at(chains.lower, epsilon);
    upper = upper ? max(*upper, u) : u;
    lower = lower ? max(*lower, l) : l;
  }
  out.value = Interval::from_ends(lower->lower(), upper->upper(), kDefaultPrecision);
  return out;
}

}  // namespace exactdp::accounting::pld
