// private_max.h — PrivateMax (Cai–Wang–Zhang, "The cost of privacy", Algorithm 1) on the grid
// g = 2^-k with exact discrete Laplace noise (docs/ESTIMATION.md, "PrivateMax").
//
// On integer values v_j (grid units) whose every coordinate moves by at most Lambda (an integer)
// between neighbouring data sets, one round draws independent X_j ~ Lap_Z(b), takes the smallest
// j* attaining max_j (|v_j| + X_j) (report-noisy-max of selection.h, which this calls) and
// releases v_j* + W with a fresh W ~ Lap_Z(b). The argmax is (2 Lambda / b)-DP (selection.h:
// the scores |v_j| move by <= Lambda in either direction, since ||a| - |b|| <= |a - b|), the value
// (Lambda / b)-DP: a round is eps0 = 3 Lambda / b -DP, exactly (pure).
//
// private_max (doubles): v_j are mapped to the grid (grid_data.h, round half even), which can move
// a coordinate's difference by up to one grid unit: if |v_j - v'_j| <= lambda then
// |n_j - n'_j| <= lambda / g + 1, an integer, so <= floor(lambda / g) + 1 =: Lambda. The charged
// sensitivity is Lambda g <= lambda + g (the grid inflation; the default g <= lambda 2^-20).
// Exactness: integer arithmetic and exact discrete Laplace draws only. Timing: not constant-time.
// Errors: ParameterError naming v (empty, NaN, inf), sensitivity (> 0), epsilon, rounds,
// granularity_exponent. Thread-safety: pure functions of their arguments and the BitSource.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include <exactdp/mechanisms/estimation/estimation_guarantee.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

// The indices chosen (in order) and their noisy values, in grid units.
struct GridDraw {
  std::vector<std::size_t> indices;
  std::vector<mpz_class> noisy_values;
};

// `rounds` rounds of PrivateMax, each on the coordinates not yet chosen (Algorithm 2's loop), with
// discrete Laplace scale `scale` (grid units, > 0) for both the argmax and the value.
// 1 <= rounds <= v.size(); sensitivity >= 1 (grid units).
[[nodiscard]] GridDraw private_max_on_grid(const std::vector<mpz_class>& v, const mpz_class& sensitivity,
                                           std::size_t rounds, const mpq_class& scale, BitSource& bits);

// Lambda = floor(lambda / g) + 1 (g = 2^-k): the grid sensitivity of a rounded real vector.
[[nodiscard]] mpz_class grid_sensitivity(const mpq_class& lambda, long k);

struct PrivateMaxOptions {
  mpq_class epsilon = 1;      // the round's total (argmax 2/3, value 1/3)
  mpq_class sensitivity = 1;  // lambda: per-coordinate sensitivity of v, data units
  std::optional<long> granularity_exponent;  // nullopt: k = 20 - floor(log2 lambda)
};

struct PrivateMaxResult {
  std::size_t index = 0;
  mpq_class value;  // g (n_j* + W), exact
  EstimationGuarantee guarantee;
};

// One round of PrivateMax on v with noise scale b = 3 Lambda / epsilon: epsilon-DP (pure).
[[nodiscard]] PrivateMaxResult private_max(std::span<const double> v, const PrivateMaxOptions& options,
                                           BitSource& bits);

// The grid exponent k of PrivateMax and Peeling, from public values only: the one given, or
// 20 - floor(log2 lambda). ParameterError naming sensitivity unless lambda > 0, granularity_exponent
// when out of range.
[[nodiscard]] long sensitivity_grid_exponent(const mpq_class& sensitivity, std::optional<long> granularity_exponent);

// private_max of values already on the grid: n_j = round_half_even(v_j 2^k) with k =
// sensitivity_grid_exponent (grid_data.h's round_half_even_to_grid of exact values; what
// private_max does to doubles, so the same values and bits give the same result).
[[nodiscard]] PrivateMaxResult private_max_of_grid(const std::vector<mpz_class>& n, const PrivateMaxOptions& options,
                                                   BitSource& bits);

}  // namespace exactdp::mechanisms
