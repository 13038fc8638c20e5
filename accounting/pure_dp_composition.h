// pure_dp_composition.h — k-fold composition of epsilon-DP mechanisms: basic, advanced
// (Dwork–Rothblum–Vadhan) and the exact optimal (Kairouz–Oh–Viswanath), certified.
//
// Setting: k mechanisms, each epsilon-DP (pure, delta = 0), composed adaptively.
//
// Basic (Dwork et al. 2006): the composition is (k epsilon, 0)-DP. Exact rational.
//
// Advanced (DRV10, Theorem III.3 with delta = 0): for every delta' in (0, 1) the composition is
//   (eps', delta')-DP with eps' = sqrt(2 k ln(1/delta')) epsilon + k epsilon (e^epsilon - 1).
//
// Optimal (KOV15, Theorem 3.3; the bound is attained by k-fold randomized response, so no
// smaller delta is valid for all epsilon-DP mechanisms). With r = e^-epsilon and
// t_l = C(k, l) r^l / (1 + r)^k  (= P[Bin(k, 1/(1+e^eps)) = l]), the exact privacy profile of the
// composition is
//   delta(eps') = sum over l with (k - 2l) epsilon > eps' of t_l (1 - e^(eps' - (k - 2l) epsilon)),
// which at eps' = eps_i = (k - 2i) epsilon is the brief's
//   delta_i = [sum_{l<i} C(k,l) (e^{eps(k-l)} - e^{eps(k-2i+l)})] / (1 + e^eps)^k.
// We never form that difference. With W_i = sum_{l<i} t_l r^(2(i-l)) (all terms >= 0):
//   delta_0 = 0, W_0 = 0,
//   delta_{i+1} = delta_i + (1 - r^2) (t_i + W_i),     W_{i+1} = r^2 (t_i + W_i),
// and between breakpoints, for eps' = eps_{i-1} - y with 0 <= y <= 2 epsilon,
//   delta(eps') = delta_{i-1} + (1 - e^-y) (t_{i-1} + W_{i-1}).
// Every quantity is a sum of non-negative terms, so the intervals never suffer cancellation,
// and the inverse within a segment is closed form: y = -log(1 - u), u = (delta - delta_{i-1}) /
// (t_{i-1} + W_{i-1}). One pass over i costs O(min(i*, k/2)) interval steps (i* the segment of
// the answer), about 0.5 microseconds each at 128 bits: k = 10^6 takes well under a second.
//
// Rounding: all pass quantities are positive, so lower ends are computed from lower ends with
// MPFR_RNDD and upper ends from upper ends with MPFR_RNDU. The epsilon returned for a target
// delta is an Interval containing the exact optimal eps*; its UPPER end is the value to use: it
// is chosen so that delta(upper) <= target is proven (not merely that upper >= eps*).
//
// Limits: 1 <= k <= kMaxCompositions (10^6), 0 < epsilon <= 10^6, 0 < delta < 1; every pass is
// bounded by ceil(k/2) steps and the Ziv loop by its precision cap (ziv.h), lowered to
// 2^29 / (k + 1) bits for large k (536 bits at k = 10^6) so that no call runs for minutes. Measured: k = 10^6,
// epsilon = 0.001, delta = 1e-6 in 0.27 s CPU (bench/accounting_composition_bench.cc).
// Errors: ParameterError naming epsilon, k, delta or eps_prime with the allowed range.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

inline constexpr unsigned long kMaxCompositions = 1'000'000;

// Throws ParameterError unless 0 < epsilon <= 10^6 and 1 <= k <= kMaxCompositions.
void validate_pure_dp_composition(const mpq_class& epsilon, unsigned long k);
// Throws ParameterError (named `name`) unless 0 < delta < 1.
void validate_delta(const mpq_class& delta, const char* name = "delta");

// Basic composition: k epsilon, exact.
[[nodiscard]] mpq_class basic_composition_epsilon(const mpq_class& epsilon, unsigned long k);

// Advanced composition (DRV10 Thm III.3): an interval containing
// sqrt(2 k ln(1/delta)) epsilon + k epsilon (e^epsilon - 1); use its upper end.
[[nodiscard]] Interval advanced_composition_epsilon(const mpq_class& epsilon, unsigned long k,
                                                    const mpq_class& delta,
                                                    mpfr_prec_t precision = kDefaultPrecision);

// KOV optimal delta(eps') of the k-fold composition, eps' >= 0 (0 for eps' >= k epsilon).
// An interval containing it, refined to options.tolerance (Ziv loop).
[[nodiscard]] Certified kov_delta(const mpq_class& epsilon, unsigned long k,
                                  const mpq_class& eps_prime, const ZivOptions& options = {});

// KOV optimal epsilon for a target delta in (0, 1): the smallest eps' >= 0 with
// delta(eps') <= delta. The interval contains it; delta(value.upper) <= delta is proven, so
// value.upper is a valid epsilon to claim. 0 when delta >= delta(0).
[[nodiscard]] Certified kov_epsilon(const mpq_class& epsilon, unsigned long k,
                                    const mpq_class& delta, const ZivOptions& options = {});

}  // namespace exactdp::accounting
