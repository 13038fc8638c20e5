// pld/pld_accountant.h — the pld route: certified (epsilon, delta) of a composition of events
// through their privacy loss distributions (docs/ACCOUNTING_SUBSAMPLED.md "pld").
//
// For each pair order (kRemove and kAdd; the relation's delta is the larger of the two at every
// eps; one order when every event is symmetric) the events are discretised (pld_events.h) into
// three chains, each self-composed `count` times and composed together exactly
// (pld_composition.h): the connect-the-dots upper chain and the two cell-mass chains of the
// lower end (pld_test_bound.h). The answer is
//   epsilon: [max over orders of test_epsilon_lower, max over orders of the upper chain's
//            epsilon_at]: the TRUE epsilon(delta) of the composed mechanism for the relation
//            lies in [lower, upper] — both ends are proven bounds, unlike the rdp route's lower
//            end;
//   delta:   [max over orders of test_delta_lower, max over orders of the upper chain's
//            delta_at upper end].
// Events: see pld_events.h (noise laws, plain or Poisson-subsampled); ParameterError naming
// "route" for any other.
// Replace-one with Poisson-subsampled events (every event must then be subsampled, ParameterError
// naming "event" otherwise; each sensitivity bounds what ONE record adds to its query): the lower
// end is the test bound on the composed pair of the records adding +Delta and -Delta
// (pld_replace_instance.h), a pair the relation admits. The upper end, when every event is a
// Poisson-subsampled Gaussian, is the connect-the-dots chain of that same pair, which is proven
// to DOMINATE every replace-one pair (pld_replace_pair.h, docs/ACCOUNTING.md): the bracket is
// then the discretisation's alone. For other noise laws it is the group bound through the data
// set in between, from both orders' add/remove upper chains (pld_group_bound.h: a theorem, not
// tight - about twice the add/remove epsilon). Plain events under replace-one take their
// sensitivity as the replace-one sensitivity and are composed as above.
// Cost: the discretisation (~5 us per grid boundary) and O(log count) exact GMP products per
// event and chain. Both entry points first ask the cost model (pld_cost.h) and refuse, before
// any work, what it estimates over options.cost_budget (default 10 s, 1 GiB): LimitError naming
// "pld-step" or "count".
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_cost.h>
#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/accounting/rdp_accountant.h>

namespace exactdp::accounting::pld {

struct PldOptions {
  DiscretizationOptions discretization{};
  unsigned composition_tail_bits = 44;  // truncation per product (pld_composition.h): at most 2^-44 moved per side and product
  std::size_t max_composed_points = kMaxPoints;  // per product (LimitError naming "count" beyond)
  // Checked by the cost model (pld_cost.h) before anything is discretised: LimitError naming
  // "pld-step" or "count" when the estimate is over it.
  PldCostBudget cost_budget{};
  // Long compositions at small delta: the epsilon from wide masses (pld_wide_route.h) where it
  // applies and its estimate fits cost_budget; false: always the 2^-scale_bits masses.
  bool wide_masses = true;
};

struct PldAnswer {
  Interval value{kDefaultPrecision};  // [proven lower bound, proven upper bound]
  std::size_t points = 0;             // grid points of the largest composed distribution
  std::string grid;                   // e.g. "step 1/10000, masses at 2^-60"
};

// The default grid for a composition (what `exactdp compose` uses without --pld-step): 5000
// steps per unit of loss up to 5000 composed events in total, 2500 beyond. The cost is the
// discretisation (linear in 1/step) plus the exact products (support ~ sqrt(count) / step).
// On DP-SGD (q = 0.01, BENCHMARKS.md) the certified upper end stays within 6*10^-4 relative of
// dp_accounting's pessimistic estimate and the bracket within 0.5 % — far inside the 1 % / 5 %
// targets — at half the time of the next finer grid (1/5000 -> 1/2500 at 10^4 steps: sigma 2,
// [2.1605, 2.1630] in 0.43 s -> [2.1539, 2.1640] in 0.22 s).
[[nodiscard]] unsigned long default_steps_per_unit(const RdpComposition& events);

[[nodiscard]] PldAnswer pld_epsilon(const RdpComposition& events, const mpq_class& delta,
                                    Neighbouring relation = Neighbouring::kAddRemove,
                                    const PldOptions& options = {});
[[nodiscard]] PldAnswer pld_delta(const RdpComposition& events, const mpq_class& epsilon,
                                  Neighbouring relation = Neighbouring::kAddRemove,
                                  const PldOptions& options = {});

}  // namespace exactdp::accounting::pld
