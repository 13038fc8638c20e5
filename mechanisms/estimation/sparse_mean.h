// sparse_mean.h — private high-dimensional sparse mean (Cai–Wang–Zhang, "The cost of privacy",
// Algorithm 3): truncate every coordinate at radius R, average, keep the top s coordinates by
// Peeling (peeling.h) with their noisy values, set the others to 0 (docs/ESTIMATION.md).
//
// Exact computation. Each x_ij is mapped to the grid g = 2^-k and truncated there:
// c_ij = clamp(round_half_even(x_ij / g), -B, B), B = floor(R / g), so |g c_ij| <= R. The column
// sums S_j = sum_i c_ij are exact integers. Replacing one row moves every S_j by at most 2B
// (integers, no rounding after the per-row map, so no inflation): Peeling runs on S with
// Lambda = 2B, and the estimate is g (S_j + W_j) / n on the chosen coordinates, i.e. the paper's
// Peeling of the truncated mean with lambda = 2 g B / n <= 2 R / n. n is public (replace-one).
// Tuning (Theorem 3.2): R must bound the data's coordinates with high probability without
// looking at them (e.g. ||mu||_inf + sigma sqrt(2 log(n d)) for Gaussian data); s is the
// sparsity. Neither has a default. Granularity default k = 32 - floor(log2 R).
// Errors: ParameterError naming x (shape, NaN, inf), radius, sparsity, epsilon, delta, route,
// granularity_exponent. Cost: one pass over x (int64/int128 arithmetic), then s rounds of d draws.
// Thread-safety: pure function of its arguments and the BitSource.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

#include <exactdp/mechanisms/estimation/estimation_guarantee.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

// The budget (estimation_guarantee.h; 1 <= s <= d); granularity_exponent nullopt: k = 32 - floor(log2 R).
struct SparseMeanOptions : PeelingBudget {
  mpq_class radius = 1;  // R > 0
};

struct EstimateResult {
  std::vector<mpq_class> estimate;  // exact; zeros off the support
  std::vector<std::size_t> support;  // coordinates chosen, in the order chosen (may be empty)
  EstimationGuarantee guarantee;
};

// The grid of a sparse mean: g = 2^-exponent and the truncation bound B = floor(R 2^k) in grid
// units (ParameterError naming radius or granularity_exponent).
struct SparseMeanGrid {
  long exponent = 0;       // k
  std::int64_t bound = 0;  // B, 1 <= B < 2^62
};
[[nodiscard]] SparseMeanGrid sparse_mean_grid(const SparseMeanOptions& options);

// The truncated grid column sums S_j (validates x; B = floor(R 2^k)).
[[nodiscard]] std::vector<mpz_class> truncated_column_sums(const MatrixView& x, long k, std::int64_t bound);

[[nodiscard]] EstimateResult sparse_mean(const MatrixView& x, const SparseMeanOptions& options, BitSource& bits);

// sparse_mean from the column sums S_j = sum_i c_ij of `rows` rows already mapped to the grid of
// sparse_mean_grid(options) (c_ij = clamp(round_half_even(x_ij 2^k), -B, B), for data that
// is not held as doubles: exact decimals, e.g. `exactdp estimate sparse-mean`). The same draws,
// estimate and guarantee as sparse_mean on the same sums. The privacy argument needs every
// c_ij in [-B, B], which the caller's map must ensure; rows >= 1 is public.
[[nodiscard]] EstimateResult sparse_mean_from_column_sums(const std::vector<mpz_class>& sums, std::size_t rows,
                                                          const SparseMeanOptions& options, BitSource& bits);

}  // namespace exactdp::mechanisms
