#include <exactdp/mechanisms/aggregate/aggregate_request.h>

#include <algorithm>
#include <stdexcept>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

// The number of digits after the point of a plain decimal [+-]?[0-9]+(\.[0-9]+)?, or nullopt;
// `digits` gets the number of digits written (before and after the point).
std::optional<unsigned> plain_decimal_places(std::string_view text, std::size_t& digits) {
  std::size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
  const std::size_t int_begin = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  digits = i - int_begin;
  if (i == int_begin) return std::nullopt;
  if (i == text.size()) return 0U;
  if (text[i] != '.') return std::nullopt;
  const std::size_t frac_begin = ++i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  if (i != text.size() || i == frac_begin) return std::nullopt;
  digits += i - frac_begin;
  return static_cast<unsigned>(i - frac_begin);
}

const char* kind_word(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::kCount: return "count";
    case AggregateKind::kCountUnits: return "count_units";
    case AggregateKind::kSum: return "sum_";
    case AggregateKind::kMean: return "mean_";
    case AggregateKind::kQuantile: return "quantile_";
    case AggregateKind::kCentredSum: return "centred_sum_";
  }
  return "?";
}

void add_once(std::vector<NoisyQuantity>& out, NoisyQuantity q) {
  for (const auto& have : out) {
    if (have == q) return;
  }
  out.push_back(std::move(q));
}

}  // namespace

ValueBounds parse_value_bounds(std::string_view text) {
  const std::size_t comma = text.find(',');
  const std::string allowed = "L,U with plain decimals L <= U (at most " +
                              std::to_string(kMaxBoundDigits) + " digits each), not both 0";
  const std::string syntax = "bounds = " + abbreviate(text) +
                             " is not L,U: two plain decimals [+-]digits[.digits] (digits on both sides of a "
                             "point, no spaces) separated by one comma";
  if (comma == std::string_view::npos) throw ParameterError("bounds", syntax);
  const std::string_view lo_text = text.substr(0, comma), hi_text = text.substr(comma + 1);
  std::size_t lo_digits = 0, hi_digits = 0;
  const auto lo_places = plain_decimal_places(lo_text, lo_digits), hi_places = plain_decimal_places(hi_text, hi_digits);
  if (!lo_places || !hi_places) throw ParameterError("bounds", syntax);
  if (std::max(lo_digits, hi_digits) > kMaxBoundDigits) {
    throw ParameterError("bounds", "bounds = " + abbreviate(text) + " has a decimal of " +
                                       std::to_string(std::max(lo_digits, hi_digits)) + " digits: allowed at most " +
                                       std::to_string(kMaxBoundDigits) + " digits each");
  }
  ValueBounds b;
  b.lower = parse_rational("bounds", lo_text);
  b.upper = parse_rational("bounds", hi_text);
  b.decimals = std::max(*lo_places, *hi_places);
  mpz_class ten_d;
  mpz_ui_pow_ui(ten_d.get_mpz_t(), 10, b.decimals);
  b.grid = mpq_class(mpz_class(1), ten_d);
  b.lower_index = mpq_class(b.lower * ten_d).get_num();
  b.upper_index = mpq_class(b.upper * ten_d).get_num();
  b.max_abs_index = std::max(mpz_class(abs(b.lower_index)), mpz_class(abs(b.upper_index)));
  const mpz_class twice_centre = b.lower_index + b.upper_index;
  mpz_fdiv_q_2exp(b.centre_index.get_mpz_t(), twice_centre.get_mpz_t(), 1);
  b.half_width_index = std::max({mpz_class(b.centre_index - b.lower_index),
                                 mpz_class(b.upper_index - b.centre_index), mpz_class(1)});
  if (b.lower > b.upper || sgn(b.max_abs_index) == 0) {
    throw ParameterError::out_of_range("bounds", abbreviate(text), allowed);
  }
  return b;
}

std::string AggregateOutput::name() const {
  if (kind == AggregateKind::kQuantile) return kind_word(kind) + column + "_" + exactdp::exact_decimal(q);
  return kind_word(kind) + (kind == AggregateKind::kSum || kind == AggregateKind::kMean ? column : "");
}

mpz_class grid_points(const ValueBounds& b) { return b.upper_index - b.lower_index + 1; }

