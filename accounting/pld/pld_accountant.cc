#include <exactdp/accounting/pld/pld_accountant.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/samplers/errors.h>
#include <exactdp/samplers/rational.h>

namespace exactdp::accounting::pld {
namespace {

DiscretePld compose_all(const RdpComposition& events, PairOrder order, Side side, Neighbouring relation,
                        const PldOptions& o, std::size_t& points) {
  if (events.empty()) throw ParameterError("event", "event: at least one event is needed");
  std::optional<DiscretePld> acc;
  for (const auto& [event, count] : events) {
    if (count < 1) throw ParameterError::out_of_range("count", "0", "count >= 1");
    const DiscretePld one = discretize(event, order, side, relation, o.discretization);
    DiscretePld many = self_compose(one, count, o.composition_tail_bits);
    acc = acc ? compose(*acc, many, o.composition_tail_bits) : std::move(many);
    points = std::max(points, acc->masses.size());
  }
  return *acc;
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
    const DiscretePld hi = compose_all(events, order, Side::kUpper, relation, options, out.points);
    const std::optional<mpq_class> u = epsilon_at(hi, delta);
    if (!u) {
      throw LimitError("delta", "delta: the pld route cannot certify any epsilon at this delta (the mass moved to "
                                "infinity by truncation exceeds it); use a larger delta or another route");
    }
    upper = std::max(upper, *u);
    const DiscretePld lo = compose_all(events, order, Side::kLower, relation, options, out.points);
    lower = std::max(lower, *epsilon_at(lo, delta));
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
    const Interval u = delta_at(compose_all(events, order, Side::kUpper, relation, options, out.points), epsilon);
    const Interval l = delta_at(compose_all(events, order, Side::kLower, relation, options, out.points), epsilon);
    upper = upper ? max(*upper, u) : u;
    lower = lower ? max(*lower, l) : l;
  }
  out.value = Interval::from_ends(lower->lower(), upper->upper(), kDefaultPrecision);
  return out;
}

}  // namespace exactdp::accounting::pld
