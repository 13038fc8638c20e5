#include <exactdp/mechanisms/estimation/private_max.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/mechanisms/estimation/peeling_budget.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/samplers/discrete_laplace.h>

namespace exactdp::mechanisms {

using exactdp::to_string;

GridDraw private_max_on_grid(const std::vector<mpz_class>& v, const mpz_class& sensitivity,
                             std::size_t rounds, const mpq_class& scale, BitSource& bits) {
  if (rounds < 1 || rounds > v.size()) {
    throw ParameterError::out_of_range("rounds", std::to_string(rounds),
                                       "1 <= rounds <= " + std::to_string(v.size()));
  }
  if (sensitivity < 1) {
    throw ParameterError::out_of_range("sensitivity", to_string(sensitivity), "sensitivity >= 1 grid unit");
  }
  if (scale <= 0) throw ParameterError::out_of_range("scale", to_string(scale), "scale > 0");
  std::vector<mpq_class> scores(v.size());
  for (std::size_t j = 0; j < v.size(); ++j) scores[j] = abs(v[j]);
  // Report-noisy-max draws Lap_Z(2 D Delta / epsilon) with D = 1 (integer scores and Delta):
  // epsilon = 2 Lambda / scale gives exactly the scale wanted.
  SelectionOptions options;
  options.mechanism = SelectionMechanism::kReportNoisyMax;
  options.noise = NoiseKind::kDiscreteLaplace;
  options.sensitivity = mpq_class(sensitivity);
  options.epsilon = 2 * mpq_class(sensitivity) / scale;
  Selection selection = Selection::make(std::move(scores), options);
  GridDraw draw;
  draw.indices = selection.select_top(bits, rounds);
  const DiscreteLaplaceParams value_noise = DiscreteLaplaceParams::make(scale);
  for (std::size_t j : draw.indices) {
    draw.noisy_values.push_back(v[j] + sample_discrete_laplace(bits, value_noise));
  }
  return draw;
}

mpz_class grid_sensitivity(const mpq_class& lambda, long k) {
  if (lambda <= 0) throw ParameterError::out_of_range("sensitivity", to_string(lambda), "sensitivity > 0");
  return floor_to_grid(lambda, k) + 1;
}

long sensitivity_grid_exponent(const mpq_class& sensitivity, std::optional<long> granularity_exponent) {
  if (sensitivity <= 0) throw ParameterError::out_of_range("sensitivity", to_string(sensitivity), "sensitivity > 0");
  const long k = granularity_exponent.value_or(default_granularity_exponent(sensitivity, 20));
  validate_granularity_exponent(k);
  return k;
}

PrivateMaxResult private_max(std::span<const double> v, const PrivateMaxOptions& options,
                             BitSource& bits) {
  validate_privacy_target(options.epsilon, std::nullopt);
  if (v.empty()) throw ParameterError("v", "v is empty: allowed at least one value");
  const long k = sensitivity_grid_exponent(options.sensitivity, options.granularity_exponent);
  return private_max_of_grid(to_grid(v, k, "v"), options, bits);
}

PrivateMaxResult private_max_of_grid(const std::vector<mpz_class>& n, const PrivateMaxOptions& options,
                                     BitSource& bits) {
  validate_privacy_target(options.epsilon, std::nullopt);
  if (n.empty()) throw ParameterError("v", "v is empty: allowed at least one value");
  const long k = sensitivity_grid_exponent(options.sensitivity, options.granularity_exponent);
  const mpz_class lambda_grid = grid_sensitivity(options.sensitivity, k);
  const mpq_class scale = 3 * mpq_class(lambda_grid) / options.epsilon;
  const GridDraw draw = private_max_on_grid(n, lambda_grid, 1, scale, bits);
  PrivateMaxResult result;
  result.index = draw.indices[0];
  result.value = mpq_class(draw.noisy_values[0]) * power_of_two(-k);
  EstimationGuarantee& g = result.guarantee;
  g.epsilon = options.epsilon;
  g.certified_epsilon = Interval(options.epsilon, kDefaultPrecision);
  g.composition = "basic over one round (argmax, then value)";
  g.routes.push_back({CompositionRoute::kBasic, options.epsilon, scale * power_of_two(-k), g.certified_epsilon});
  g.budget_split = {{"argmax", 2 * options.epsilon / 3}, {"value", options.epsilon / 3}};
  g.tuning = {{"sensitivity (grid-inflated)", mpq_class(lambda_grid) * power_of_two(-k)},
              {"granularity", power_of_two(-k)},
              {"noise_scale", scale * power_of_two(-k)}};
  return result;
}

}  // namespace exactdp::mechanisms
