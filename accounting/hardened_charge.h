// hardened_charge.h — the privacy price of a hardened (isochronous) sampler.
//
// Theorem (docs/HARDENED.md, "Charging tau"): let M add noise with law N and M' add noise with a
// law N' such that TV(N, N') <= tau. Then for every input D, TV(M(D), M'(D)) <= tau (the same
// shift of both noises), and if M is (eps, delta)-DP, M' is (eps, delta + (1 + e^eps) tau)-DP:
//   P[M'(D) in E] <= P[M(D) in E] + tau <= e^eps P[M(D') in E] + delta + tau
//                 <= e^eps (P[M'(D') in E] + tau) + delta + tau.
// For the hardened samplers tau is their certified tau_upper() (samplers/hardening.h).
//
// Rounding: the result encloses delta + (1 + e^eps) tau_upper for every delta in the given
// interval: the lower end adds the lower end of (1 + e^eps) tau_upper to delta.lower (both
// rounded down), the upper end adds its upper end to delta.upper (rounded up). The upper end is
// the one a guarantee uses.
// Errors: ParameterError for epsilon < 0 or tau_upper < 0. Pure function.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// (1 + e^epsilon) tau_upper, enclosed at the given precision.
[[nodiscard]] Interval hardened_delta_charge(const mpq_class& epsilon, const mpq_class& tau_upper,
                                             mpfr_prec_t precision);

// delta + (1 + e^epsilon) tau_upper, at delta's precision.
[[nodiscard]] Interval hardened_delta(const Interval& delta, const mpq_class& epsilon,
                                      const mpq_class& tau_upper);

}  // namespace exactdp::accounting
