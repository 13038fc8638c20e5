#include <exactdp/operations/estimate.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <utility>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/estimation_cost.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/mechanisms/estimation/peeling_budget.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/operations/estimate_input.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::operations {
namespace {

using mechanisms::CompositionRoute;

bool command_line(const Spelling& s) { return !s.prefix.empty(); }

// The grid of R, with the library's complaint (which names radius or granularity_exponent) said
// in the face's name of R.
mechanisms::SparseMeanGrid grid_of_radius(const mechanisms::SparseMeanOptions& options, const Spelling& s) {
  const std::string name = command_line(s) ? "bound" : "radius";
  const std::string r = abbreviate(to_string(options.radius));
  if (options.radius <= 0) throw ParameterError::out_of_range(name, r, name + " > 0");
  try {
    return mechanisms::sparse_mean_grid(options);
  } catch (const ParameterError& e) {
    throw ParameterError(name, name + " = " + r + " cannot be put on the grid 2^-k (k = 32 - floor(log2 " + name +
                                   ")): " + e.what());
  }
}

// Each route's noise over the advanced route's, when that route was computed.
std::vector<std::optional<mpq_class>> relative_noise(const mechanisms::EstimationGuarantee& g) {
  std::optional<mpq_class> advanced;
  for (const auto& r : g.routes) {
    if (r.route == CompositionRoute::kAdvanced) advanced = r.noise_scale;
  }
  std::vector<std::optional<mpq_class>> out;
  for (const auto& r : g.routes) {
    out.push_back(advanced ? std::optional<mpq_class>(mpq_class(r.noise_scale / *advanced)) : std::nullopt);
  }
  return out;
}

EstimateReport report_of(mechanisms::EstimateResult result, std::vector<std::string> names, std::uint64_t rows) {
  EstimateReport report{std::move(result), std::move(names), rows, {}};
  report.noise_relative_to_advanced = relative_noise(report.result.guarantee);
  return report;
}

// clamp(round_half_even(m 2^(e + k)), -bound, bound): a binary float's exact value m 2^e (an
// integer when e = 0) on the grid 2^-k, in integer arithmetic.
std::int64_t dyadic_grid_value(std::int64_t m, long e, long k, std::int64_t bound) {
  const uint128 magnitude = m < 0 ? uint128(0) - static_cast<uint128>(static_cast<int128>(m)) : static_cast<uint128>(m);
  const long shift = e + k;
  uint128 q = 0;
  if (magnitude == 0) {
    q = 0;
  } else if (shift >= 0) {
    const long width = static_cast<long>(std::bit_width(static_cast<std::uint64_t>(magnitude)));
    q = width + shift > 62 ? static_cast<uint128>(bound) : magnitude << shift;  // >= 2^62 > bound
  } else if (-shift <= 64) {
    const unsigned t = static_cast<unsigned>(-shift);
    q = magnitude >> t;
    const uint128 rest = magnitude - (q << t), half = uint128(1) << (t - 1);
    if (rest > half || (rest == half && (q & 1) != 0)) ++q;
  }  // else |m| < 2^64 <= 2^(-shift - 1): under half a grid unit, 0
  const std::int64_t v = q > static_cast<uint128>(bound) ? bound : static_cast<std::int64_t>(q);
  return m < 0 ? -v : v;
}

// The column's grid sum.
mpz_class column_sum(const mechanisms::RecordColumn& c, const DecimalGridMap& map, const mechanisms::SparseMeanGrid& g) {
  int128 sum = 0;  // |sum| <= rows 2^62 < 2^127
  if (c.kind == mechanisms::ColumnKind::kText) {
    for (std::size_t i = 0; i < c.texts.size(); ++i) {
      std::int64_t v = 0;
      if (!map.map(c.texts[i], v)) {
        throw ParameterError("x", "column '" + abbreviate(c.name) + "', row " + std::to_string(i) + ": '" +
                                      abbreviate(c.texts[i]) + "' is not a decimal number ([+-]digits[.digits]"
                                      "[e[+-]digits], at most 10000 digits)");
      }
      sum += v;
    }
  } else {
    const bool dyadic = c.kind == mechanisms::ColumnKind::kDyadic;
    if (dyadic && c.exponents.size() != c.integers.size()) {
      throw ParameterError("x", "column '" + abbreviate(c.name) + "': " + std::to_string(c.exponents.size()) +
                                    " exponents for " + std::to_string(c.integers.size()) + " mantissas");
    }
    for (std::size_t i = 0; i < c.integers.size(); ++i) {
      sum += dyadic_grid_value(c.integers[i], dyadic ? c.exponents[i] : 0, g.exponent, g.bound);
    }
  }
  return mechanisms::to_mpz(sum);
}

// A text value that is no number, named as the face names the data.
[[noreturn]] void not_a_number(const char* name, const mechanisms::RecordColumn& c, std::size_t i) {
  throw ParameterError(name, std::string(name) + ": column '" + abbreviate(c.name) + "', row " + std::to_string(i) +
                                 ": '" + abbreviate(c.texts[i]) + "' is not a number (a decimal or p/q)");
}

void check_exponents(const char* name, const mechanisms::RecordColumn& c) {
  if (c.kind == mechanisms::ColumnKind::kDyadic && c.exponents.size() != c.integers.size()) {
    throw ParameterError(name, std::string(name) + ": column '" + abbreviate(c.name) + "': " +
                                   std::to_string(c.exponents.size()) + " exponents for " +
                                   std::to_string(c.integers.size()) + " mantissas");
  }
}

// Value i of c exactly: a text's rational, an int64, or m 2^e.
mpq_class exact_value(const char* name, const mechanisms::RecordColumn& c, std::size_t i) {
  if (c.kind == mechanisms::ColumnKind::kText) {
    try {
      return parse_rational(name, c.texts[i]);
    } catch (const ParameterError&) {
      not_a_number(name, c, i);
    }
  }
  const mpq_class m(static_cast<long>(c.integers[i]));
  return c.kind == mechanisms::ColumnKind::kDyadic ? mpq_class(m * power_of_two(c.exponents[i])) : m;
}

// round_half_even(v_j 2^k) of each value of v (no bound: PrivateMax's v is not truncated).
std::vector<mpz_class> grid_values(const mechanisms::RecordColumn& v, long k) {
  check_exponents("v", v);
  std::vector<mpz_class> out(v.rows());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const mpq_class q = exact_value("v", v, i);
    if (q != 0 && mechanisms::floor_log2(abs(q)) >= kMaxEstimateValueLog2) {
      throw ParameterError("v", "v[" + std::to_string(i) + "] = " + abbreviate(to_string(q)) + " is too large: allowed |v| < 2^" +
                                    std::to_string(kMaxEstimateValueLog2) + " (the float64 range)");
    }
    out[i] = mechanisms::round_half_even_to_grid(q, k);
  }
  return out;
}

