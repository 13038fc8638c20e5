#include <exactdp/accounting/pld/pld_accountant.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_group_bound.h>
#include <exactdp/accounting/pld/pld_replace_instance.h>
#include <exactdp/accounting/pld/pld_replace_pair.h>
#include <exactdp/accounting/pld/pld_test_bound.h>
#include <exactdp/accounting/pld/pld_wide_route.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting::pld {
namespace {

// The chains `chains_of(event)` gives for every event (always the same number, in one order),
// each self-composed `count` times and composed across the events chain by chain; `points`
// becomes the largest composed support.
template <class ChainsOf>
std::vector<DiscretePld> compose_chains(const RdpComposition& events, unsigned tail, std::size_t cap,
                                        std::size_t& points, ChainsOf chains_of) {
  if (events.empty()) throw ParameterError("event", "event: at least one event is needed");
  std::vector<DiscretePld> acc;
  for (const auto& [event, count] : events) {
    if (count < 1) throw ParameterError::out_of_range("count", "0", "count >= 1");
    const std::vector<DiscretePld> one = chains_of(event);
    for (std::size_t c = 0; c < one.size(); ++c) {
      DiscretePld many = self_compose(one[c], count, tail, cap);
      if (acc.size() == c) {
        acc.push_back(std::move(many));
      } else {
        acc[c] = compose(acc[c], many, tail, cap);
      }
      points = std::max(points, acc[c].masses.size());
    }
  }
  return acc;
}

struct Chains {
  DiscretePld upper, test_p, test_q;
};

Chains compose_all(const RdpComposition& events, PairOrder order, Neighbouring relation, const PldOptions& o,
                   std::size_t& points) {
  std::vector<DiscretePld> c =
      compose_chains(events, o.composition_tail_bits, o.max_composed_points, points, [&](const RdpEvent& event) {
        DiscretizedEvent one = discretize(event, order, relation, o.discretization);
        return std::vector<DiscretePld>{std::move(one.upper), std::move(one.test_p), std::move(one.test_q)};
      });
  return Chains{std::move(c[0]), std::move(c[1]), std::move(c[2])};
}

// The pair orders to compose: both for add/remove with a subsampled event, one otherwise (a
// symmetric event has the same loss distribution in both orders).
std::vector<PairOrder> orders_for(const RdpComposition& events) {
  const bool symmetric = std::all_of(events.begin(), events.end(), [](const auto& e) { return is_symmetric(e.first); });
  if (symmetric) return {PairOrder::kRemove};
  return {PairOrder::kRemove, PairOrder::kAdd};
}

// Replace-one with subsampled events (docs/ACCOUNTING.md): the lower end from the test chains of
// the +Delta / -Delta instance (pld_replace_instance.h); the upper end from the same pair's
// connect-the-dots chain when every event is a Poisson-subsampled Gaussian (a proven dominating
// pair: pld_replace_pair.h), else the group bound through the data set in between
// (pld_group_bound.h) from the add/remove upper chains of both orders.
bool uses_replace_one_route(const RdpComposition& events, Neighbouring relation) {
  return relation == Neighbouring::kReplaceOne &&
         std::any_of(events.begin(), events.end(), [](const auto& e) { return e.first.is_subsampled(); });
}

constexpr unsigned kReplaceOneTailBits = 58;

struct ReplaceOneChains {
  bool dominating_pair = false;     // upper end: pair_upper (else the group bound of remove / add)
  std::vector<DiscretePld> upper;   // {pair_upper} or {remove_upper, add_upper}
  DiscretePld test_p, test_q;
};

ReplaceOneChains compose_replace_one(const RdpComposition& events, const PldOptions& o, std::size_t& points) {
  for (const auto& e : events) {
    if (!e.first.is_subsampled()) {
      throw ParameterError("event", "event: under replace-one a composition with Poisson-subsampled events takes only "
                                    "Poisson-subsampled events (each sensitivity bounds what one record adds; write a "
                                    "plain event with q=1, e.g. poisson-gaussian:sigma=R,q=1), not " +
                                        e.first.describe());
    }
  }
  const bool pair =
      std::all_of(events.begin(), events.end(), [](const auto& e) { return covers_replace_pair(e.first); });
  // The group bound multiplies delta_A by e^eps1 (e^8 and more at 10^5 DP-SGD steps), and
  // repeated squaring doubles the mass moved to +infinity at every level (2^17 x 2^-44 = 2^-27
  // after 10^5 steps): truncate 2^14 times less per product here (also for the lower end's
  // chains, which both routes share).
  const unsigned tail = std::max(o.composition_tail_bits, kReplaceOneTailBits);
  std::vector<DiscretePld> c = compose_chains(events, tail, o.max_composed_points, points, [&](const RdpEvent& event) {
    // The instance first: its loss range is about twice the add/remove pairs' and it refuses
    // beyond 2*10^6 cells, so a grid too fine for the event fails in seconds, not minutes.
    TestChains instance = discretize_replace_instance(event, o.discretization);
    std::vector<DiscretePld> out{std::move(instance.test_p), std::move(instance.test_q)};
    if (pair) {
      out.push_back(discretize_replace_pair(event, o.discretization));
    } else {
      out.push_back(discretize(event, PairOrder::kRemove, Neighbouring::kAddRemove, o.discretization).upper);
      out.push_back(discretize(event, PairOrder::kAdd, Neighbouring::kAddRemove, o.discretization).upper);
    }
    return out;
  });
  ReplaceOneChains r{pair, {}, std::move(c[0]), std::move(c[1])};
  for (std::size_t k = 2; k < c.size(); ++k) r.upper.push_back(std::move(c[k]));
  return r;
}

// The upper end of the replace-one route (nullopt: no epsilon certifiable at this delta).
std::optional<mpq_class> replace_one_epsilon(const ReplaceOneChains& c, const mpq_class& delta) {
  if (c.dominating_pair) {
    const std::optional<mpq_class> u = epsilon_at(c.upper[0], delta);
    if (!u) {
      throw LimitError("delta", "delta: the pld route cannot certify any epsilon at this delta (the mass moved to "
                                "infinity by truncation exceeds it); use a larger delta or another route");
    }
    return u;
  }
  const std::optional<mpq_class> u = replace_one_epsilon_upper(c.upper[0], c.upper[1], delta);
  if (!u) {
    throw LimitError("delta", "delta: the pld route cannot certify any epsilon at this delta under replace-one: the "
                              "group bound's term e^eps1 delta_add(eps2) needs delta_add far below the 2^-60 "
                              "resolution of the masses (this happens when the add/remove epsilon is above about "
                              "15); use a larger delta or fewer steps");
  }
  return u;
}

Real replace_one_delta(const ReplaceOneChains& c, const mpq_class& epsilon) {
  if (!c.dominating_pair) return replace_one_delta_upper(c.upper[0], c.upper[1], epsilon);
  const Interval d = delta_at(c.upper[0], epsilon);
  Real u(kDefaultPrecision);
  mpfr_set(u.get(), d.upper(), MPFR_RNDU);
  return u;
}

Interval checked_answer(const Real& lower, mpfr_srcptr upper) {
  if (mpfr_greater_p(lower.get(), upper)) {
    throw std::logic_error("pld: the lower end exceeds the upper end (a bound is wrong)");
  }
  return Interval::from_ends(lower.get(), upper, kDefaultPrecision);
}

std::string grid_text(const PldOptions& o) {
  return "step 1/" + std::to_string(o.discretization.steps_per_unit) + ", masses at 2^-" +
         std::to_string(o.discretization.scale_bits);
}

}  // namespace

