// doubles are the caller's storage, decoded by float_grid.h from their bits.
#include <exactdp/mechanisms/estimation/grid_data.h>

#include <mpfr.h>

#include <cstdint>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/core/rational_rounding.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>

namespace exactdp::mechanisms {

using exactdp::to_string;

void validate_matrix(const MatrixView& m, const std::string& name) {
  if (m.rows == 0 || m.cols == 0 || m.values.size() / m.cols != m.rows || m.values.size() % m.cols != 0) {
    throw ParameterError(name, name + " has shape " + std::to_string(m.rows) + " x " +
                                   std::to_string(m.cols) + " with " + std::to_string(m.values.size()) +
                                   " values: allowed rows >= 1, cols >= 1, rows * cols values");
  }
}

void validate_granularity_exponent(long k) {
  if (k < -kMaxGranularityExponent || k > kMaxGranularityExponent) {
    throw ParameterError::out_of_range("granularity_exponent", std::to_string(k),
                                       "|granularity_exponent| <= " + std::to_string(kMaxGranularityExponent));
  }
}

std::vector<mpz_class> to_grid(std::span<const double> x, long k, const std::string& name) {
  validate_granularity_exponent(k);
  std::vector<mpz_class> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!is_finite_bits(x[i])) {
      throw ParameterError(name, name + "[" + std::to_string(i) + "] is " +
                                     (is_nan_bits(x[i]) ? "NaN" : "inf") + "; allowed: finite values");
    }
    std::int64_t n = 0;
    if (grid_index_fast(x[i], k, n)) {
      out[i] = static_cast<long>(n);
    } else {
      grid_index_wide(x[i], k, out[i]);
    }
  }
  return out;
}

std::int64_t grid_bound(const mpq_class& radius, long k, const std::string& name) {
  validate_granularity_exponent(k);
  if (radius <= 0) throw ParameterError::out_of_range(name, to_string(radius), name + " > 0");
  const mpz_class bound = floor_to_grid(radius, k);
  if (bound < 1 || bound >= mpz_class(static_cast<unsigned long>(kMaxGridBound))) {
    throw ParameterError(name, name + " = " + to_string(radius) + " is " + (bound < 1 ? "below" : "too many") +
                                   " grid units at granularity_exponent = " + std::to_string(k) +
                                   ": allowed 1 <= " + name + " 2^k < 2^62");
  }
  return bound.get_si();
}

std::int64_t truncated_grid_value(double x, long k, std::int64_t bound, const std::string& name,
                                  std::size_t index) {
  if (!is_finite_bits(x)) {
    throw ParameterError(name, name + "[" + std::to_string(index) + "] is " + (is_nan_bits(x) ? "NaN" : "inf") +
                                   "; allowed: finite values");
  }
  std::int64_t n = 0;
  if (!grid_index_fast(x, k, n)) return decode_float(x).negative ? -bound : bound;  // |n| >= 2^62 > bound
  return n > bound ? bound : (n < -bound ? -bound : n);
}

mpz_class to_mpz(int128 value) {
  const bool negative = value < 0;
  const uint128 magnitude = negative ? -static_cast<uint128>(value) : static_cast<uint128>(value);
  mpz_class out(static_cast<unsigned long>(magnitude >> 64));
  out <<= 64;
  out += static_cast<unsigned long>(magnitude & ~std::uint64_t{0});
  return negative ? mpz_class(-out) : out;
}

mpz_class floor_to_grid(const mpq_class& q, long k) {
  return floor_of(q * power_of_two(k));
}

mpz_class round_to_grid(const mpq_class& q, long k) {
  return floor_of(q * power_of_two(k) + mpq_class(1, 2));
}

