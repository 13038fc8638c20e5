// cmd_estimate_cost.h — the up-front limits of `exactdp estimate sparse-mean` (SECURITY.md,
// "Limits"): the library's (mechanisms/estimation/estimation_cost.h, the same for the C interface
// and Python), checked here before a row is read, once the header gives d, and named after the
// command line's options (--s).
// Memory is O(d) (the column sums and names), d <= kMaxEstimateColumns.
// Reading the rows is linear in the input (~170 ns of CPU a value) and limited by
// --max-input-bytes only, like `release` and `aggregate`.
#pragma once

#include <gmpxx.h>

#include <cstddef>

#include <exactdp/mechanisms/estimation/estimation_cost.h>

namespace exactdp::cli {

// The most columns (coordinates) a row may have: the CSV reader's field limit.
inline constexpr unsigned long long kMaxEstimateColumns = 100'000;

using mechanisms::check_epsilon_size;
using mechanisms::kMaxEstimateEpsilonBits;

// The bits of numerator plus denominator of q.
[[nodiscard]] inline unsigned long rational_bits(const mpq_class& q) { return mechanisms::numerator_denominator_bits(q); }

// What the work depends on (one peeling).
using SparseMeanShape = mechanisms::PeelingShape;

// ParameterError naming s unless 1 <= s <= d; LimitError naming s when mechanisms::peeling_work
// is over mechanisms::kMaxPeelingWork.
inline void check_sparse_mean_cost(const SparseMeanShape& shape) { mechanisms::check_peeling_cost(shape, "s"); }

}  // namespace exactdp::cli
