// noisy_ols.h — private ordinary least squares in the classical setting (Cai–Wang–Zhang, "The
// cost of privacy", Section 4.3.1): the exact OLS estimate of bounded data plus exact discrete
// Gaussian noise on the grid, with a certified (epsilon, delta) (docs/ESTIMATION.md, "Noisy OLS",
// has the sensitivity proof).
//
// Data. x_ij and y_i are mapped to the grid g_d = 2^-k_d and truncated there at the public bounds:
// |x_ij| <= c (coordinate_bound), |y_i| <= R (response_bound); so ||x_i||_2 <= c sqrt(p).
// A = sum_i x_i x_i^T and b = sum_i x_i y_i are exact integers (units g_d^2), and
// beta = A^-1 b is solved exactly in rationals.
// Assumption (the theorem's bounded design), checked exactly: lambda_min(A) > n / L for the
// public eigen_bound L, i.e. A - (n / L) I is positive definite; otherwise ParameterError naming
// "design". DP holds for neighbouring data sets (replace one row) that BOTH satisfy it; the
// refusal itself depends on the data and is not covered by the guarantee (as in the theorem).
// Sensitivity (proved in the docs): ||beta - beta'||_2 <= Delta = 2 L c' R (1 + L c'^2) / n with
// c'^2 = p c^2; Delta^2 is an exact rational and Delta is bounded above by sqrt_upper.
// Release: beta rounded to the grid g_o (round half up), integer noise Z_j ~ N_Z(0, s2) (exact,
// samplers/discrete_gaussian.h), estimate g_o (round(beta / g_o) + Z). The rounding moves the
// integer vector by ||v||_2^2 <= D2 = grid_l2_sensitivity_squared(Delta, g_o, p) (an integer,
// accounting/grid_noise.h), so the release is rho-zCDP with rho = D2 / (2 s2) exactly (CKS20)
// and (epsilon, delta)-DP by the certified conversion (accounting/zcdp.h).
// Calibration: rho is the largest (to 2^-40 relative, by bisection) with certified epsilon(rho,
// delta) <= epsilon; g_o = the power of two <= sigma 2^-18 with sigma^2 = Delta^2 / (2 rho);
// s2 = D2 / (2 rho).
// Errors: ParameterError naming x, y (shape, NaN, inf), coordinate_bound, response_bound,
// eigen_bound (> 0), design, epsilon, delta (required), granularity_exponent (also when
// n (c / g_d) max(c, R) / g_d reaches 2^125, past the exact int128 sums).
// Cost: O(n p^2) integer operations and O(p^3) rational ones. Thread-safety: pure function.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <span>

#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/mechanisms/estimation/sparse_mean.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

struct NoisyOlsOptions {
  mpq_class epsilon = 1;
  mpq_class delta{1, 1000000};
  mpq_class coordinate_bound = 1;  // c: |x_ij| <= c after truncation
  mpq_class response_bound = 1;    // R: |y_i| <= R after truncation
  mpq_class eigen_bound = 1;       // L: lambda_min(X^T X / n) > 1 / L required
  std::optional<long> granularity_exponent;  // data grid; nullopt: 32 - floor(log2 min(c, R))
};

// The exact sensitivity bound Delta^2 = 4 L^2 p c^2 R^2 (1 + L p c^2)^2 / n^2.
[[nodiscard]] mpq_class ols_sensitivity_squared(const NoisyOlsOptions& options, std::size_t n, std::size_t p);

// The exact OLS of the truncated grid data (ParameterError naming "design" when lambda_min(A) <= n / L).
[[nodiscard]] std::vector<mpq_class> truncated_ols(const MatrixView& x, std::span<const double> y,
                                                   const NoisyOlsOptions& options);

[[nodiscard]] EstimateResult noisy_ols(const MatrixView& x, std::span<const double> y,
                                       const NoisyOlsOptions& options, BitSource& bits);

// The checks on the options and the data's shape that come before any value is read: the budget,
// the bounds, the exact sums' size and the solve's cost (estimation_cost.h). ParameterError /
// LimitError naming the parameter.
void check_noisy_ols(std::size_t rows, std::size_t cols, const NoisyOlsOptions& options);

// truncated_ols and noisy_ols of data already on the grid regression_grid(c, R,
// granularity_exponent) (grid_data.h): the same as of doubles of the same values (with the same
// bits). ParameterError naming granularity_exponent when data.k is not that grid's, x / y when the
// sizes disagree.
[[nodiscard]] std::vector<mpq_class> truncated_ols_of_grid(const RegressionGridData& data,
                                                           const NoisyOlsOptions& options);
[[nodiscard]] EstimateResult noisy_ols_of_grid(const RegressionGridData& data, const NoisyOlsOptions& options,
                                               BitSource& bits);

}  // namespace exactdp::mechanisms
