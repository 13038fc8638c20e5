// aggregate_release.h — aggregate_records: the whole `exactdp aggregate` release in memory
// (docs/AGGREGATE.md): read and bound the records, select the groups (or take the public keys),
// add calibrated exact noise, format the table.
//
// Steps and draw order (a seeded BitSource reproduces a release exactly):
//   1. calibrate_aggregate (aggregate_calibration.h): before any input is read;
//   2. read_records with the ContributionBounder: the bounding draws, in record order;
//   3. without public keys, partition selection over the groups with a kept unit, in byte order
//      of their key text (one discrete Laplace draw each); with public keys, every key, in file
//      order, including keys without records;
//   4. for every released group (in that order): every noisy quantity (in output order), one
//      exact draw (discrete Laplace or discrete Gaussian, in grid steps) added to the exact total;
//      then every quantile (in output order, aggregate_quantile.h), one exponential-mechanism
//      draw on the bounds' grid (released groups x grid points checked first: LimitError naming
//      bounds over kMaxQuantileWork).
// Output: a header (the group-by names, then one column per output: count, count_units,
// sum_COL, mean_COL, quantile_COL_Q) and one row per released group, CSV text without terminators. Counts are
// integers; a sum is the noisy grid index times G printed with exactly d decimals; a mean is
// clamp(C G + noisy centred sum G / max(noisy count, 1), L, U) (aggregate_request.h) rounded to the nearest multiple of 10^-(d+6)
// (ties up) and printed with d + 6 decimals: post-processing of released values; a quantile is
// the released grid index times G, printed with d decimals.
// Nothing is written here: the caller prints the table only after everything succeeded.
// Errors: those of the steps (ParameterError, CsvError, LimitError). Thread-safety: one per thread.
#pragma once

#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>
#include <exactdp/mechanisms/aggregate/aggregate_columns.h>
#include <exactdp/mechanisms/aggregate/aggregate_input.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

// The counts below (input, units, groups_seen, pairs, and candidate_groups without public keys)
// are exact counts of the private data, NOT part of the release: for tests and diagnostics only,
// never to be printed next to it.
struct AggregateRelease {
  std::string header;
  std::vector<std::string> rows;
  AggregateGuarantee guarantee;
  AggregateInputStats input;
  std::uint64_t units = 0;             // distinct privacy units read
  std::uint64_t groups_seen = 0;       // distinct groups with a record (after the keys filter)
  std::uint64_t pairs = 0;             // distinct (unit, group) pairs
  std::uint64_t candidate_groups = 0;  // groups offered to selection, or the public keys
  std::uint64_t estimated_peak_bytes = 0;  // the memory estimate's peak (contribution_bounder.h)
};

// `public_keys`: null for private partition selection, else the keys (read_public_keys).
[[nodiscard]] AggregateRelease aggregate_records(ByteReader& records, const AggregateRequest& request,
                                                 const std::vector<std::string>* public_keys,
                                                 BitSource& bits, const AggregateLimits& limits = {});
// The same release of records given as typed columns (aggregate_columns.h): bit for bit the CSV
// path's with the same values and BitSource.
[[nodiscard]] AggregateRelease aggregate_records(const RecordColumns& records, const AggregateRequest& request,
                                                 const std::vector<std::string>* public_keys,
                                                 BitSource& bits, const AggregateLimits& limits = {});

// Step 2's reading: every record into the bounder, keeping only `keys` when not null
// (read_records over CSV bytes, read_columns over columns).
using RecordReader = std::function<AggregateInputStats(ContributionBounder&, const std::unordered_set<std::string>*,
                                                       const AggregateLimits&)>;
[[nodiscard]] AggregateRelease aggregate_read(const RecordReader& read, const AggregateRequest& request,
                                              const std::vector<std::string>* public_keys, BitSource& bits,
                                              const AggregateLimits& limits = {});

// The exact (pre-noise) totals of every group after bounding, keyed by group key text: what a
// release adds noise to (used by tests; draws only the bounding's randomness).
struct BoundedTotals {
  std::vector<std::string> keys;
  std::vector<GroupTotals> totals;
  // Per quantile of the guarantee (in order), per group (index as totals): the kept clamped values
  // its exponential mechanism scores. Filled by aggregate_records and bound_partition, concatenated
  // by merge_bounded_totals (aggregate_from_totals.h); bounded_totals leaves it empty.
  std::vector<std::vector<std::vector<mpz_class>>> quantile_values;
};
[[nodiscard]] BoundedTotals bounded_totals(ByteReader& records, const AggregateRequest& request,
                                           BitSource& bits, const AggregateLimits& limits = {});

}  // namespace exactdp::mechanisms
