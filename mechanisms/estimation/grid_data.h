// grid_data.h — data of the estimators on the fixed grid g = 2^-k (docs/ESTIMATION.md, "The grid").
//
// Every double is a dyadic rational; to_grid reads its bit pattern (float_grid.h) and returns
// n = round_half_even(x / g) exactly, refusing NaN and +-inf (ParameterError naming the array and
// the index: "x[3] is NaN"). The grid is chosen from PUBLIC parameters only (a radius, a
// sensitivity), never from the data: a data-dependent grid would leak through the released
// values' denominators. Statistics are then computed in exact integer / rational arithmetic on
// these integers, so a sensitivity bound proved for the exact statistic holds for the computed one.
//
// double appears only as the caller's storage type, decoded exactly from
// its bit pattern; no floating-point operation is done on any value.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <exactdp/samplers/int128.h>

namespace exactdp::mechanisms {

// A row-major matrix of doubles (rows x cols), borrowed.
struct MatrixView {
  std::span<const double> values;
  std::size_t rows = 0;
  std::size_t cols = 0;
};

// ParameterError naming `name` unless values.size() == rows * cols and rows, cols >= 1.
void validate_matrix(const MatrixView& m, const std::string& name);

// The largest truncation bound in grid units that the int64 paths accept (bounds are public).
inline constexpr std::int64_t kMaxGridBound = std::int64_t{1} << 62;

// The truncation bound floor(radius 2^k) in grid units; ParameterError naming `name` unless
// radius > 0 and 1 <= floor(radius 2^k) < kMaxGridBound (then "granularity_exponent" is too fine
// or too coarse for the radius).
[[nodiscard]] std::int64_t grid_bound(const mpq_class& radius, long k, const std::string& name);
// clamp(round_half_even(x 2^k), -bound, bound) for 0 <= bound < kMaxGridBound; ParameterError
// naming name[index] for NaN or +-inf.
[[nodiscard]] std::int64_t truncated_grid_value(double x, long k, std::int64_t bound, const std::string& name,
                                                std::size_t index);
// An int128 as a GMP integer.
[[nodiscard]] mpz_class to_mpz(int128 value);

// round_half_even(x_i 2^k) for each i; ParameterError naming name[i] for NaN or +-inf, and
// naming "granularity_exponent" unless |k| <= kMaxGranularityExponent.
[[nodiscard]] std::vector<mpz_class> to_grid(std::span<const double> x, long k, const std::string& name);

// round_half_even(q 2^k): the grid point nearest an exact value q, ties to even (as to_grid
// rounds a double, so a double's exact value lands where the double does).
[[nodiscard]] mpz_class round_half_even_to_grid(const mpq_class& q, long k);

// A regression's data (noisy_ols.h, dp_lasso.h) on the grid 2^-k, truncated at the public
// bounds: x row-major (rows x cols), y one value per row, in grid units.
struct RegressionGridData {
  std::vector<std::int64_t> x;
  std::vector<std::int64_t> y;
  std::size_t rows = 0;
  std::size_t cols = 0;
  long k = 0;
};

// The grid of a regression's data, from public values only: k (given, or 32 - floor(log2 min(c,
// R))), x_bound = floor(c 2^k), y_bound = floor(R 2^k) (grid_bound's errors, naming
// coordinate_bound / response_bound).
struct RegressionGrid {
  long k = 0;
  std::int64_t x_bound = 0;
  std::int64_t y_bound = 0;
};
[[nodiscard]] RegressionGrid regression_grid(const mpq_class& coordinate_bound, const mpq_class& response_bound,
                                             std::optional<long> granularity_exponent);
// x and y (doubles) on the grid: truncated_grid_value of each (ParameterError naming x[i] / y[i]
// for NaN or inf). x must have y.size() rows.
[[nodiscard]] RegressionGridData truncated_regression_data(const MatrixView& x, std::span<const double> y,
                                                           const RegressionGrid& grid);

// ParameterError naming y unless y has `rows` values (one per row of x).
void check_response_length(std::size_t y_values, std::size_t rows);

// ParameterError unless data is on `grid` (naming granularity_exponent when data.k differs), x has
// rows x cols >= 1 values and y rows (naming x / y), and every value is within its bound (naming
// x[i] / y[i]): what an entry point taking grid data checks before trusting a sensitivity.
void check_regression_data(const RegressionGridData& data, const RegressionGrid& grid);

// floor(q 2^k + 1/2): the grid point nearest q (ties up). |error| <= 1/2 grid unit.
[[nodiscard]] mpz_class round_to_grid(const mpq_class& q, long k);
// floor(q 2^k).
[[nodiscard]] mpz_class floor_to_grid(const mpq_class& q, long k);
// v clamped to [-bound, bound] (bound >= 0), in place.
void clamp_symmetric(mpz_class& v, const mpz_class& bound);

// floor(log2 q) for q > 0, exact.
[[nodiscard]] long floor_log2(const mpq_class& q);
// The default granularity exponent for a public scale > 0: k = bits - floor(log2 scale), i.e.
// the largest power of two g = 2^-k with g <= scale 2^-bits (so scale / g is in [2^bits, 2^(bits+1))).
[[nodiscard]] long default_granularity_exponent(const mpq_class& scale, long bits);
// Throws ParameterError naming "granularity_exponent" unless |k| <= kMaxGranularityExponent.
void validate_granularity_exponent(long k);

// A rational u >= sqrt(x) (x >= 0) with u - sqrt(x) <= 2^-64 (1 + sqrt(x)); exact, deterministic.
[[nodiscard]] mpq_class sqrt_upper(const mpq_class& x);

// q as the nearest double (MPFR, round to nearest), for reporting estimates (post-processing).
[[nodiscard]] double to_double_nearest(const mpq_class& q);

}  // namespace exactdp::mechanisms
