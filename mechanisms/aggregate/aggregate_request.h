// aggregate_request.h — what `exactdp aggregate` is asked to release, and the sensitivity of
// every noisy quantity derived from the contribution bounds (docs/AGGREGATE.md has the proofs).
//
// Neighbouring relation: two record tables are neighbours when one privacy unit's records are
// all added or all removed (unit-level DP). After contribution bounding (contribution_bounder.h)
// a unit keeps rows in at most L0 = max_groups groups and at most Linf = max_rows rows in each,
// and a sum column's value is clamped EXACTLY to [L, U]. Removing the unit then changes, in at
// most L0 groups,
//   count        (kept rows)          by at most Linf per group;
//   count_units  (kept units)         by at most 1 per group;
//   sum COL      (clamped, in grid steps G) by at most Linf M per group, M = max(|L|, |U|) / G;
//   centred sum COL (a mean's sum: every kept value minus the centre C G, C = floor((L + U) / 2G),
//                the bounds' midpoint on the grid) by at most Linf H per group,
//                H = max(ceil((U - L) / 2G), 1): half the width, (U - L) / 2 when (U - L) / G is even;
// so a quantity of per-group bound b has L1 sensitivity L0 b and squared L2 sensitivity L0 b^2
// (the unit's changes sit in distinct groups: the L2 norm is sqrt(L0) b, not L0 b). Every bound
// is an integer in grid steps; nothing is asserted by the user.
// Value grid: the bounds are exact decimals and G = 10^-d, d the larger number of digits written
// after the point in L and U ("0,100" gives G = 1; "0,100.00" gives G = 0.01). A value is read
// exactly and becomes its grid index floor(x / G + 1/2) (cell_codec.h, nearest) clamped to
// [L / G, U / G]; clamping and rounding commute because L / G and U / G are integers.
// mean COL is post-processing of the noisy centred sum COL and the noisy count (no budget of its
// own): clamp(C G + centred sum / max(count, 1), L, U). Centring (as PipelineDP does) makes the
// mean's noise depend on the bounds' width, not on their distance from 0: [10, 20] needs Linf 5,
// not Linf 20. sum COL stays uncentred.
// Errors: ParameterError naming the option (bounds, max-groups, max-rows, sum, mean, ...).
// Thread-safety: plain values.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <exactdp/mechanisms/aggregate/partition_selection.h>
#include <exactdp/mechanisms/release/release_calibration.h>

namespace exactdp::mechanisms {

inline constexpr unsigned long kMaxAggregateGroupsPerUnit = 1'000'000;  // L0
inline constexpr unsigned long kMaxAggregateRowsPerGroup = 1'000'000;   // Linf
inline constexpr std::size_t kMaxBoundDigits = 1'000;  // digits of L and U
// Quantiles (aggregate_quantile.h): at most this many grid points (U - L) / G + 1 per quantile
// column, and released groups x grid points (summed over the quantiles) at most kMaxQuantileWork:
// the exponential mechanism scores every grid point of every released group and builds its
// certified inversion table, about 8 microseconds a point (20 groups x 10^5 points measured
// 16.6 s CPU), so the limit keeps the quantiles near 4 s (SECURITY.md's 10-second rule).
inline constexpr unsigned long kMaxQuantileGrid = 100'000;
inline constexpr unsigned long long kMaxQuantileWork = 500'000;

// Exact clamping bounds [lower, upper] of a value column and their decimal grid.
struct ValueBounds {
  mpq_class lower;
  mpq_class upper;
  mpq_class grid;             // G = 10^-d
  unsigned decimals = 0;      // d
  mpz_class lower_index;      // lower / G
  mpz_class upper_index;      // upper / G
  mpz_class max_abs_index;    // M = max(|lower_index|, |upper_index|) >= 1
  mpz_class centre_index;     // C = floor((lower_index + upper_index) / 2)
  mpz_class half_width_index; // H = max(C - lower_index, upper_index - C, 1) = max(ceil(width / 2), 1)
};

// "L,U" (plain decimals, L <= U, not both 0). ParameterError naming `bounds` otherwise.
[[nodiscard]] ValueBounds parse_value_bounds(std::string_view text);

// kCentredSum is a noisy quantity only (a mean's sum), never an output.
enum class AggregateKind { kCount, kCountUnits, kSum, kMean, kQuantile, kCentredSum };

// One output column: count, count_units, sum_COL, mean_COL or quantile_COL_Q.
struct AggregateOutput {
  AggregateKind kind = AggregateKind::kCount;
  std::string column;  // the value column of sum, mean and quantile
  mpq_class q = 0;     // quantile only: 0 <= q <= 1
  [[nodiscard]] std::string name() const;  // quantile: "quantile_" COL "_" q (exact decimal)
  bool operator==(const AggregateOutput&) const = default;
};

// One noisy quantity (kCount, kCountUnits, kSum or kCentredSum): each gets its own noise and
// budget share.
struct NoisyQuantity {
  AggregateKind kind = AggregateKind::kCount;
  std::string column;
  [[nodiscard]] std::string name() const;  // "count", "count_units", "sum_COL", "centred_sum_COL"
  bool operator==(const NoisyQuantity&) const = default;
};

struct ContributionBounds {
  unsigned long max_groups = 1;  // L0
  unsigned long max_rows = 1;    // Linf
};

struct ValueColumn {
  std::string name;
  ValueBounds bounds;
};

struct AggregateRequest {
  std::string privacy_unit;
  std::vector<std::string> group_by;
  std::vector<AggregateOutput> outputs;
  std::vector<ValueColumn> value_columns;  // every column of a sum or mean, once, with bounds
  ContributionBounds bounding;
  std::string mechanism = "discrete-laplace";  // a law of release_law_names()
  mpq_class epsilon;
  std::optional<mpq_class> delta;
  std::optional<mpq_class> split;  // the share of the budget for partition selection
  bool public_keys = false;        // --keys: no partition selection
  // The partition selection method (partition_selection.h); unset: optimal. Refused with keys.
  std::optional<SelectionMethod> selection;
};

// Checks everything that does not need the input; ParameterError naming the option.
void validate_aggregate_request(const AggregateRequest& request);

// The noisy quantities the outputs need, in output order, each once (a mean needs its centred
// sum and the count; a count also asked for itself shares the same noisy value, a sum does not:
// sum COL and centred sum COL are two quantities).
[[nodiscard]] std::vector<NoisyQuantity> noisy_quantities(const AggregateRequest& request);

// The quantile outputs, in output order, each (column, q) once.
[[nodiscard]] std::vector<AggregateOutput> quantile_outputs(const AggregateRequest& request);

// (U - L) / G + 1: the candidates of a quantile of a column with these bounds.
[[nodiscard]] mpz_class grid_points(const ValueBounds& bounds);

// The bounds of a value column (std::logic_error when it is not one of the request's).
[[nodiscard]] const ValueBounds& bounds_of(const AggregateRequest& request, const std::string& column);

struct QuantitySensitivity {
  mpz_class per_group;   // b: the most one unit changes one group's value (grid steps)
  mpz_class l1;          // L0 b
  mpz_class l2_squared;  // L0 b^2
};

[[nodiscard]] QuantitySensitivity quantity_sensitivity(const AggregateRequest& request,
                                                       const NoisyQuantity& quantity);

}  // namespace exactdp::mechanisms