// clamp(round_half_even(value 2^k), -bound, bound) of value i of c (bound = floor(radius 2^k)).
std::int64_t truncated_value(const char* name, const mechanisms::RecordColumn& c, std::size_t i,
                             const DecimalGridMap& map, long k, std::int64_t bound) {
  if (c.kind != mechanisms::ColumnKind::kText) {
    return dyadic_grid_value(c.integers[i], c.kind == mechanisms::ColumnKind::kDyadic ? c.exponents[i] : 0, k, bound);
  }
  std::int64_t v = 0;
  if (map.map(c.texts[i], v)) return v;
  mpz_class n = mechanisms::round_half_even_to_grid(exact_value(name, c, i), k);  // p/q: not a decimal
  mechanisms::clamp_symmetric(n, mpz_class(static_cast<long>(bound)));
  return n.get_si();
}

// The rows and columns of a regression's x and y; ParameterError naming x / y unless x has p >= 1
// columns of the same n >= 1 rows as y.
std::pair<std::size_t, std::size_t> regression_shape(const mechanisms::RecordColumns& x,
                                                     const mechanisms::RecordColumn& y) {
  if (x.columns.empty()) throw ParameterError("x", "x has no column: allowed n >= 1 rows of p >= 1 columns");
  for (const auto& c : x.columns) {
    if (c.rows() != y.rows()) {
      throw ParameterError("x", "x: column '" + abbreviate(c.name) + "' has " + std::to_string(c.rows()) +
                                    " rows, y " + std::to_string(y.rows()) + ": allowed one y per row of x");
    }
    check_exponents("x", c);
  }
  check_exponents("y", y);
  return {y.rows(), x.columns.size()};
}

