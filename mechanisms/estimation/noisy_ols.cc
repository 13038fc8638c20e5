#include <exactdp/mechanisms/estimation/noisy_ols.h>

#include <mpfr.h>

#include <algorithm>

#include <exactdp/accounting/grid_noise.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/estimation_cost.h>
#include <exactdp/mechanisms/estimation/exact_linear_algebra.h>
#include <exactdp/mechanisms/estimation/peeling_budget.h>
#include <exactdp/samplers/discrete_gaussian.h>

namespace exactdp::mechanisms {

using exactdp::to_string;

namespace {

constexpr int kBisectionSteps = 40;

// The largest rho (bisection on [0, epsilon]) whose certified epsilon at delta is <= epsilon.
mpq_class calibrate_rho(const mpq_class& epsilon, const mpq_class& delta) {
  mpq_class lo = 0;
  mpq_class hi = epsilon;
  for (int step = 0; step < kBisectionSteps; ++step) {
    const mpq_class mid = (lo + hi) / 2;
    const auto converted = accounting::zcdp_epsilon(mid, delta);
    if (mpfr_cmp_q(converted.bound.value.upper(), epsilon.get_mpq_t()) <= 0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The most bits of an entry of the two integer systems solved (A and b; den A - num I), from the
// bound n bx max(bx, by) of an entry of A and b.
// n 2^(2k) / L: n / L in the units g^2 of A.
mpq_class ols_shift(const NoisyOlsOptions& o, std::size_t rows, long k) {
  return mpq_class(static_cast<unsigned long>(rows)) * power_of_two(2 * k) / o.eigen_bound;
}

unsigned long ols_entry_bits(const mpz_class& largest, const mpq_class& shift) {
  const auto bits = [](const mpz_class& v) { return static_cast<unsigned long>(mpz_sizeinbase(v.get_mpz_t(), 2)); };
  return std::max(bits(largest) + bits(shift.get_den()), bits(shift.get_num())) + 1;
}

}  // namespace

mpq_class ols_sensitivity_squared(const NoisyOlsOptions& o, std::size_t n, std::size_t p) {
  const mpq_class c2 = mpq_class(static_cast<unsigned long>(p)) * o.coordinate_bound * o.coordinate_bound;
  const mpq_class factor = 1 + o.eigen_bound * c2;
  const mpq_class nn = mpq_class(static_cast<unsigned long>(n)) * static_cast<unsigned long>(n);
  return 4 * o.eigen_bound * o.eigen_bound * c2 * o.response_bound * o.response_bound * factor * factor / nn;
}

void check_noisy_ols(std::size_t rows, std::size_t cols, const NoisyOlsOptions& o) {
  validate_privacy_target(o.epsilon, o.delta);
  check_epsilon_size(o.epsilon);
  if (rows < 1 || cols < 1) {
    throw ParameterError("x", "x has " + std::to_string(rows) + " rows and " + std::to_string(cols) +
                                  " columns: allowed at least one of each");
  }
  for (const auto& [name, value] : {std::pair{"coordinate_bound", &o.coordinate_bound},
                                    std::pair{"response_bound", &o.response_bound},
                                    std::pair{"eigen_bound", &o.eigen_bound}}) {
    if (*value <= 0) throw ParameterError::out_of_range(name, to_string(*value), std::string(name) + " > 0");
  }
  const RegressionGrid grid = regression_grid(o.coordinate_bound, o.response_bound, o.granularity_exponent);
  const long k = grid.k;
  // The int128 sums hold n products of two grid values: n bx max(bx, by) < 2^126 keeps them exact.
  const mpz_class largest = mpz_class(static_cast<unsigned long>(rows)) * static_cast<unsigned long>(grid.x_bound) *
                            static_cast<unsigned long>(std::max(grid.x_bound, grid.y_bound));
  if (mpz_sizeinbase(largest.get_mpz_t(), 2) > 125) {
    throw ParameterError("granularity_exponent", "granularity_exponent = " + std::to_string(k) +
                                                     " is too fine for these bounds and rows: allowed rows * "
                                                     "(coordinate_bound / g) * max(coordinate_bound, response_bound) / g < 2^125");
  }
  check_ols_cost({rows, cols, ols_entry_bits(largest, ols_shift(o, rows, k))});
}

std::vector<mpq_class> truncated_ols(const MatrixView& x, std::span<const double> y, const NoisyOlsOptions& o) {
  validate_privacy_target(o.epsilon, o.delta);
  check_epsilon_size(o.epsilon);
  validate_matrix(x, "x");
  check_response_length(y.size(), x.rows);
  check_noisy_ols(x.rows, x.cols, o);
  const RegressionGrid grid = regression_grid(o.coordinate_bound, o.response_bound, o.granularity_exponent);
  return truncated_ols_of_grid(truncated_regression_data(x, y, grid), o);
}

std::vector<mpq_class> truncated_ols_of_grid(const RegressionGridData& data, const NoisyOlsOptions& o) {
  check_noisy_ols(data.rows, data.cols, o);
  check_regression_data(data, regression_grid(o.coordinate_bound, o.response_bound, o.granularity_exponent));
  const std::size_t p = data.cols;
  const mpq_class shift = ols_shift(o, data.rows, data.k);
  std::vector<int128> a(p * p, 0), b(p, 0);
  for (std::size_t i = 0; i < data.rows; ++i) {
    const std::int64_t* row = &data.x[i * p];
    const std::int64_t yi = data.y[i];
    for (std::size_t j = 0; j < p; ++j) {
      b[j] += static_cast<int128>(row[j]) * yi;
      for (std::size_t l = 0; l <= j; ++l) a[j * p + l] += static_cast<int128>(row[j]) * row[l];
    }
  }
  std::vector<mpz_class> am(p * p), bm(p);
  for (std::size_t j = 0; j < p; ++j) {
    bm[j] = to_mpz(b[j]);
    for (std::size_t l = 0; l <= j; ++l) am[j * p + l] = am[l * p + j] = to_mpz(a[j * p + l]);
  }
  // A - (n / L) I in grid units g^2, times the denominator of shift = n 2^(2k) / L (a positive
  // factor keeps positive definiteness): den A - num I, an integer matrix.
  std::vector<mpz_class> shifted = am;
  for (auto& e : shifted) e *= shift.get_den();
  for (std::size_t j = 0; j < p; ++j) shifted[j * p + j] -= shift.get_num();
  if (!is_positive_definite(std::move(shifted), p)) {
    throw ParameterError("design", "design: the smallest eigenvalue of X^T X / n (truncated data) is not above "
                                   "1 / eigen_bound = " + to_string(1 / o.eigen_bound) +
                                   ": allowed designs with lambda_min(X^T X / n) > 1 / eigen_bound");
  }
  return *solve_positive_definite(std::move(am), std::move(bm), p);
}

EstimateResult noisy_ols(const MatrixView& x, std::span<const double> y, const NoisyOlsOptions& o,
                         BitSource& bits) {
  validate_matrix(x, "x");
  check_response_length(y.size(), x.rows);
  check_noisy_ols(x.rows, x.cols, o);
  const RegressionGrid grid = regression_grid(o.coordinate_bound, o.response_bound, o.granularity_exponent);
  return noisy_ols_of_grid(truncated_regression_data(x, y, grid), o, bits);
}

EstimateResult noisy_ols_of_grid(const RegressionGridData& data, const NoisyOlsOptions& o, BitSource& bits) {
  const std::vector<mpq_class> beta = truncated_ols_of_grid(data, o);
  const std::size_t p = data.cols;
  const mpq_class delta2 = ols_sensitivity_squared(o, data.rows, p);
  const mpq_class sensitivity = sqrt_upper(delta2);
  const mpq_class rho = calibrate_rho(o.epsilon, o.delta);
  const long ko = default_granularity_exponent(sqrt_upper(delta2 / (2 * rho)), 18);
  const mpz_class d2 = accounting::grid_l2_sensitivity_squared(sensitivity, power_of_two(-ko),
                                                               mpz_class(static_cast<unsigned long>(p)));
  const mpq_class sigma2_grid = mpq_class(d2) / (2 * rho);
  const DiscreteGaussianParams noise = DiscreteGaussianParams::make(sigma2_grid);
  EstimateResult result;
  for (std::size_t j = 0; j < p; ++j) {
    const mpz_class released = round_to_grid(beta[j], ko) + sample_discrete_gaussian(bits, noise);
    result.estimate.push_back(mpq_class(released) * power_of_two(-ko));
    result.support.push_back(j);
  }
  EstimationGuarantee& g = result.guarantee;
  g.epsilon = o.epsilon;
  g.delta = o.delta;
  g.certified_epsilon = accounting::zcdp_epsilon(rho, o.delta).bound.value;
  g.composition = "discrete Gaussian, rho-zCDP (CKS20), certified conversion to (epsilon, delta)";
  g.budget_split = {{"rho", rho}};
  g.tuning = {{"coordinate_bound", o.coordinate_bound}, {"response_bound", o.response_bound},
              {"eigen_bound", o.eigen_bound}, {"sensitivity", sensitivity},
              {"sensitivity2 (grid, squared)", mpq_class(d2)},
              {"sigma2", sigma2_grid * power_of_two(-2 * ko)}, {"granularity", power_of_two(-ko)}};
  return result;
}

}  // namespace exactdp::mechanisms
