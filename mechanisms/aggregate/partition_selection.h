// partition_selection.h — private partition selection: which groups with at least one kept unit
// are released (docs/AGGREGATE.md, "Partition selection"). Two methods:
//   optimal (the default): every group is released with probability p(units), the exact table of
//     optimal_partition_selection.h for the per-group budget (epsilon / L0, delta / L0). After
//     contribution bounding a unit changes the unit count of at most L0 groups, by 1 each; the
//     groups are independent one-group mechanisms, each (epsilon / L0, delta / L0)-DP for a
//     change of its count by 1 (a group with 0 units is never a candidate, which is p(0) = 0);
//     basic composition over the at most L0 changed groups gives (epsilon, delta) exactly. For
//     L0 = 1 this is the optimal mechanism (up to the table's rounding down); for L0 > 1 it is
//     the per-group optimum, which releases every group at least as often as the threshold
//     mechanism below, whose per-group guarantee is also (epsilon / L0, P[Z >= tau - 1]).
//   threshold:
// Mechanism: for every group with at least one kept unit (after contribution bounding, so a
// unit is in at most L0 groups), draw Z ~ discrete Laplace of scale t = L0 / epsilon (exact
// sampler, P[Z = z] proportional to q^|z|, q = e^(-1/t)) and release the group's KEY when
// units + Z >= tau. Only the key set is released; the aggregates get fresh noise (composition).
// Guarantee: (epsilon, delta)-DP with delta = L0 P[Z >= tau - 1] = L0 q^(tau-1) / (1 + q).
// Proof: the groups are independent one-group mechanisms, and adding or removing a unit changes
// the unit count of at most L0 of them by 1. A group with n >= 1 units in both tables (n vs
// n + 1) is released by post-processing a discrete Laplace count: (1/t)-DP = (epsilon/L0)-DP.
// A group with 0 units in one table is never a candidate there, and is released with
// probability P[1 + Z >= tau] = P[Z >= tau - 1] in the other: (0, P[Z >= tau - 1])-DP. Basic
// composition over the at most L0 changed groups gives (L0 epsilon/L0, L0 P[Z >= tau - 1]).
// Calibration: tau is the smallest integer >= 1 whose delta (certified MPFR upper end) is <= the
// requested delta (tau - 1 starts at the lower end of t ln(L0 / (delta (1 + q))), which no smaller
// integer can meet, and is raised until the certified check passes).
// Errors: ParameterError naming epsilon or delta; LimitError naming epsilon when tau would be
// over 2^62 (epsilon = 10^-5000: certified intervals could not pin tau down, and no sampler
// takes that scale). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <memory>
#include <string>
#include <string_view>

#include <exactdp/core/interval.h>
#include <exactdp/mechanisms/aggregate/optimal_partition_selection.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

enum class SelectionMethod { kOptimal, kThreshold };

// "optimal" or "threshold".
[[nodiscard]] std::string selection_method_name(SelectionMethod method);
// ParameterError naming `selection` for any other name.
[[nodiscard]] SelectionMethod parse_selection_method(std::string_view name);

struct PartitionSelection {
  SelectionMethod method = SelectionMethod::kThreshold;
  unsigned long max_groups = 1;  // L0
  mpq_class epsilon;             // the share given to selection
  mpq_class delta_requested;     // the share given to selection
  // An exact upper bound on the selection's delta, <= delta_requested: the upper end of `delta`
  // (threshold), or delta_requested itself (optimal: L0 (delta / L0), exact).
  mpq_class delta_bound;
  exactdp::Interval delta{exactdp::kDefaultPrecision};  // threshold: L0 P[Z >= tau - 1], certified
  // threshold only:
  mpq_class scale;      // t = L0 / epsilon
  mpz_class threshold;  // tau >= 1
  // optimal only: the table of the per-group budget (epsilon / L0, delta / L0).
  std::shared_ptr<const OptimalSelectionTable> table;
};

// delta of the threshold mechanism: L0 q^(tau - 1) / (1 + q), q = e^(-1/scale), certified.
[[nodiscard]] exactdp::Interval partition_selection_delta(unsigned long max_groups,
                                                          const mpq_class& scale,
                                                          const mpz_class& threshold);

// The threshold method.
[[nodiscard]] PartitionSelection calibrate_partition_selection(unsigned long max_groups,
                                                               const mpq_class& epsilon,
                                                               const mpq_class& delta);

// The optimal method: builds the table and certifies it again (first_uncertified_selection_step)
// before returning; std::logic_error if that fails (a bug, never the user's input).
[[nodiscard]] PartitionSelection calibrate_optimal_partition_selection(unsigned long max_groups,
                                                                       const mpq_class& epsilon,
                                                                       const mpq_class& delta);

[[nodiscard]] PartitionSelection calibrate_partition_selection(SelectionMethod method,
                                                               unsigned long max_groups,
                                                               const mpq_class& epsilon,
                                                               const mpq_class& delta);

// One group's decision. threshold: draws Z (exact discrete Laplace of the selection's scale) and
// says whether units + Z >= tau; optimal: an exact Bernoulli(p(units)). Groups with units = 0
// are never released (and draw nothing).
class PartitionSelector {
 public:
  explicit PartitionSelector(const PartitionSelection& selection);
  ~PartitionSelector();
  PartitionSelector(const PartitionSelector&) = delete;
  PartitionSelector& operator=(const PartitionSelector&) = delete;
  [[nodiscard]] bool keep(BitSource& bits, const mpz_class& units);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;  // threshold only
  std::shared_ptr<const OptimalSelectionTable> table_;  // optimal only
  mpz_class threshold_;
};

}  // namespace exactdp::mechanisms
