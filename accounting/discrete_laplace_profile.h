// discrete_laplace_profile.h — the exact privacy profile of the discrete Laplace mechanism.
//
// The discrete Laplace distribution with scale t > 0 has P[X = x] = c r^|x| on the integers,
// r = e^(-1/t), c = (1 - r)/(1 + r) (CKS20 Definition 28; our sampler's --scale). Added to an
// integer query of sensitivity Delta (a positive integer) its exact profile is, for eps >= 0,
//   delta(eps) = 0                                                    if eps >= Delta/t,
//   delta(eps) = 1 - (e^(-(m+1)/t) + e^(eps - (Delta-m)/t)) / (1 + e^(-1/t))   otherwise,
// where m = ceil((Delta - eps t)/2) - 1, the largest integer x with (Delta - 2x)/t > eps.
// Derivation: with P = X, Q = X + Delta, the ratio p(x)/q(x) = r^(|x| - |x - Delta|) is e^(Delta/t)
// for x <= 0 and exp((Delta - 2x)/t) on [0, Delta], decreasing in x; so the optimal set
// {p > e^eps q} is {x <= m} and delta = P[X <= m] - e^eps P[X <= m - Delta], with
// P[X <= m] = 1 - r^(m+1)/(1+r) (m >= 0) and P[X <= m - Delta] = r^(Delta-m)/(1+r) (m < Delta).
// Points with ratio exactly e^eps contribute 0 either way. Evaluated as
//   [-expm1(-(m+1)/t) - r expm1(eps - (Delta-m-1)/t)] / (1 + r)
// to avoid cancelling 1 - (...) when delta is small; the Ziv driver handles what remains.
//
// Errors: ParameterError for eps < 0, scale <= 0, sensitivity not a positive integer.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

[[nodiscard]] Interval discrete_laplace_delta_at(const mpq_class& epsilon, const mpq_class& scale,
                                                 const mpz_class& sensitivity,
                                                 mpfr_prec_t precision);
[[nodiscard]] Certified discrete_laplace_delta(const mpq_class& epsilon, const mpq_class& scale,
                                               const mpz_class& sensitivity,
                                               const ZivOptions& options = {});

}  // namespace exactdp::accounting
