// aggregate_quantile.h — one group's private quantile of a value column on the exact grid of its
// bounds, by the exponential mechanism (docs/AGGREGATE.md, "Quantiles").
//
// Candidates: every grid index c in [L / G, U / G] (the bounds' grid, aggregate_request.h), so
// k = (U - L) / G + 1 candidates; the released value is c G, printed with d decimals.
// Score (the discrete quantile score of OpenDP's make_quantile_score_candidates, after Smith,
// "Privacy-preserving statistical estimation with optimal convergence rates", STOC 2011): for the
// group's kept values x (clamped grid indices) and q = a / b in [0, 1],
//   u(c) = -| b #{x < c} - a (n - #{x = c}) | = -b | (1 - q) #{x < c} - q #{x > c} |,
// highest (0) at an exact q-quantile. Adding or removing one value moves #{x < c} or #{x > c}
// (not both) by 1, so u moves by at most max(a, b - a); a unit keeps at most Linf rows in a
// group, so the per-group sensitivity is Linf max(a, b - a).
// Draw: the exact exponential mechanism of mechanisms/selection (selection.h, kExponential, not
// monotonic: P[c] proportional to exp(eps u(c) / (2 Delta))), eps-DP for the group; a unit
// changes at most L0 groups, and basic composition gives L0 eps (the calibration divides).
// Cost: O(n log n + k) to score, then the selection's O(k) table (exponential_inversion.h);
// kMaxQuantileGrid bounds k (checked before any input is read, naming --bounds). Every score
// holds q's denominator b (about bits(b) + bits(n) bits) and every exponential weight also holds
// epsilon's and the sensitivity's digits (selection_cost.h), so a q or an epsilon with many
// digits makes k large numbers: check_quantile_cost bounds their bits before any score is made
// (calibrate_aggregate calls it before the input is read, draw_quantile again for each group).
// Errors: ParameterError naming quantile or bounds; LimitError naming q, epsilon or bounds over
// the cost limits. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_request.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

// The scores u(c) of every candidate c = lower_index .. upper_index (index 0 = lower_index), for
// the group's kept values (any order; each in the bounds' index range).
[[nodiscard]] std::vector<mpq_class> quantile_scores(std::vector<mpz_class> values, const ValueBounds& bounds,
                                                     const mpq_class& q);

// Linf max(a, b - a) for q = a / b.
[[nodiscard]] mpz_class quantile_score_sensitivity(const mpq_class& q, unsigned long max_rows);

// The bits of one group's k scores (at most kMaxScoreBits, score_budget.h) and of their
// exponential weights (at most kMaxWeightBits, selection_cost.h) for at most `values` kept
// values, estimated from the sizes of q, epsilon and the bounds alone. LimitError naming "q"
// (its denominator is in every score and in the sensitivity), "epsilon" or "bounds" (the grid),
// whichever contributes most, with the estimate and the limit.
void check_quantile_cost(const ValueBounds& bounds, const mpq_class& q, const mpq_class& epsilon,
                         unsigned long max_rows, const mpz_class& values);

// One exact draw: the released grid index (between the bounds' indices).
[[nodiscard]] mpz_class draw_quantile(BitSource& bits, const std::vector<mpz_class>& values,
                                      const ValueBounds& bounds, const mpq_class& q,
                                      const mpq_class& epsilon, unsigned long max_rows);

}  // namespace exactdp::mechanisms
