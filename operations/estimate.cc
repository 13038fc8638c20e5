#include <exactdp/operations/estimate.h>

#include <bit>
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

}  // namespace exactdp::operations
