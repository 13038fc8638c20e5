#include <exactdp/mechanisms/estimation/peeling.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/estimation_cost.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/mechanisms/estimation/peeling_budget.h>
#include <exactdp/mechanisms/estimation/private_max.h>

namespace exactdp::mechanisms {

using exactdp::to_string;

void validate_sparsity(std::size_t s, std::size_t d) {
  if (s < 1 || s > d) {
    throw ParameterError::out_of_range("sparsity", std::to_string(s), "1 <= sparsity <= " + std::to_string(d));
  }
}

PeelingResult peel_grid_values(const std::vector<mpz_class>& v, const mpz_class& lambda_grid,
                               const mpq_class& unit, std::size_t sparsity, const mpq_class& epsilon,
                               const std::optional<mpq_class>& delta, std::optional<CompositionRoute> route,
                               BitSource& bits) {
  validate_sparsity(sparsity, v.size());
  check_peeling_cost({sparsity, v.size(), delta.has_value(), numerator_denominator_bits(epsilon), 1});
  const mpq_class& g = unit;
  const mpq_class lambda = mpq_class(lambda_grid) * g;
  const CompositionRoute chosen = route.value_or(default_route(delta));
  PeelingResult result;
  EstimationGuarantee& guarantee = result.guarantee;
  guarantee.epsilon = epsilon;
  guarantee.delta = delta;
  guarantee.routes = calibrate_routes(chosen, epsilon, delta, sparsity, lambda);
  const RouteBudget& used = guarantee.routes.front();
  guarantee.certified_epsilon = used.epsilon;
  guarantee.composition = to_string(chosen) + " over " + std::to_string(sparsity) + " rounds";
  guarantee.budget_split = {{"argmax per round", 2 * used.epsilon_per_round / 3},
                            {"value per round", used.epsilon_per_round / 3}};
  guarantee.tuning = {{"sensitivity", lambda},
                      {"sparsity", mpq_class(static_cast<unsigned long>(sparsity))},
                      {"noise_scale", used.noise_scale}};
  const GridDraw draw = private_max_on_grid(v, lambda_grid, sparsity, used.noise_scale / g, bits);
  result.indices = draw.indices;
  for (const mpz_class& value : draw.noisy_values) result.values.push_back(mpq_class(value) * g);
  return result;
}

namespace {

// The checks before any value is mapped: the budget, d >= 1, the sparsity, the work.
void check_peeling(std::size_t d, const PeelingOptions& options) {
  validate_privacy_target(options.epsilon, options.delta);
  if (d == 0) throw ParameterError("v", "v is empty: allowed at least one value");
  validate_sparsity(options.sparsity, d);
  check_peeling_cost({options.sparsity, d, options.delta.has_value(), numerator_denominator_bits(options.epsilon), 1});
}

}  // namespace

PeelingResult peeling(std::span<const double> v, const PeelingOptions& options, BitSource& bits) {
  check_peeling(v.size(), options);
  const long k = sensitivity_grid_exponent(options.sensitivity, options.granularity_exponent);
  return peeling_of_grid(to_grid(v, k, "v"), options, bits);
}

PeelingResult peeling_of_grid(const std::vector<mpz_class>& n, const PeelingOptions& options, BitSource& bits) {
  check_peeling(n.size(), options);
  const long k = sensitivity_grid_exponent(options.sensitivity, options.granularity_exponent);
  const mpz_class lambda_grid = grid_sensitivity(options.sensitivity, k);
  PeelingResult result = peel_grid_values(n, lambda_grid, power_of_two(-k), options.sparsity, options.epsilon,
                                          options.delta, options.route, bits);
  result.guarantee.tuning.push_back({"granularity", power_of_two(-k)});
  return result;
}

}  // namespace exactdp::mechanisms
