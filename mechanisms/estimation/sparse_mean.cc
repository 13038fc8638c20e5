#include <exactdp/mechanisms/estimation/sparse_mean.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/peeling.h>
#include <exactdp/mechanisms/estimation/peeling_budget.h>

namespace exactdp::mechanisms {

using exactdp::to_string;

std::vector<mpz_class> truncated_column_sums(const MatrixView& x, long k, std::int64_t bound) {
  validate_matrix(x, "x");
  std::vector<int128> sums(x.cols, 0);
  for (std::size_t i = 0; i < x.rows; ++i) {
    for (std::size_t j = 0; j < x.cols; ++j) {
      const std::size_t at = i * x.cols + j;
      sums[j] += truncated_grid_value(x.values[at], k, bound, "x", at);
    }
  }
  std::vector<mpz_class> out;
  out.reserve(x.cols);
  for (int128 s : sums) out.push_back(to_mpz(s));
  return out;
}

SparseMeanGrid sparse_mean_grid(const SparseMeanOptions& options) {
  if (options.radius <= 0) throw ParameterError::out_of_range("radius", to_string(options.radius), "radius > 0");
  SparseMeanGrid grid;
  grid.exponent = options.granularity_exponent.value_or(default_granularity_exponent(options.radius, 32));
  grid.bound = grid_bound(options.radius, grid.exponent, "radius");
  return grid;
}

EstimateResult sparse_mean(const MatrixView& x, const SparseMeanOptions& options, BitSource& bits) {
  validate_privacy_target(options.epsilon, options.delta);
  validate_matrix(x, "x");
  validate_sparsity(options.sparsity, x.cols);
  const SparseMeanGrid grid = sparse_mean_grid(options);
  return sparse_mean_from_column_sums(truncated_column_sums(x, grid.exponent, grid.bound), x.rows, options, bits);
}

EstimateResult sparse_mean_from_column_sums(const std::vector<mpz_class>& sums, std::size_t rows,
                                            const SparseMeanOptions& options, BitSource& bits) {
  validate_privacy_target(options.epsilon, options.delta);
  if (rows < 1) throw ParameterError::out_of_range("rows", std::to_string(rows), "rows >= 1");
  validate_sparsity(options.sparsity, sums.size());
  const SparseMeanGrid grid = sparse_mean_grid(options);
  const long k = grid.exponent;
  const mpq_class unit = power_of_two(-k) / mpq_class(static_cast<unsigned long>(rows));
  PeelingResult peeled = peel_grid_values(sums, mpz_class(2 * grid.bound), unit, options.sparsity, options.epsilon,
                                          options.delta, options.route, bits);
  EstimateResult result;
  result.estimate.assign(sums.size(), 0);
  for (std::size_t r = 0; r < peeled.indices.size(); ++r) result.estimate[peeled.indices[r]] = peeled.values[r];
  result.support = peeled.indices;
  result.guarantee = std::move(peeled.guarantee);
  result.guarantee.tuning.push_back({"radius", options.radius});
  result.guarantee.tuning.push_back({"granularity", power_of_two(-k)});
  return result;
}

}  // namespace exactdp::mechanisms
