// rdp_subsampled_discrete.h — certified Rényi DP of the Poisson-subsampled discrete Gaussian and
// discrete Laplace under add/remove-one, at integer orders alpha >= 2 and fractional orders
// (rdp.h routes RdpEvent::rdp here).
//
// Base laws Q0 (noise centred at 0), Q1 (at the integer sensitivity Delta), r = dQ1/dQ0,
// mixture M = (1-q) Q0 + q Q1. Under add/remove the subsampled mechanism's RDP at order alpha is
// the larger of the two orders' divergences (both pairs are attained: the record is in the
// larger dataset or in the smaller one):
//   remove  D_alpha(M || Q0) = 1/(alpha-1) log E_Q0[(1 - q + q r)^alpha],
//   add     D_alpha(Q0 || M) = 1/(alpha-1) log E_Q0[(1 - q + q r)^(1 - alpha)]
// (E_M[(Q0/M)^alpha] = E_Q0[(Q0/M)^(alpha-1)]). No inequality between them is assumed (MTZ19's
// Thm 5 is proven for the Gaussian): both are evaluated.
//   discrete Laplace (scale t): r is constant on x <= 0 (e^(-Delta/t)) and on x >= Delta
//     (e^(Delta/t)), so both expectations are FINITE sums over Delta + 1 atoms (the two blocks'
//     masses by geometric series): exact up to rounding. Delta <= 10^4.
//   discrete Gaussian (sigma2): remove by the binomial expansion with E_Q0[r^k] =
//     e^((k^2-k) Delta^2/(2 sigma2)) (rdp.h poisson_binomial_rdp: exact); add by a sum over
//     x in [-X, X + Delta] plus the tails' largest contribution: f = (1 - q + q r)^(1-alpha) is
//     at most (1-q)^(1-alpha) below (r < 1) and at most 1 above (r >= 1), times the tail mass
//     sum_{|x| > X} w(x) / Z <= 2 w(X+1) / (1 - e^(-(X+1)/sigma2)); X is chosen so that this is
//     below 2^-(precision) of the sum. sigma2 <= 10^5 (the sum's cost is ~ 30 sqrt(sigma2) terms
//     per order).
// Rounding: every term an outward-rounded interval; the value is [lower, upper] of the larger
// of the two divergences.
// supports(base) says whether the limits hold; rdp() throws ParameterError naming "route"
// otherwise. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

[[nodiscard]] bool poisson_discrete_rdp_supports(const PrivacyEvent& base);
[[nodiscard]] Interval poisson_discrete_rdp(const PrivacyEvent& base, const mpq_class& q, unsigned long alpha,
                                            mpfr_prec_t precision);
// The same at a rational order alpha > 1 (fractional orders up to 256, rdp.h): the discrete
// Laplace's sums take any power; the discrete Gaussian's remove order is then a direct sum too,
// with the upper tail bounded through the shifted weight w(x) r(x)^alpha (at the function).
[[nodiscard]] Interval poisson_discrete_rdp(const PrivacyEvent& base, const mpq_class& q, const mpq_class& alpha,
                                            mpfr_prec_t precision);

}  // namespace exactdp::accounting
