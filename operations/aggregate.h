// aggregate.h — the operation `aggregate`: counts, sums, means and quantiles per group from raw
// records, with contribution bounding, partition selection and a certified composed guarantee
// (docs/AGGREGATE.md). The command line (cli/cmd_aggregate.cc) and Python (python/src/aggregate.cc,
// for exactdp.aggregate and exactdp.dask.aggregate) build an AggregateRequest from their texts;
// plan_aggregate checks it and gives the library's request with its input limits, before any
// record is read; the release's AggregateReport holds every value a report prints, derived once.
//
// Example:
//   AggregateRequest r{.privacy_unit = "user", .group_by = {"region"}, .epsilon = "1", .delta = "1e-6"};
//   r.outputs = {{"count"}, {"sum", "amount", "0,100"}};
//   const AggregatePlan plan = plan_aggregate(r);
//   const AggregateReport report = aggregate_records(plan, reader, nullptr, bits);
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_columns.h>
#include <exactdp/mechanisms/aggregate/aggregate_release.h>
#include <exactdp/mechanisms/release/byte_source.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

// One output as a face gives it. kind: count, count_units, sum, mean or quantile; column and
// bounds ("L,U", plain decimals) for sum, mean and quantile; q (exact texts, 0 <= q <= 1, one
// output each) for a quantile.
struct AggregateOutputRequest {
  std::string kind{};
  std::string column{};
  std::optional<std::string> bounds{};
  std::vector<std::string> q{};
};

struct AggregateRequest {
  std::string privacy_unit{};
  std::vector<std::string> group_by{};             // non-empty names, each once
  std::vector<AggregateOutputRequest> outputs{};   // in output order
  std::optional<std::string> max_groups{};         // L0, integer text 1..10^6 (default 1)
  std::optional<std::string> max_rows{};           // Linf, integer text 1..10^6 (default 1)
  std::optional<std::string> mechanism{};          // a release law (default discrete-laplace)
  std::string epsilon{};                           // exact texts
  std::optional<std::string> delta{};
  std::optional<std::string> split{};
  std::optional<std::string> selection{};          // optimal or threshold
  bool public_keys = false;                        // the groups are given (no partition selection)
  std::optional<std::string> max_input_bytes{};    // CSV input limit, 1..64 GiB (default 64 GiB)
  Spelling spelling = kCommandLineSpelling;
};

struct AggregatePlan {
  mechanisms::AggregateRequest request;
  mechanisms::AggregateLimits limits;
};

// Checks, in this order: the group-by names (none empty), each output (its kind; its bounds,
// the same bounds when a column is named twice; each q, named q on the command line and quantile
// in Python), max_groups, max_rows, the mechanism, epsilon, delta, split, selection, then the
// library's checks (validate_aggregate_request: ranges, delta, split and selection against
// keys, the quantile grid limit) and max_input_bytes. ParameterError / LimitError naming the
// parameter.
[[nodiscard]] AggregatePlan plan_aggregate(const AggregateRequest& request);

// The public keys of a keys CSV whose header names the group-by columns (read_public_keys); a
// malformed file is a ParameterError naming keys, its message starting with `source` ("keys" or
// "keys file 'PATH'").
[[nodiscard]] std::vector<std::string> read_aggregate_keys(mechanisms::ByteReader& reader,
                                                          const mechanisms::AggregateRequest& request,
                                                          const std::string& source);

// One noisy quantity of the guarantee with what a report derives from it.
struct AggregateQuantityReport {
  mechanisms::QuantityNoise noise;
  std::optional<mpq_class> grid;            // a sum's or centred sum's grid step G (column units)
  std::optional<mpq_class> centre;          // a centred sum: the bounds' midpoint C G
  std::optional<mpq_class> scale_in_units;  // scale G (Laplace) or sigma2 G^2 (Gaussian)
};

// What every face prints of an aggregate: the guarantee and the released table. The private
// counts of the release (rows read, units, pairs) are not here: they are never printed.
struct AggregateReport {
  mechanisms::AggregateGuarantee guarantee;
  bool pure_epsilon = true;  // the aggregates' law composes by its pure epsilon, not by zCDP
  std::vector<AggregateQuantityReport> quantities;
  std::string header;             // the table (empty for a guarantee alone)
  std::vector<std::string> rows;
  unsigned long long public_keys = 0;  // the keys given (with public keys; else 0)
};

// Words a report uses for the selection method and the quantiles' mechanism.
[[nodiscard]] std::string selection_method_words(const mechanisms::PartitionSelection& selection);
inline constexpr const char* kQuantileMechanismWords =
    "exponential mechanism on the bounds' grid (score -|b #(x < c) - a (n - #(x = c))|)";

// The guarantee alone, before any data (calibrate_aggregate).
[[nodiscard]] AggregateReport aggregate_guarantee(const AggregatePlan& plan);

// The release of CSV records or of typed columns (aggregate_records, with the plan's limits);
// `public_keys` null for private partition selection.
[[nodiscard]] AggregateReport aggregate_records(const AggregatePlan& plan, mechanisms::ByteReader& records,
                                                const std::vector<std::string>* public_keys, BitSource& bits);
[[nodiscard]] AggregateReport aggregate_records(const AggregatePlan& plan, const mechanisms::RecordColumns& records,
                                                const std::vector<std::string>* public_keys, BitSource& bits);

// The report of a release made otherwise (exactdp.dask's merged totals).
[[nodiscard]] AggregateReport aggregate_report(const mechanisms::AggregateRequest& request,
                                               mechanisms::AggregateRelease release);

}  // namespace exactdp::operations
