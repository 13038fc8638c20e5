// subsampled_gaussian_replace_exact.h — ONE Poisson-subsampled Gaussian step under REPLACE-ONE
// answered from its closed form (the "exact" route of `exactdp compose --neighbouring
// replace-one`; docs/ACCOUNTING.md "Replace-one with subsampled events").
//
// The step releases a sum in which one record moves the query by at most Delta in L2, plus
// N(0, sigma^2 I), over a Poisson sample at rate q (0 < q <= 1); mu = Delta / sigma. Under
// replace-one its worst case is the pair P = (1 - q) N(0,1) + q N(mu,1) against
// Q = (1 - q) N(0,1) + q N(-mu,1) (proven to dominate every replace-one pair: the theorem of
// docs/ACCOUNTING.md, pld_replace_pair.h; attained by records adding +Delta and -Delta), so this
// is the step's exact profile, not a bound. The loss ln(P/Q)(x) is increasing and odd, the
// optimal set a half-line x > x*, and with c = e^eps, a = 1 - q, k = q e^(-mu^2/2):
//   u = e^(mu x*) = (a expm1(eps) + sqrt(a^2 expm1(eps)^2 + 4 k^2 c)) / (2 k),  x* = ln(u) / mu,
//   delta(eps) = q Phi^c(x* - mu) - c q Phi^c(x* + mu) - a expm1(eps) Phi^c(x*).
// The pair is symmetric (Q is P reflected), so one order is the profile. Every piece is an
// outward-rounded interval (normal.h tails); x* is enclosed and the combination evaluated over
// the enclosure, which contains the value at the true threshold. epsilon(delta) inverts the
// profile by certified bisection (profile_inversion.h).
// Errors: ParameterError naming "q" (0 < q <= 1), "mu" (> 0), "epsilon" (>= 0), "delta"
// (0 < delta < 1). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <optional>

#include <exactdp/accounting/ziv.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// delta(eps) enclosed at `precision` bits.
[[nodiscard]] Interval subsampled_gaussian_replace_delta(const mpq_class& mu, const mpq_class& q,
                                                         const mpq_class& epsilon, mpfr_prec_t precision);
// The same to options.tolerance (Ziv loop).
[[nodiscard]] Certified subsampled_gaussian_replace_delta(const mpq_class& mu, const mpq_class& q,
                                                          const mpq_class& epsilon, const ZivOptions& options = {});
// epsilon(delta) by certified bisection on the profile; nullopt when no eps <= 10^6 is proven.
[[nodiscard]] std::optional<Certified> subsampled_gaussian_replace_epsilon(const mpq_class& mu, const mpq_class& q,
                                                                           const mpq_class& delta,
                                                                           const ZivOptions& options = {});

}  // namespace exactdp::accounting
