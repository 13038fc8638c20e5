// selection_guarantee.h — the privacy guarantee of K rounds of selection.h (peeling), certified.
//
// One round of every mechanism of selection.h is (epsilon, 0)-DP with the epsilon it was given
// (docs/SELECTION.md has the proofs). K peeling rounds are an adaptive composition of K
// epsilon-DP mechanisms, so:
//  * basic composition: (K epsilon, 0)-DP, an exact rational;
//  * with a target delta in (0, 1) and K >= 2: the optimal composition of Kairouz–Oh–Viswanath
//    (accounting/pure_dp_composition.h, kov_epsilon): (eps', delta)-DP where eps' is the UPPER
//    end of a certified interval (delta(eps'.upper) <= delta is proven; MPFR directed
//    rounding, never a float). The bound is reported as min(K epsilon, eps'.upper) by the CLI.
// The KOV bound is optimal among bounds that hold for every epsilon-DP mechanism; tighter
// bounds specific to the exponential mechanism (bounded range, Dong–Durfee–Rogers 2020) are not
// used here.
// Errors: ParameterError from accounting (epsilon, k = rounds, delta) when out of range:
// 1 <= K <= 10^6, 0 < delta < 1. Thread-safety: pure function.
#pragma once

#include <gmpxx.h>

#include <optional>

#include <exactdp/accounting/ziv.h>
#include <exactdp/mechanisms/selection/selection.h>

namespace exactdp::mechanisms {

struct SelectionGuarantee {
  mpq_class epsilon_per_round;  // exact
  unsigned long rounds = 1;
  mpq_class basic_epsilon;      // rounds * epsilon_per_round, exact, with delta = 0
  std::optional<mpq_class> delta;                      // the target given, if any
  std::optional<accounting::Certified> optimal_epsilon;  // KOV at delta (rounds >= 2, delta given)
};

[[nodiscard]] SelectionGuarantee selection_guarantee(const SelectionOptions& options,
                                                     unsigned long rounds,
                                                     const std::optional<mpq_class>& delta);

}  // namespace exactdp::mechanisms