// x and y on the regression grid, truncated at c and R.
mechanisms::RegressionGridData regression_data(const mechanisms::RecordColumns& x, const mechanisms::RecordColumn& y,
                                               const mpq_class& c, const mpq_class& r, std::optional<long> k) {
  const mechanisms::RegressionGrid grid = mechanisms::regression_grid(c, r, k);
  mechanisms::RegressionGridData data;
  data.rows = y.rows();
  data.cols = x.columns.size();
  data.k = grid.k;
  data.x.resize(data.rows * data.cols);
  const DecimalGridMap xmap(grid.k, grid.x_bound, c), ymap(grid.k, grid.y_bound, r);
  for (std::size_t j = 0; j < data.cols; ++j) {
    for (std::size_t i = 0; i < data.rows; ++i) {
      data.x[i * data.cols + j] = truncated_value("x", x.columns[j], i, xmap, grid.k, grid.x_bound);
    }
  }
  data.y.resize(data.rows);
  for (std::size_t i = 0; i < data.rows; ++i) data.y[i] = truncated_value("y", y, i, ymap, grid.k, grid.y_bound);
  return data;
}

// epsilon and delta parsed and checked (0 < epsilon <= 1000 and its size, 0 < delta < 1).
void set_budget(mpq_class& epsilon, std::optional<mpq_class>& delta, const std::string& epsilon_text,
                const std::optional<std::string>& delta_text) {
  epsilon = parse_rational("epsilon", epsilon_text);
  if (delta_text) delta = parse_rational("delta", *delta_text);
  mechanisms::validate_privacy_target(epsilon, delta);
  mechanisms::check_epsilon_size(epsilon);
}

// The route, refused (naming route) when it needs a delta that is not given.
std::optional<CompositionRoute> route_of(const std::optional<std::string>& text, bool has_delta) {
  if (!text) return std::nullopt;
  const CompositionRoute route = mechanisms::parse_composition_route(*text);
  if (route != CompositionRoute::kBasic && !has_delta) {
    throw ParameterError("route", "route = " + *text + " needs delta (only basic is pure DP)");
  }
  return route;
}

}  // namespace

EstimatePlan plan_estimate(const EstimateRequest& request) {
  const Spelling& s = request.spelling;
  EstimatePlan plan;
  plan.sparsity_name = command_line(s) ? "s" : "sparsity";
  mechanisms::SparseMeanOptions& o = plan.options;
  o.sparsity = static_cast<std::size_t>(checked_count(plan.sparsity_name, request.sparsity, 1, kMaxEstimateColumns));
  o.epsilon = parse_rational("epsilon", request.epsilon);
  if (request.delta) o.delta = parse_rational("delta", *request.delta);
  mechanisms::validate_privacy_target(o.epsilon, o.delta);
  mechanisms::check_epsilon_size(o.epsilon);
  if (request.route) o.route = mechanisms::parse_composition_route(*request.route);
  if (o.route && *o.route != CompositionRoute::kBasic && !o.delta) {
    throw ParameterError("route", "route = " + *request.route + " needs " + s.name("delta") + " (only basic is pure DP)");
  }
  o.radius = parse_rational(command_line(s) ? "bound" : "radius", request.radius);
  o.granularity_exponent = request.granularity_exponent;
  if (o.granularity_exponent) mechanisms::validate_granularity_exponent(*o.granularity_exponent);
  plan.grid = grid_of_radius(o, s);
  if (request.max_input_bytes) {
    plan.limits.max_input_bytes =
        checked_count(s.bare("max_input_bytes"), *request.max_input_bytes, 1, plan.limits.max_input_bytes);
  }
  plan.limits.max_fields = kMaxEstimateColumns;
  return plan;
}

