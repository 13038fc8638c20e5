// subsampled_discrete_gaussian_exact.h — ONE Poisson-subsampled discrete Gaussian step answered
// from its closed form (the "exact" route of `exactdp compose`; docs/ACCOUNTING_SUBSAMPLED.md
// "One subsampled discrete Gaussian step").
//
// The step adds N_Z(0, sigma2) (P[z] ~ f(z) = exp(-z^2 / (2 sigma2))) to an integer query of
// sensitivity Delta over a Poisson sample at rate q (0 < q <= 1), under add/remove. The pair is
// P = (1 - q) N_Z(0) + q N_Z(Delta) against Q = N_Z(0), in both orders (a query that moves by
// exactly Delta attains it). The loss ln(P/Q)(z) = ln(1 - q + q e^((2 z Delta - Delta^2)/(2 sigma2)))
// increases with z, so each order's optimal set is a set of integers on one side of a threshold:
//   remove: z > t1, t1 = (sigma2/Delta) ln(1 + expm1(eps)/q) + Delta/2; with a the first such z,
//     N delta_1 = q R(a - Delta, a - 1) - expm1(eps) S(a);
//   add (when e^-eps > 1 - q): z < t2, t2 = (sigma2/Delta) ln(1 + expm1(-eps)/q) + Delta/2; with b
//     the last such z, N delta_2 = e^eps q R(b - Delta + 1, b) - expm1(eps) S(-b);
// S(k) = sum_{x >= k} f(x), R(a, b) = sum_{a <= x <= b} f(x), N = sum_x f(x) (the certified sums
// of discrete_gaussian_profile.h). delta(eps) = max(delta_1, delta_2): the exact profile.
// Certification: the thresholds are enclosed; every integer a (b) the enclosure allows is tried
// and the largest value kept — each candidate's value is a lower bound on the order's delta (the
// sum over any half-line is at most the sum over the optimal one) and the true a (b) is among them,
// so the maximum is the order's delta. More than 16 candidates: [0, 1] (the Ziv loop raises the
// precision). q = 1 is the plain step (CKS20 Theorem 7; the tests compare).
// Errors: ParameterError naming "sigma2" (> 0), "sensitivity" (>= 1), "q" (0 < q <= 1),
// "epsilon" (>= 0), "delta" (0 < delta < 1); the cost limits of discrete_gaussian_profile.h.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <optional>

#include <exactdp/accounting/ziv.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// delta(eps) enclosed at `precision` bits.
[[nodiscard]] Interval subsampled_discrete_gaussian_delta(const mpq_class& sigma2, const mpz_class& sensitivity,
                                                          const mpq_class& q, const mpq_class& epsilon,
                                                          mpfr_prec_t precision);
// The same to options.tolerance (Ziv loop).
[[nodiscard]] Certified subsampled_discrete_gaussian_delta(const mpq_class& sigma2, const mpz_class& sensitivity,
                                                           const mpq_class& q, const mpq_class& epsilon,
                                                           const ZivOptions& options = {});
// epsilon(delta) by certified bisection on the profile; nullopt when no eps <= 10^6 is proven.
[[nodiscard]] std::optional<Certified> subsampled_discrete_gaussian_epsilon(const mpq_class& sigma2,
                                                                            const mpz_class& sensitivity,
                                                                            const mpq_class& q, const mpq_class& delta,
                                                                            const ZivOptions& options = {});

}  // namespace exactdp::accounting
