// subsampled_gaussian_exact.h — ONE Poisson-subsampled Gaussian step answered from its closed
// form (the "exact" route of `exactdp compose`; docs/ACCOUNTING_SUBSAMPLED.md "One subsampled
// Gaussian step").
//
// The step releases a sum of L2 sensitivity Delta plus N(0, sigma^2 I) over a Poisson sample at
// rate q (0 < q <= 1), under add/remove-one; mu = Delta / sigma. In units of sigma the worst-case
// pair is P = (1 - q) N(0, 1) + q N(mu, 1) against Q = N(0, 1) (and Q against P), and the loss
// ln(P/Q)(x) = ln(1 - q + q e^(mu x - mu^2/2)) is increasing in x, so the optimal set of each
// order is a half-line and, with c = e^eps,
//   remove (P against Q): x1 = (ln((c - 1 + q)/q) + mu^2/2) / mu,
//       delta_1 = q Phi^c(x1 - mu) - (c - 1 + q) Phi^c(x1);
//   add (Q against P), only when e^-eps > 1 - q (else delta_2 = 0):
//       x2 = (ln((e^-eps - 1 + q)/q) + mu^2/2) / mu,
//       delta_2 = c (q + expm1(-eps)) Phi(x2) - c q Phi(x2 - mu);
//   delta(eps) = max(delta_1, delta_2): the exact profile of the step (the pair is attained by a
//   query that changes by exactly Delta), not a bound.
// Every piece is an outward-rounded interval (normal.h tails, expm1/log1p for small eps); x1 and
// x2 are enclosed and the combination is evaluated over the enclosure, which contains the value at
// the true threshold. epsilon(delta) inverts the profile by certified bisection
// (profile_inversion.h).
// Errors: ParameterError naming "q" (0 < q <= 1), "mu" (> 0), "epsilon" (>= 0), "delta"
// (0 < delta < 1). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <optional>

#include <exactdp/accounting/ziv.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// delta(eps) enclosed at `precision` bits.
[[nodiscard]] Interval subsampled_gaussian_delta(const mpq_class& mu, const mpq_class& q, const mpq_class& epsilon,
                                                 mpfr_prec_t precision);
// The same to options.tolerance (Ziv loop).
[[nodiscard]] Certified subsampled_gaussian_delta(const mpq_class& mu, const mpq_class& q, const mpq_class& epsilon,
                                                  const ZivOptions& options = {});
// epsilon(delta) by certified bisection on the profile; nullopt when no eps <= 10^6 is proven.
[[nodiscard]] std::optional<Certified> subsampled_gaussian_epsilon(const mpq_class& mu, const mpq_class& q,
                                                                   const mpq_class& delta,
                                                                   const ZivOptions& options = {});

}  // namespace exactdp::accounting