unsigned long default_steps_per_unit(const RdpComposition& events) {
  unsigned long total = 0;
  for (const auto& e : events) {
    total += std::min(e.second, 1'000'000UL);  // no overflow; anything above 50000 is "beyond"
  }
  if (total <= 5000) return 5000;
  return 2500;
}

PldAnswer pld_epsilon(const RdpComposition& events, const mpq_class& delta, Neighbouring relation,
                      const PldOptions& options) {
  if (delta <= 0 || delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(delta)), "0 < delta < 1");
  }
  (void)check_pld_cost(events, relation, options);  // refuses before any work (pld_cost.h)
  // Long compositions at small delta: wide masses (pld_wide_route.h) when its estimate fits.
  if (options.wide_masses && wide_route_wanted(events, delta, relation)) {
    if (std::optional<PldAnswer> wide = wide_pld_epsilon(events, delta, relation, options)) return std::move(*wide);
  }
  PldAnswer out;
  out.grid = grid_text(options);
  if (uses_replace_one_route(events, relation)) {
    const ReplaceOneChains c = compose_replace_one(events, options, out.points);
    const std::optional<mpq_class> u = replace_one_epsilon(c, delta);
    out.value = checked_answer(test_epsilon_lower(c.test_p, c.test_q, delta), Interval(*u, kDefaultPrecision).upper());
    return out;
  }
  mpq_class upper(0);
  Real lower(kDefaultPrecision);  // +0
  for (const PairOrder order : orders_for(events)) {
    const Chains chains = compose_all(events, order, relation, options, out.points);
    const std::optional<mpq_class> u = epsilon_at(chains.upper, delta);
    if (!u) {
      throw LimitError("delta", "delta: the pld route cannot certify any epsilon at this delta (the mass moved to "
                                "infinity by truncation exceeds it); use a larger delta or another route");
    }
    upper = std::max(upper, *u);
    const Real l = test_epsilon_lower(chains.test_p, chains.test_q, delta);
    mpfr_max(lower.get(), lower.get(), l.get(), MPFR_RNDD);
  }
  const Interval u(upper, kDefaultPrecision);
  if (mpfr_greater_p(lower.get(), u.upper())) {
    throw std::logic_error("pld: the lower end exceeds the upper end (a bound is wrong)");
  }
  out.value = Interval::from_ends(lower.get(), u.upper(), kDefaultPrecision);
  return out;
}

