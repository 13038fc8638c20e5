// internal/kov_fixed_precision.h — the optimal (KOV) composition of pure DP at one fixed working
// precision (not installed; the certified public functions are kov_delta and kov_epsilon in
// pure_dp_composition.h, which state the formulas).
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <exactdp/core/interval.h>

namespace exactdp::accounting::internal {

// One KOV evaluation at a fixed working precision (the step of the Ziv loops of kov_delta and
// kov_epsilon; gdp_transformation.cc and the tests call it directly).
[[nodiscard]] Interval kov_delta_at_precision(const mpq_class& epsilon, unsigned long k,
                                              const mpq_class& eps_prime, mpfr_prec_t precision);
[[nodiscard]] Interval kov_epsilon_at_precision(const mpq_class& epsilon, unsigned long k,
                                                const mpq_class& delta, mpfr_prec_t precision);
// The breakpoint value delta_i = delta((k - 2i) epsilon), 0 <= i <= k/2, by the direct formula
// of pure_dp_composition.h with exact GMP binomials (a second, independent algorithm, O(i)
// big-number terms; for tests only, small k).
[[nodiscard]] Interval kov_breakpoint_delta_direct(const mpq_class& epsilon, unsigned long k,
                                                   unsigned long i, mpfr_prec_t precision);

}  // namespace exactdp::accounting::internal
