// partition_selection.h — private partition selection by a thresholded noisy count of units
// (docs/AGGREGATE.md, "Partition selection").
//
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
// (For L0 = 1, the optimal partition selection of Desfontaines, Voss, Gipson and Mandayam,
// "Differentially private partition selection", releases more groups at the same budget; it is
// not implemented yet.)
// Calibration: tau is the smallest integer >= 1 whose delta (certified MPFR upper end) is <= the
// requested delta (tau - 1 starts at the lower end of t ln(L0 / (delta (1 + q))), which no smaller
// integer can meet, and is raised until the certified check passes).
// Errors: ParameterError naming epsilon or delta; LimitError naming epsilon when tau would be
// over 2^62 (epsilon = 10^-5000: certified intervals could not pin tau down, and no sampler
// takes that scale). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <memory>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

struct PartitionSelection {
  unsigned long max_groups = 1;  // L0
  mpq_class epsilon;             // the share given to selection
  mpq_class delta_requested;     // the share given to selection
  mpq_class scale;               // t = L0 / epsilon
  mpz_class threshold;           // tau >= 1
  exactdp::Interval delta{exactdp::kDefaultPrecision};  // L0 P[Z >= tau - 1], upper <= requested
};

// delta of the threshold mechanism: L0 q^(tau - 1) / (1 + q), q = e^(-1/scale), certified.
[[nodiscard]] exactdp::Interval partition_selection_delta(unsigned long max_groups,
                                                          const mpq_class& scale,
                                                          const mpz_class& threshold);

[[nodiscard]] PartitionSelection calibrate_partition_selection(unsigned long max_groups,
                                                               const mpq_class& epsilon,
                                                               const mpq_class& delta);

// One group's decision: draws Z (exact discrete Laplace of the selection's scale) and says
// whether units + Z >= tau. Groups with units = 0 are never released (and draw nothing).
class PartitionSelector {
 public:
  explicit PartitionSelector(const PartitionSelection& selection);
  ~PartitionSelector();
  PartitionSelector(const PartitionSelector&) = delete;
  PartitionSelector& operator=(const PartitionSelector&) = delete;
  [[nodiscard]] bool keep(BitSource& bits, const mpz_class& units);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  mpz_class threshold_;
};

}  // namespace exactdp::mechanisms