void check_estimate_columns(const EstimatePlan& plan, std::size_t columns) {
  const mechanisms::PeelingShape shape{plan.options.sparsity, columns, plan.options.delta.has_value(),
                                       mechanisms::numerator_denominator_bits(plan.options.epsilon), 1};
  mechanisms::check_peeling_cost(shape, plan.sparsity_name.c_str());
}

EstimateReport estimate_sparse_mean(const EstimatePlan& plan, mechanisms::ByteReader& rows, BitSource& bits) {
  const DecimalGridMap map(plan.grid.exponent, plan.grid.bound, plan.options.radius);
  GridColumnSums data =
      read_grid_column_sums(rows, map, plan.limits, [&plan](std::size_t d) { check_estimate_columns(plan, d); });
  mechanisms::EstimateResult result =
      mechanisms::sparse_mean_from_column_sums(data.sums, static_cast<std::size_t>(data.rows), plan.options, bits);
  return report_of(std::move(result), std::move(data.names), data.rows);
}

EstimateReport estimate_sparse_mean(const EstimatePlan& plan, const mechanisms::RecordColumns& columns,
                                    BitSource& bits) {
  const auto& cs = columns.columns;
  if (cs.empty() || cs.front().rows() == 0) {
    throw ParameterError("x", std::string("x has no ") + (cs.empty() ? "column" : "row") +
                                  ": allowed n >= 1 rows of d >= 1 columns");
  }
  check_estimate_columns(plan, cs.size());
  const DecimalGridMap map(plan.grid.exponent, plan.grid.bound, plan.options.radius);
  std::vector<mpz_class> sums;
  std::vector<std::string> names;
  for (const auto& c : cs) {
    if (c.rows() != cs.front().rows()) {
      throw ParameterError("x", "column '" + abbreviate(c.name) + "' has " + std::to_string(c.rows()) + " rows, column '" +
                                    abbreviate(cs.front().name) + "' " + std::to_string(cs.front().rows()));
    }
    sums.push_back(column_sum(c, map, plan.grid));
    names.push_back(c.name);
  }
  const std::size_t rows = cs.front().rows();
  return report_of(mechanisms::sparse_mean_from_column_sums(sums, rows, plan.options, bits), std::move(names), rows);
}

mechanisms::PrivateMaxOptions plan_private_max(const PrivateMaxRequest& request) {
  mechanisms::PrivateMaxOptions o;
  std::optional<mpq_class> no_delta;
  set_budget(o.epsilon, no_delta, request.epsilon, std::nullopt);
  o.sensitivity = parse_rational("sensitivity", request.sensitivity);
  o.granularity_exponent = request.granularity_exponent;
  (void)mechanisms::sensitivity_grid_exponent(o.sensitivity, o.granularity_exponent);
  return o;
}

mechanisms::PeelingOptions plan_peeling(const PeelingRequest& request) {
  mechanisms::PeelingOptions o;
  o.sparsity = static_cast<std::size_t>(checked_count("sparsity", request.sparsity, 1, kMaxEstimateColumns));
  set_budget(o.epsilon, o.delta, request.epsilon, request.delta);
  o.route = route_of(request.route, o.delta.has_value());
  o.sensitivity = parse_rational("sensitivity", request.sensitivity);
  o.granularity_exponent = request.granularity_exponent;
  (void)mechanisms::sensitivity_grid_exponent(o.sensitivity, o.granularity_exponent);
  return o;
}

mechanisms::NoisyOlsOptions plan_noisy_ols(const NoisyOlsRequest& request) {
  mechanisms::NoisyOlsOptions o;
  std::optional<mpq_class> delta;
  set_budget(o.epsilon, delta, request.epsilon, request.delta);
  o.delta = *delta;
  o.coordinate_bound = parse_rational("coordinate_bound", request.coordinate_bound);
  o.response_bound = parse_rational("response_bound", request.response_bound);
  o.eigen_bound = parse_rational("eigen_bound", request.eigen_bound);
  if (o.eigen_bound <= 0) throw ParameterError::out_of_range("eigen_bound", to_string(o.eigen_bound), "eigen_bound > 0");
  o.granularity_exponent = request.granularity_exponent;
  (void)mechanisms::regression_grid(o.coordinate_bound, o.response_bound, o.granularity_exponent);
  return o;
}

