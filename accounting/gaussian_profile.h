// gaussian_profile.h — the exact privacy profile delta(eps) of the Gaussian mechanism and of
// mu-GDP, as certified intervals.
//
// The Gaussian mechanism adds N(0, sigma^2) to a query of L2 sensitivity Delta. Its tight
// privacy profile (Balle & Wang 2018, Theorem 8; equivalently Dong, Roth & Su's mu-GDP profile
// with mu = Delta / sigma) is
//   delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu),   eps >= 0,
// the smallest delta for which the mechanism is (eps, delta)-DP. It is decreasing in eps and
// increasing in mu (decreasing in sigma).
//
// Evaluation: with x1 = eps/mu - mu/2 and x2 = eps/mu + mu/2 (exact rationals) and the Mills
// ratio R = (1 - Phi)/phi, the identity e^eps phi(x2) = phi(x1) turns the profile into
//   delta(eps) = phi(x1) [R(x1) - R(x2)],
// so e^eps is never formed (eps = 10^400 is fine) and nothing underflows before the result
// does. The difference R(x1) - R(x2) cancels when mu is small; it is intersected with the
// mean-value enclosure mu [1 - x2 R(x2), 1 - x1 R(x1)], whose relative width is O(mu), so tiny
// mu (10^-50) costs no extra precision either. Results far below 2^(-2^62) (e.g. mu = 10^-10
// with eps = 10^6, where delta ~ exp(-5 * 10^31)) are not representable in MPFR: then the
// result is [0, tiny], certified, with tolerance_met = false.
//
// Errors: ParameterError (names the parameter and the allowed range) for eps < 0, sigma <= 0,
// sensitivity <= 0, mu <= 0. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

// delta(eps) of mu-GDP at working precision p (one evaluation, no precision loop).
[[nodiscard]] Interval gdp_delta_at(const mpq_class& epsilon, const mpq_class& mu,
                                    mpfr_prec_t precision);
// 1 - delta(eps) of mu-GDP at working precision p, with RELATIVE accuracy ~2^-p however close
// delta is to 1 (delta = 1 - 10^-5000 is a legal target): with the notation above,
//   1 - delta = Phi(x1) + e^eps Phi(-x2) = Phi(x1) + phi(x1) R(x2),
// a sum of two positive terms (no cancellation). Outward rounded, clamped to [0, 1].
[[nodiscard]] Interval gdp_delta_complement_at(const mpq_class& epsilon, const mpq_class& mu,
                                               mpfr_prec_t precision);
// Interval arguments (e.g. mu = sqrt(mu1^2 + mu2^2) from composition): by monotonicity,
// [delta(eps.upper, mu.lower).lower, delta(eps.lower, mu.upper).upper]. Requires eps.lower >= 0
// and mu.upper > 0 (mu.lower <= 0 gives the lower end 0).
[[nodiscard]] Interval gdp_delta_at(const Interval& epsilon, const Interval& mu,
                                    mpfr_prec_t precision);

// Certified to options.tolerance (relative width) unless the precision cap stops it.
[[nodiscard]] Certified gdp_delta(const mpq_class& epsilon, const mpq_class& mu,
                                  const ZivOptions& options = {});

// The Gaussian mechanism: mu = sensitivity / sigma.
[[nodiscard]] Interval gaussian_delta_at(const mpq_class& epsilon, const mpq_class& sigma,
                                         const mpq_class& sensitivity, mpfr_prec_t precision);
[[nodiscard]] Certified gaussian_delta(const mpq_class& epsilon, const mpq_class& sigma,
                                       const mpq_class& sensitivity,
                                       const ZivOptions& options = {});

}  // namespace exactdp::accounting
