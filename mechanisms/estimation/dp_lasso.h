// dp_lasso.h — differentially private LASSO by private iterative hard thresholding (Cai–Wang–
// Zhang, "The cost of privacy", Algorithm 4), exact on the grid (docs/ESTIMATION.md, "DP-LASSO").
//
// Data: x_ij, y_i mapped to the grid g_d = 2^-k_d and truncated at |x_ij| <= c (coordinate_bound)
// and |y_i| <= R (response_bound; the paper's Pi_R of the responses). The rows are cut into T
// consecutive parts of n0 = floor(n / T) rows (the rows beyond T n0 are not used; the paper's
// random split is the caller's shuffle: any data-independent split keeps the guarantee).
// Iteration t = 0..T-1, beta^0 = 0, on part P_t, exactly (integers and rationals):
//   v = beta^t - (eta / n0) sum_{i in P_t} (x_i^T beta^t - y_i) x_i,
//   u_j = round(v_j / g_v) on the grid g_v = 2^-k_v,
//   beta^{t+1} = Peeling of u (top s, noisy values), each value clamped to [-C, C] (the
//                projection onto the l_inf ball of radius C = coefficient_bound), others 0.
// Sensitivity of v (proved in the docs): beta^t has at most s nonzero coordinates of magnitude
// <= C, so |x_i^T beta^t| <= s C c, and replacing one row of P_t moves each v_j by at most
// lambda = 2 eta c (R + s C c) / n0; on the grid, Lambda = floor(lambda / g_v) + 1.
// Privacy: each row is in exactly one part; iteration t is (epsilon, delta)-DP in the rows of P_t
// given beta^t (Peeling, peeling_budget.h), and later iterations only post-process its output:
// the whole run is (epsilon, delta)-DP (parallel composition over the parts).
// Tuning defaults (Theorem 4.2): iterations T = max(1, floor(log2 n)); step eta = 1/2 (the paper's
// 1 / (2 gamma) for a design whose covariance has largest eigenvalue gamma <= 1, e.g.
// standardised); k_d = 32 - floor(log2 min(c, R)); k_v = 20 - floor(log2 lambda). s (the paper's
// s >= rho s*), c, R and C have no default: they bound the data and the coefficients.
// Errors: ParameterError naming x, y, sparsity, iterations (1 <= T <= n), step_size (> 0),
// coordinate_bound, response_bound, coefficient_bound (> 0), epsilon, delta, route,
// granularity_exponent. Cost: O(n d) big-integer multiply-adds plus T peelings.
// Thread-safety: pure function of its arguments and the BitSource.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <span>

#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/mechanisms/estimation/sparse_mean.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

// The budget (estimation_guarantee.h); granularity_exponent is the data grid's k_d.
struct DpLassoOptions : PeelingBudget {
  std::optional<std::size_t> iterations;  // T; nullopt: max(1, floor(log2 n))
  mpq_class step_size{1, 2};              // eta
  mpq_class coordinate_bound = 1;         // c
  mpq_class response_bound = 1;           // R
  mpq_class coefficient_bound = 1;        // C
};

// lambda = 2 eta c (R + s C c) / n0, exact.
[[nodiscard]] mpq_class lasso_sensitivity(const DpLassoOptions& options, std::size_t part_rows);

[[nodiscard]] EstimateResult dp_lasso(const MatrixView& x, std::span<const double> y,
                                      const DpLassoOptions& options, BitSource& bits);

// The checks on the options and the data's shape that come before any value is read: the budget,
// the bounds, the sparsity (<= cols), the iterations (<= rows) and the peeling work
// (estimation_cost.h). ParameterError / LimitError naming the parameter.
void check_dp_lasso(std::size_t rows, std::size_t cols, const DpLassoOptions& options);

// dp_lasso of data already on the grid regression_grid(c, R, granularity_exponent) (grid_data.h):
// the same estimate as dp_lasso of doubles of the same values with the same bits. ParameterError
// naming granularity_exponent when data.k is not that grid's, x / y when the sizes disagree.
[[nodiscard]] EstimateResult dp_lasso_of_grid(const RegressionGridData& data, const DpLassoOptions& options,
                                              BitSource& bits);

}  // namespace exactdp::mechanisms
