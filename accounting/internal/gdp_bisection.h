// internal/gdp_bisection.h — the certified bisections of the mu-GDP conversions at one fixed
// working precision (not installed; the public functions and their contract are in
// gdp_conversions.h).
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <exactdp/core/interval.h>

namespace exactdp::accounting::internal {

// One bisection at a fixed precision (the step of the Ziv loops; the tests call it directly).
// It refines the bracket to a relative width of about 2^-(precision - 24), or 2^-result_bits
// when result_bits is positive and smaller (the public functions pass their tolerance's bits + 2).
[[nodiscard]] Interval gdp_epsilon_at(const Interval& mu, const mpq_class& delta,
                                      mpfr_prec_t precision, long result_bits = 0);
[[nodiscard]] Interval gdp_mu_for_at(const mpq_class& epsilon, const mpq_class& delta,
                                     mpfr_prec_t precision, long result_bits = 0);
[[nodiscard]] Interval gdp_mu_of_pure_dp_at(const mpq_class& epsilon, mpfr_prec_t precision,
                                            long result_bits = 0);

}  // namespace exactdp::accounting::internal