PldAnswer pld_delta(const RdpComposition& events, const mpq_class& epsilon, Neighbouring relation,
                    const PldOptions& options) {
  if (epsilon < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
  (void)check_pld_cost(events, relation, options);  // refuses before any work (pld_cost.h)
  // Long compositions: wide masses (pld_wide_route.h) when its estimate fits.
  if (options.wide_masses && wide_delta_route_wanted(events, relation)) {
    if (std::optional<PldAnswer> wide = wide_pld_delta(events, epsilon, relation, options)) return std::move(*wide);
  }
  PldAnswer out;
  out.grid = grid_text(options);
  if (uses_replace_one_route(events, relation)) {
    const ReplaceOneChains c = compose_replace_one(events, options, out.points);
    const Real u = replace_one_delta(c, epsilon);
    out.value = checked_answer(test_delta_lower(c.test_p, c.test_q, epsilon), u.get());
    return out;
  }
  std::optional<Interval> upper;
  Real lower(kDefaultPrecision);  // +0
  for (const PairOrder order : orders_for(events)) {
    const Chains chains = compose_all(events, order, relation, options, out.points);
    const Interval u = delta_at(chains.upper, epsilon);
    upper = upper ? max(*upper, u) : u;
    const Real l = test_delta_lower(chains.test_p, chains.test_q, epsilon);
    mpfr_max(lower.get(), lower.get(), l.get(), MPFR_RNDD);
  }
  if (mpfr_greater_p(lower.get(), upper->upper())) {
    throw std::logic_error("pld: the lower end exceeds the upper end (a bound is wrong)");
  }
  out.value = Interval::from_ends(lower.get(), upper->upper(), kDefaultPrecision);
  return out;
}

}  // namespace exactdp::accounting::pld