std::vector<AggregateOutput> quantile_outputs(const AggregateRequest& r) {
  std::vector<AggregateOutput> out;
  for (const auto& o : r.outputs) {
    if (o.kind == AggregateKind::kQuantile && std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
  }
  return out;
}

namespace {
void validate_quantile(const AggregateRequest& r, const AggregateOutput& o) {
  if (sgn(o.q) < 0 || o.q > 1) {
    throw ParameterError::out_of_range("q", abbreviate(to_string(o.q)), "0 <= q <= 1");
  }
  const ValueBounds& b = bounds_of(r, o.column);
  if (grid_points(b) > kMaxQuantileGrid) {
    throw LimitError("bounds", "bounds of quantile column '" + o.column + "' give " + grid_points(b).get_str() +
                                   " grid points: allowed at most " + std::to_string(kMaxQuantileGrid) +
                                   " (fewer decimals in --bounds L,U make the grid coarser)");
  }
}
}  // namespace

std::string NoisyQuantity::name() const {
  const bool has_column = kind == AggregateKind::kSum || kind == AggregateKind::kCentredSum;
  return kind_word(kind) + (has_column ? column : std::string());
}

void validate_aggregate_request(const AggregateRequest& r) {
  if (r.group_by.empty()) throw ParameterError("group-by", "group-by needs at least one column");
  if (r.outputs.empty()) {
    throw ParameterError("aggregate", "no aggregate asked for: give --count, --count-units, "
                                      "--sum COL or --mean COL");
  }
  for (std::size_t i = 0; i < r.group_by.size(); ++i) {
    const std::string& g = r.group_by[i];
    if (std::find(r.group_by.begin(), r.group_by.begin() + static_cast<std::ptrdiff_t>(i), g) !=
        r.group_by.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw ParameterError("group-by", "group-by names column '" + abbreviate(g) + "' twice: allowed each column once");
    }
    if (g == r.privacy_unit) {
      throw ParameterError("group-by", "group-by column '" + g + "' is the privacy unit column");
    }
  }
  for (const auto& out : r.outputs) {
    if (out.kind == AggregateKind::kSum || out.kind == AggregateKind::kMean) (void)bounds_of(r, out.column);
    if (out.kind == AggregateKind::kQuantile) validate_quantile(r, out);
  }
  if (r.bounding.max_groups < 1 || r.bounding.max_groups > kMaxAggregateGroupsPerUnit) {
    throw ParameterError::out_of_range("max-groups", std::to_string(r.bounding.max_groups),
                                       "1 <= max-groups <= 1000000");
  }
  if (r.bounding.max_rows < 1 || r.bounding.max_rows > kMaxAggregateRowsPerGroup) {
    throw ParameterError::out_of_range("max-rows", std::to_string(r.bounding.max_rows),
                                       "1 <= max-rows <= 1000000");
  }
  accounting::require_positive_at_most("epsilon", r.epsilon, mpq_class(1'000'000), "10^6");
  if (r.delta) accounting::require_open_unit("delta", *r.delta);
  if (!r.delta && (!r.public_keys || release_law_composes_by_zcdp(release_law(r.mechanism)))) {
    throw ParameterError("delta", std::string("delta is required ") +
                                      (r.public_keys ? "with the discrete Gaussian"
                                                     : "for private partition selection (no --keys)") +
                                      ": allowed 0 < delta < 1");
  }
  if (r.selection && r.public_keys) {
    throw ParameterError("selection", "selection = " + selection_method_name(*r.selection) +
                                          " chooses the partition selection, which --keys turns off");
  }
  if (r.split) {
    if (r.public_keys) {
      throw ParameterError("split", "split is the share of partition selection, which --keys turns off");
    }
    accounting::require_open_unit("split", *r.split);
  }
}

std::vector<NoisyQuantity> noisy_quantities(const AggregateRequest& r) {
  std::vector<NoisyQuantity> out;
  for (const auto& o : r.outputs) {
    switch (o.kind) {
      case AggregateKind::kCount: add_once(out, {AggregateKind::kCount, ""}); break;
      case AggregateKind::kCountUnits: add_once(out, {AggregateKind::kCountUnits, ""}); break;
      case AggregateKind::kSum: add_once(out, {AggregateKind::kSum, o.column}); break;
      case AggregateKind::kMean:
        add_once(out, {AggregateKind::kCentredSum, o.column});
        add_once(out, {AggregateKind::kCount, ""});
        break;
      case AggregateKind::kQuantile: break;  // not a noisy quantity: aggregate_quantile.h
      case AggregateKind::kCentredSum: throw std::logic_error("a centred sum is not an output");
    }
  }
  return out;
}

const ValueBounds& bounds_of(const AggregateRequest& r, const std::string& column) {
  for (const auto& v : r.value_columns) {
    if (v.name == column) return v.bounds;
  }
  throw ParameterError("bounds", "column '" + column + "' has no --bounds L,U");
}

QuantitySensitivity quantity_sensitivity(const AggregateRequest& r, const NoisyQuantity& q) {
  QuantitySensitivity s;
  switch (q.kind) {
    case AggregateKind::kCount: s.per_group = r.bounding.max_rows; break;
    case AggregateKind::kCountUnits: s.per_group = 1; break;
    case AggregateKind::kSum:
      s.per_group = mpz_class(r.bounding.max_rows) * bounds_of(r, q.column).max_abs_index;
      break;
    case AggregateKind::kCentredSum:
      s.per_group = mpz_class(r.bounding.max_rows) * bounds_of(r, q.column).half_width_index;
      break;
    case AggregateKind::kMean:
    case AggregateKind::kQuantile: throw std::logic_error("a mean or quantile is not a noisy quantity");
  }
  const mpz_class l0(r.bounding.max_groups);
  s.l1 = l0 * s.per_group;
  s.l2_squared = l0 * s.per_group * s.per_group;
  return s;
}

}  // namespace exactdp::mechanisms
