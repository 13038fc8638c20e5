// aggregate_from_totals.h — the `exactdp aggregate` release (aggregate_release.h) in two halves,
// for records split over partitions (exactdp.dask.aggregate; docs/AGGREGATE.md, "From Python
// and Dask"):
//   bound_partition       on one partition: the public-keys filter and the contribution bounding
//                         (step 2), giving the partition's exact bounded totals per group key
//                         and, for each quantile of the request, every group's kept values;
//   merge_bounded_totals  exact addition of the totals of equal keys over partitions, and the
//                         concatenation of their kept values;
//   aggregate_from_totals on the merged totals: calibration (step 1), selection or public keys
//                         (step 3), noise and formatting (step 4), with aggregate_records' code.
// Soundness: the bounder keeps state per privacy unit only (every unit's choices use fresh draws,
// independent of the other units'; contribution_bounder.h). When EVERY unit's records are in ONE
// partition (the caller's duty: exactdp.dask.aggregate shuffles on the unit first), the kept rows
// of the partitions together have the law of bounding the whole table, so the merged totals have
// that law and the release has aggregate_records' guarantee (the same calibrate_aggregate). A
// unit split over partitions would keep up to L0 groups in EACH: the sensitivities would not hold.
// The merged totals' units are a sum over partitions, exact because no unit is counted twice;
// likewise a group's merged kept values are the multiset bounding the whole table would keep
// (each kept row's value is in exactly one partition), which is all a quantile reads.
// Draws: bound_partition draws only the bounding's randomness; aggregate_from_totals draws
// selection then noise in aggregate_records' order (keys in byte order, or the public keys' order).
// With one partition holding all the records in their order and the same BitSource, bounding
// then aggregate_from_totals gives aggregate_records' table bit for bit.
// Errors: those of the steps; ParameterError naming `totals` when totals do not fit the request
// (a sums vector of the wrong length, a negative count, units > rows, quantile_values not one list
// per quantile of quantile_outputs(request) with one value per kept row of every group, each in
// the bounds' grid index range), naming `keys` when
// public_keys is null although request.public_keys is set, or the other way round.
// Thread-safety: one per thread.
#pragma once

#include <string>
#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_release.h>

namespace exactdp::mechanisms {

// Step 2 on one partition: records of groups outside `public_keys` (when not null) are dropped
// before bounding, as in aggregate_records. `stats` (may be null) receives the input counts.
[[nodiscard]] BoundedTotals bound_partition(ByteReader& records, const AggregateRequest& request,
                                            const std::vector<std::string>* public_keys, BitSource& bits,
                                            const AggregateLimits& limits = {},
                                            AggregateInputStats* stats = nullptr);

// The same over typed columns (aggregate_columns.h).
[[nodiscard]] BoundedTotals bound_partition(const RecordColumns& records, const AggregateRequest& request,
                                            const std::vector<std::string>* public_keys, BitSource& bits,
                                            const AggregateLimits& limits = {},
                                            AggregateInputStats* stats = nullptr);

// Adds `part` into `into` (keys in `into`'s order, then new keys in `part`'s order); each group's
// kept values of `part` are appended to `into`'s. An empty `into` takes `part`'s number of quantiles.
void merge_bounded_totals(BoundedTotals& into, const BoundedTotals& part);

// Steps 1, 3 and 4 on the merged totals (distinct keys). The release's header, rows and
// guarantee are aggregate_records'; of the private counts only candidate_groups is set.
[[nodiscard]] AggregateRelease aggregate_from_totals(const AggregateRequest& request, BoundedTotals totals,
                                                     const std::vector<std::string>* public_keys,
                                                     BitSource& bits);

// Steps 3 and 4 (defined in aggregate_release.cc, shared by aggregate_records): `out.guarantee`
// is set by the caller; fills header, rows and candidate_groups.
void select_and_noise(const AggregateRequest& request, BoundedTotals totals,
                      const std::vector<std::string>* public_keys, BitSource& bits, AggregateRelease& out);

}  // namespace exactdp::mechanisms
