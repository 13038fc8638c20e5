#include <exactdp/mechanisms/estimation/peeling_budget.h>

#include <mpfr.h>

#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {

using exactdp::to_string;
namespace {

constexpr int kBisectionSteps = 40;

bool admissible(CompositionRoute route, const mpq_class& eps0, unsigned long rounds,
                const std::optional<mpq_class>& delta, const mpq_class& epsilon) {
  const Interval total = route_epsilon(route, eps0, rounds, delta);
  return mpfr_cmp_q(total.upper(), epsilon.get_mpq_t()) <= 0;
}

}  // namespace

std::string to_string(CompositionRoute route) {
  switch (route) {
    case CompositionRoute::kBasic: return "basic";
    case CompositionRoute::kAdvanced: return "advanced";
    case CompositionRoute::kOptimal: return "kov";
  }
  return "basic";
}

CompositionRoute parse_composition_route(const std::string& text) {
  if (text == "basic") return CompositionRoute::kBasic;
  if (text == "advanced") return CompositionRoute::kAdvanced;
  if (text == "kov") return CompositionRoute::kOptimal;
  throw ParameterError("route", "route = " + abbreviate(text) +
                                    " is not known: allowed basic, advanced, kov");
}

void validate_privacy_target(const mpq_class& epsilon, const std::optional<mpq_class>& delta) {
  if (epsilon <= 0 || epsilon > kMaxEstimationEpsilon) {
    throw ParameterError::out_of_range("epsilon", to_string(epsilon), "0 < epsilon <= 1000");
  }
  if (delta && (*delta <= 0 || *delta >= 1)) {
    throw ParameterError::out_of_range("delta", to_string(*delta), "0 < delta < 1");
  }
}

CompositionRoute default_route(const std::optional<mpq_class>& delta) {
  return delta ? CompositionRoute::kOptimal : CompositionRoute::kBasic;
}

Interval route_epsilon(CompositionRoute route, const mpq_class& eps0, unsigned long rounds,
                       const std::optional<mpq_class>& delta) {
  accounting::validate_pure_dp_composition(eps0, rounds);
  const Interval basic(accounting::basic_composition_epsilon(eps0, rounds), kDefaultPrecision);
  if (route == CompositionRoute::kBasic) return basic;
  if (!delta) {
    throw ParameterError("delta", "delta is required by the " + to_string(route) +
                                      " composition route: allowed 0 < delta < 1");
  }
  if (route == CompositionRoute::kAdvanced) {
    return min(basic, accounting::advanced_composition_epsilon(eps0, rounds, *delta));
  }
  return accounting::kov_epsilon(eps0, rounds, *delta).value;
}

RouteBudget calibrate_route(CompositionRoute route, const mpq_class& epsilon,
                            const std::optional<mpq_class>& delta, unsigned long rounds,
                            const mpq_class& sensitivity) {
  validate_privacy_target(epsilon, delta);
  if (rounds < 1 || rounds > accounting::kMaxCompositions) {
    throw ParameterError::out_of_range("rounds", std::to_string(rounds), "1 <= rounds <= 1000000");
  }
  if (sensitivity <= 0) {
    throw ParameterError::out_of_range("sensitivity", to_string(sensitivity), "sensitivity > 0");
  }
  // lo is always admissible (every route is at most basic composition); grow hi until it is not.
  mpq_class lo = epsilon / rounds;
  mpq_class hi = 2 * lo;
  while (hi <= kMaxEstimationEpsilon && admissible(route, hi, rounds, delta, epsilon)) {
    lo = hi;
    hi *= 2;
  }
  for (int step = 0; step < kBisectionSteps; ++step) {
    mpq_class mid = (lo + hi) / 2;
    if (admissible(route, mid, rounds, delta, epsilon)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  RouteBudget budget;
  budget.route = route;
  budget.epsilon_per_round = lo;
  budget.noise_scale = 3 * sensitivity / lo;
  budget.epsilon = route_epsilon(route, lo, rounds, delta);
  return budget;
}

std::vector<RouteBudget> calibrate_routes(CompositionRoute chosen, const mpq_class& epsilon,
                                          const std::optional<mpq_class>& delta, unsigned long rounds,
                                          const mpq_class& sensitivity) {
  std::vector<RouteBudget> out{calibrate_route(chosen, epsilon, delta, rounds, sensitivity)};
  for (CompositionRoute other :
       {CompositionRoute::kBasic, CompositionRoute::kAdvanced, CompositionRoute::kOptimal}) {
    if (other == chosen || (!delta && other != CompositionRoute::kBasic)) continue;
    out.push_back(calibrate_route(other, epsilon, delta, rounds, sensitivity));
  }
  return out;
}

}  // namespace exactdp::mechanisms
