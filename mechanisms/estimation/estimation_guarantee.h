// estimation_guarantee.h — what every estimator of this folder returns beside its estimate: the
// certified privacy guarantee, how the budget was split and composed, and the tuning values used
// (docs/ESTIMATION.md). Plain data; no behaviour.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::mechanisms {

// How the rounds of a peeling are composed (peeling_budget.h):
//   kBasic:    s rounds of eps0-DP are (s eps0, 0)-DP (no delta);
//   kAdvanced: Dwork–Rothblum–Vadhan, the paper's route: min(s eps0, sqrt(2 s ln(1/delta)) eps0
//              + s eps0 (e^eps0 - 1)) at delta;
//   kOptimal:  Kairouz–Oh–Viswanath, the exact optimal composition of s eps0-DP mechanisms at
//              delta (certified, accounting/pure_dp_composition.h).
enum class CompositionRoute { kBasic, kAdvanced, kOptimal };

// The budget every peeling estimator takes (Peeling, the sparse mean, DP-LASSO): the target
// (epsilon, delta), the composition route (nullopt: default_route, peeling_budget.h: kov with a
// delta, basic without), the sparsity s and the data grid exponent k (nullopt: the estimator's
// default, stated in its header). Each estimator's options add its own bounds.
struct PeelingBudget {
  mpq_class epsilon = 1;
  std::optional<mpq_class> delta;
  std::optional<CompositionRoute> route;
  std::size_t sparsity = 1;  // s
  std::optional<long> granularity_exponent;
};

// One route's calibration: the per-round budget it allows for the target and what that costs.
struct RouteBudget {
  CompositionRoute route = CompositionRoute::kBasic;
  mpq_class epsilon_per_round;  // each round (argmax + value release) is this DP, exactly
  mpq_class noise_scale;        // discrete Laplace scale it needs, in data units (g times grid units)
  Interval epsilon;             // certified total epsilon of the s rounds at the target delta
};

struct EstimationGuarantee {
  mpq_class epsilon;                 // the target
  std::optional<mpq_class> delta;    // the target (nullopt: pure DP)
  Interval certified_epsilon;        // the route used; upper end <= epsilon (proven)
  std::string composition;           // words: the composition argument, e.g. "kov over 5 rounds"
  std::vector<RouteBudget> routes;   // every route computed; routes[0] is the one used
  // Named exact budget parts, e.g. {"argmax per round", 2/3 eps0}, {"value per round", eps0/3}.
  std::vector<std::pair<std::string, mpq_class>> budget_split;
  // Named tuning values actually used (radius, sparsity, step size, granularity, sensitivity...).
  std::vector<std::pair<std::string, mpq_class>> tuning;
};

// "basic", "advanced", "kov"; and back (ParameterError naming "route").
[[nodiscard]] std::string to_string(CompositionRoute route);
[[nodiscard]] CompositionRoute parse_composition_route(const std::string& text);

}  // namespace exactdp::mechanisms