mpz_class round_half_even_to_grid(const mpq_class& q, long k) {
  const mpq_class scaled = q * power_of_two(k);
  mpz_class out, rest;
  mpz_fdiv_qr(out.get_mpz_t(), rest.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
  // scaled = out + rest / den with 0 <= rest < den: up when rest / den > 1/2, or = 1/2 and out odd.
  const int half = cmp(mpz_class(2 * rest), scaled.get_den());
  if (half > 0 || (half == 0 && mpz_odd_p(out.get_mpz_t()) != 0)) ++out;
  return out;
}

RegressionGrid regression_grid(const mpq_class& coordinate_bound, const mpq_class& response_bound,
                               std::optional<long> granularity_exponent) {
  if (coordinate_bound <= 0) {
    throw ParameterError::out_of_range("coordinate_bound", to_string(coordinate_bound), "coordinate_bound > 0");
  }
  if (response_bound <= 0) {
    throw ParameterError::out_of_range("response_bound", to_string(response_bound), "response_bound > 0");
  }
  RegressionGrid grid;
  grid.k = granularity_exponent.value_or(
      default_granularity_exponent(coordinate_bound < response_bound ? coordinate_bound : response_bound, 32));
  grid.x_bound = grid_bound(coordinate_bound, grid.k, "coordinate_bound");
  grid.y_bound = grid_bound(response_bound, grid.k, "response_bound");
  return grid;
}

RegressionGridData truncated_regression_data(const MatrixView& x, std::span<const double> y,
                                             const RegressionGrid& grid) {
  RegressionGridData data;
  data.rows = x.rows;
  data.cols = x.cols;
  data.k = grid.k;
  data.x.resize(x.values.size());
  for (std::size_t at = 0; at < x.values.size(); ++at) {
    data.x[at] = truncated_grid_value(x.values[at], grid.k, grid.x_bound, "x", at);
  }
  data.y.resize(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) data.y[i] = truncated_grid_value(y[i], grid.k, grid.y_bound, "y", i);
  return data;
}

void check_response_length(std::size_t y_values, std::size_t rows) {
  if (y_values != rows) {
    throw ParameterError("y", "y has " + std::to_string(y_values) + " values: allowed " + std::to_string(rows) +
                                  " (one per row of x)");
  }
}

void check_regression_data(const RegressionGridData& data, const RegressionGrid& grid) {
  if (data.k != grid.k) {
    throw ParameterError("granularity_exponent", "granularity_exponent: the data are on the grid 2^-" +
                                                     std::to_string(data.k) + ", the options give 2^-" +
                                                     std::to_string(grid.k));
  }
  if (data.rows < 1 || data.cols < 1 || data.x.size() / data.cols != data.rows || data.x.size() % data.cols != 0) {
    throw ParameterError("x", "x has " + std::to_string(data.x.size()) + " values: allowed rows * cols = " +
                                  std::to_string(data.rows) + " * " + std::to_string(data.cols) + " >= 1");
  }
  check_response_length(data.y.size(), data.rows);
  const auto check = [](const std::vector<std::int64_t>& v, std::int64_t bound, const char* name) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] < -bound || v[i] > bound) {
        throw ParameterError(name, std::string(name) + "[" + std::to_string(i) + "] = " + std::to_string(v[i]) +
                                       " grid units: allowed |value| <= " + std::to_string(bound));
      }
    }
  };
  check(data.x, grid.x_bound, "x");
  check(data.y, grid.y_bound, "y");
}

void clamp_symmetric(mpz_class& v, const mpz_class& bound) {
  if (v > bound) {
    v = bound;
  } else if (v < -bound) {
    v = -bound;
  }
}

long floor_log2(const mpq_class& q) {
  long e = static_cast<long>(mpz_sizeinbase(q.get_num_mpz_t(), 2)) -
           static_cast<long>(mpz_sizeinbase(q.get_den_mpz_t(), 2));
  // q is in [2^(e-1), 2^(e+1)).
  return q >= power_of_two(e) ? e : e - 1;
}

long default_granularity_exponent(const mpq_class& scale, long bits) {
  if (scale <= 0) {
    throw ParameterError::out_of_range("scale", to_string(scale), "scale > 0");
  }
  const long k = bits - floor_log2(scale);
  validate_granularity_exponent(k);
  return k;
}

mpq_class sqrt_upper(const mpq_class& x) {
  // u = (isqrt(floor(x 4^64)) + 1) / 2^64 >= sqrt(x).
  mpz_class scaled = floor_to_grid(x, 128);
  mpz_class root;
  mpz_sqrt(root.get_mpz_t(), scaled.get_mpz_t());
  return mpq_class(root + 1) * power_of_two(-64);
}

double to_double_nearest(const mpq_class& q) {
  mpfr_t x;
  mpfr_init2(x, 53);
  mpfr_set_q(x, q.get_mpq_t(), MPFR_RNDN);
  const double out = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  return out;
}

}  // namespace exactdp::mechanisms
