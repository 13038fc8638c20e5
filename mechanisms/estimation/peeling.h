// peeling.h — Peeling (Cai–Wang–Zhang, "The cost of privacy", Algorithm 2): s rounds of
// PrivateMax (private_max.h), each on the coordinates not yet chosen, with the per-round budget
// of the composition route chosen (peeling_budget.h). Returns the s indices in the order chosen,
// their noisy values and the guarantee, which lists every route's budget and the noise scale it
// would need (docs/ESTIMATION.md, "Peeling").
//
// Privacy: s adaptive rounds of eps0-DP (eps0 = 3 Lambda / b); the certified total at delta is
// the route's (upper end <= epsilon, proven). Exactness: as private_max.h.
// Errors: ParameterError naming v, sensitivity, sparsity (1 <= s <= d), epsilon, delta, route
// (kAdvanced / kOptimal need a delta), granularity_exponent.
// Thread-safety: pure functions of their arguments and the BitSource.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include <exactdp/mechanisms/estimation/estimation_guarantee.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

// The budget (estimation_guarantee.h); granularity_exponent nullopt: k = 20 - floor(log2 lambda).
struct PeelingOptions : PeelingBudget {
  mpq_class sensitivity = 1;  // lambda, data units
};

struct PeelingResult {
  std::vector<std::size_t> indices;  // in the order chosen
  std::vector<mpq_class> values;     // noisy values, data units, exact
  EstimationGuarantee guarantee;
};

// Peeling of integer values v with integer sensitivity Lambda >= 1, one integer unit being `unit`
// in data units (g for a grid vector, g / n for a grid sum reported as a mean): calibrates the
// routes, draws, and fills the guarantee (composition, budget split, sensitivity Lambda unit,
// sparsity, noise scale in data units); values are returned times `unit`. What sparse_mean and
// dp_lasso call on their exact grid statistics.
[[nodiscard]] PeelingResult peel_grid_values(const std::vector<mpz_class>& v, const mpz_class& lambda_grid,
                                             const mpq_class& unit, std::size_t sparsity, const mpq_class& epsilon,
                                             const std::optional<mpq_class>& delta,
                                             std::optional<CompositionRoute> route, BitSource& bits);

// Peeling of a real vector: mapped to the grid, Lambda = floor(lambda / g) + 1 (private_max.h).
[[nodiscard]] PeelingResult peeling(std::span<const double> v, const PeelingOptions& options,
                                    BitSource& bits);

// Peeling of values already on the grid: n_j = round_half_even(v_j 2^k) with k =
// sensitivity_grid_exponent (private_max.h); the same result as peeling of doubles of the same
// values with the same bits.
[[nodiscard]] PeelingResult peeling_of_grid(const std::vector<mpz_class>& n, const PeelingOptions& options,
                                            BitSource& bits);

// ParameterError naming "sparsity" unless 1 <= s <= d.
void validate_sparsity(std::size_t s, std::size_t d);

}  // namespace exactdp::mechanisms
