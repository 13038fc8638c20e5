#include <exactdp/mechanisms/estimation/dp_lasso.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/estimation_cost.h>
#include <exactdp/mechanisms/estimation/peeling.h>
#include <exactdp/mechanisms/estimation/peeling_budget.h>
#include <exactdp/mechanisms/estimation/private_max.h>

namespace exactdp::mechanisms {

using exactdp::to_string;

namespace {

using GridData = RegressionGridData;

void add_product(mpz_class& sum, const mpz_class& a, std::int64_t b) {
  if (b >= 0) {
    mpz_addmul_ui(sum.get_mpz_t(), a.get_mpz_t(), static_cast<unsigned long>(b));
  } else {
    mpz_submul_ui(sum.get_mpz_t(), a.get_mpz_t(), static_cast<unsigned long>(-b));
  }
}

// u = round(v / g_v) for v = beta - (eta / n0) sum_{i in [begin, end)} (x_i^T beta - y_i) x_i, with
// beta = g_v B (B sparse: `support`). Units: R_i = (sum_j X_ij B_j) 2^a - Y_i 2^(k_v + a) is the
// residual in units 2^-(k_d + k_v + a), a = max(0, -k_v); G_j = sum_i R_i X_ij in units
// 2^-(2 k_d + k_v + a); u_j = B_j + round(-(eta / n0) G_j 2^-(2 k_d + a)).
std::vector<mpz_class> gradient_step(const GridData& data, std::size_t begin, std::size_t end,
                                     const std::vector<mpz_class>& b, const std::vector<std::size_t>& support,
                                     long kv, const mpq_class& eta) {
  const long a = std::max(0L, -kv);
  std::vector<mpz_class> g(data.cols);
  mpz_class residual, fitted;
  for (std::size_t i = begin; i < end; ++i) {
    const std::int64_t* row = &data.x[i * data.cols];
    fitted = 0;
    for (std::size_t j : support) add_product(fitted, b[j], row[j]);
    residual = fitted << a;
    residual -= mpz_class(static_cast<long>(data.y[i])) << (kv + a);
    for (std::size_t j = 0; j < data.cols; ++j) add_product(g[j], residual, row[j]);
  }
  const mpq_class factor = -eta / mpq_class(static_cast<unsigned long>(end - begin));
  std::vector<mpz_class> u(data.cols);
  for (std::size_t j = 0; j < data.cols; ++j) u[j] = b[j] + round_to_grid(factor * mpq_class(g[j]), -(2 * data.k + a));
  return u;
}

std::size_t default_iterations(std::size_t n) {
  std::size_t t = 0;
  while ((std::size_t{2} << t) <= n) ++t;  // floor(log2 n)
  return std::max<std::size_t>(1, t);
}

}  // namespace

mpq_class lasso_sensitivity(const DpLassoOptions& o, std::size_t part_rows) {
  const mpq_class s(static_cast<unsigned long>(o.sparsity));
  return 2 * o.step_size * o.coordinate_bound * (o.response_bound + s * o.coefficient_bound * o.coordinate_bound) /
         mpq_class(static_cast<unsigned long>(part_rows));
}

void check_dp_lasso(std::size_t rows, std::size_t cols, const DpLassoOptions& o) {
  validate_privacy_target(o.epsilon, o.delta);
  if (rows < 1 || cols < 1) {
    throw ParameterError("x", "x has " + std::to_string(rows) + " rows and " + std::to_string(cols) +
                                  " columns: allowed at least one of each");
  }
  validate_sparsity(o.sparsity, cols);
  for (const auto& [name, value] :
       {std::pair{"step_size", &o.step_size}, std::pair{"coordinate_bound", &o.coordinate_bound},
        std::pair{"response_bound", &o.response_bound}, std::pair{"coefficient_bound", &o.coefficient_bound}}) {
    if (*value <= 0) throw ParameterError::out_of_range(name, to_string(*value), std::string(name) + " > 0");
  }
  if (o.iterations && (*o.iterations < 1 || *o.iterations > rows)) {
    throw ParameterError::out_of_range("iterations", std::to_string(*o.iterations),
                                       "1 <= iterations <= rows = " + std::to_string(rows));
  }
  const std::size_t t_max = o.iterations.value_or(default_iterations(rows));
  check_peeling_cost({o.sparsity, cols, o.delta.has_value(), numerator_denominator_bits(o.epsilon), t_max});
}

EstimateResult dp_lasso(const MatrixView& x, std::span<const double> y, const DpLassoOptions& o,
                        BitSource& bits) {
  validate_privacy_target(o.epsilon, o.delta);
  validate_matrix(x, "x");
  check_response_length(y.size(), x.rows);
  check_dp_lasso(x.rows, x.cols, o);
  const RegressionGrid grid = regression_grid(o.coordinate_bound, o.response_bound, o.granularity_exponent);
  return dp_lasso_of_grid(truncated_regression_data(x, y, grid), o, bits);
}

EstimateResult dp_lasso_of_grid(const GridData& data, const DpLassoOptions& o, BitSource& bits) {
  check_dp_lasso(data.rows, data.cols, o);
  check_regression_data(data, regression_grid(o.coordinate_bound, o.response_bound, o.granularity_exponent));
  const std::size_t t_max = o.iterations.value_or(default_iterations(data.rows));
  const std::size_t n0 = data.rows / t_max;
  const mpq_class lambda = lasso_sensitivity(o, n0);
  const long kv = default_granularity_exponent(lambda, 20);
  const mpz_class lambda_grid = grid_sensitivity(lambda, kv);
  const std::int64_t coefficient_grid = grid_bound(o.coefficient_bound, kv, "coefficient_bound");
  std::vector<mpz_class> b(data.cols);
  std::vector<std::size_t> support;
  EstimateResult result;
  for (std::size_t t = 0; t < t_max; ++t) {
    const std::vector<mpz_class> u = gradient_step(data, t * n0, (t + 1) * n0, b, support, kv, o.step_size);
    PeelingResult peeled = peel_grid_values(u, lambda_grid, 1, o.sparsity, o.epsilon, o.delta, o.route, bits);
    std::fill(b.begin(), b.end(), 0);
    for (std::size_t r = 0; r < peeled.indices.size(); ++r) {
      b[peeled.indices[r]] = peeled.values[r].get_num();  // unit 1: integers in grid units
      clamp_symmetric(b[peeled.indices[r]], mpz_class(static_cast<long>(coefficient_grid)));
    }
    support = peeled.indices;
    result.guarantee = std::move(peeled.guarantee);
  }
  const mpq_class gv = power_of_two(-kv);
  for (const mpz_class& bj : b) result.estimate.push_back(mpq_class(bj) * gv);
  result.support = support;
  EstimationGuarantee& g = result.guarantee;
  g.composition = "parallel over " + std::to_string(t_max) + " disjoint parts of " + std::to_string(n0) +
                  " rows; each part: " + g.composition;
  for (auto& route : g.routes) route.noise_scale *= gv;
  g.tuning = {{"sensitivity", mpq_class(lambda_grid) * gv}, {"sparsity", mpq_class(static_cast<unsigned long>(o.sparsity))},
              {"noise_scale", g.routes.front().noise_scale}, {"iterations", mpq_class(static_cast<unsigned long>(t_max))},
              {"part_rows", mpq_class(static_cast<unsigned long>(n0))}, {"step_size", o.step_size},
              {"coordinate_bound", o.coordinate_bound}, {"response_bound", o.response_bound},
              {"coefficient_bound", o.coefficient_bound}, {"granularity", gv},
              {"data_granularity", power_of_two(-data.k)}};
  return result;
}

}  // namespace exactdp::mechanisms