mechanisms::DpLassoOptions plan_dp_lasso(const DpLassoRequest& request) {
  mechanisms::DpLassoOptions o;
  o.sparsity = static_cast<std::size_t>(checked_count("sparsity", request.sparsity, 1, kMaxEstimateColumns));
  set_budget(o.epsilon, o.delta, request.epsilon, request.delta);
  o.route = route_of(request.route, o.delta.has_value());
  if (request.iterations) {
    o.iterations = static_cast<std::size_t>(
        checked_count("iterations", *request.iterations, 1, std::numeric_limits<std::uint32_t>::max()));
  }
  o.step_size = parse_rational("step_size", request.step_size);
  if (o.step_size <= 0) throw ParameterError::out_of_range("step_size", to_string(o.step_size), "step_size > 0");
  o.coordinate_bound = parse_rational("coordinate_bound", request.coordinate_bound);
  o.response_bound = parse_rational("response_bound", request.response_bound);
  o.coefficient_bound = parse_rational("coefficient_bound", request.coefficient_bound);
  if (o.coefficient_bound <= 0) {
    throw ParameterError::out_of_range("coefficient_bound", to_string(o.coefficient_bound), "coefficient_bound > 0");
  }
  o.granularity_exponent = request.granularity_exponent;
  (void)mechanisms::regression_grid(o.coordinate_bound, o.response_bound, o.granularity_exponent);
  return o;
}

mechanisms::PrivateMaxResult estimate_private_max(const mechanisms::PrivateMaxOptions& options,
                                                  const mechanisms::RecordColumn& v, BitSource& bits) {
  if (v.rows() == 0) throw ParameterError("v", "v is empty: allowed at least one value");
  const long k = mechanisms::sensitivity_grid_exponent(options.sensitivity, options.granularity_exponent);
  return mechanisms::private_max_of_grid(grid_values(v, k), options, bits);
}

mechanisms::PeelingResult estimate_peeling(const mechanisms::PeelingOptions& options, const mechanisms::RecordColumn& v,
                                           BitSource& bits) {
  if (v.rows() == 0) throw ParameterError("v", "v is empty: allowed at least one value");
  mechanisms::validate_sparsity(options.sparsity, v.rows());
  mechanisms::check_peeling_cost({options.sparsity, v.rows(), options.delta.has_value(),
                                  mechanisms::numerator_denominator_bits(options.epsilon), 1});
  const long k = mechanisms::sensitivity_grid_exponent(options.sensitivity, options.granularity_exponent);
  return mechanisms::peeling_of_grid(grid_values(v, k), options, bits);
}

mechanisms::EstimateResult estimate_noisy_ols(const mechanisms::NoisyOlsOptions& options,
                                              const mechanisms::RecordColumns& x, const mechanisms::RecordColumn& y,
                                              BitSource& bits) {
  const auto [rows, cols] = regression_shape(x, y);
  mechanisms::check_noisy_ols(rows, cols, options);
  const auto data = regression_data(x, y, options.coordinate_bound, options.response_bound, options.granularity_exponent);
  return mechanisms::noisy_ols_of_grid(data, options, bits);
}

mechanisms::EstimateResult estimate_dp_lasso(const mechanisms::DpLassoOptions& options,
                                             const mechanisms::RecordColumns& x, const mechanisms::RecordColumn& y,
                                             BitSource& bits) {
  const auto [rows, cols] = regression_shape(x, y);
  mechanisms::check_dp_lasso(rows, cols, options);
  const auto data = regression_data(x, y, options.coordinate_bound, options.response_bound, options.granularity_exponent);
  return mechanisms::dp_lasso_of_grid(data, options, bits);
}

}  // namespace exactdp::operations
