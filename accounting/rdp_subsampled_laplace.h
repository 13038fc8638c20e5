// rdp_subsampled_laplace.h — certified RDP of the Poisson-subsampled Laplace mechanism under
// add/remove-one, at integer and fractional orders alpha in (1, 256].
//
// The pair (as for the pld route): Q0 = Lap(0, b), Q1 = Lap(Delta, b), eps = Delta/b, and the
// mixture M = (1-q) Q0 + q Q1. Under add/remove the subsampled mechanism's RDP at order alpha is
// the larger of D_alpha(M || Q0) (remove) and D_alpha(Q0 || M) (add) (Poisson subsampling of a
// mechanism with dominating pair (Q1, Q0): Zhu, Dong, Wang 2022, Balle et al. 2018); both are
// computed, as log G(g)/(alpha-1) for g = alpha and g = 1 - alpha, with
//     G(g) = E_Q0[(1 - q + q Q1/Q0)^g].
// Q1/Q0 is e^-eps on x <= 0, e^eps on x >= Delta and e^((2x - Delta)/b) in between, so with
// v = (2x - Delta)/b:
//     G(g) = 1/2 (1-q+q e^-eps)^g + e^-eps/2 (1-q+q e^eps)^g
//            + e^(-eps/2)/4 (1-q)^g int_{-eps}^{eps} e^(-v/2) (1 + e^(v - v0))^g dv,
// v0 = ln((1-q)/q). The integral is the three-region series of
// accounting/internal/three_region_series.h with weight e^(-v/2) on [-eps, eps] and ratio
// r = e^(v - v0); its moments are elementary: int_a^b e^(-v/2) r^j dv = e^(-j v0)
// (e^((j-1/2) b) - e^((j-1/2) a)) / (j - 1/2) (b - a when j = 1/2), evaluated as e^((j-1/2) a)
// expm1((j-1/2)(b-a))/(j-1/2) (no cancellation near j = 1/2). Checks: G(0) = 1 exactly (the
// three atoms/integral parts sum to 1), mpmath quadrature (tests/accounting/rdp_subsampled_laplace_test.cc).
//
// Rounding: interval arithmetic throughout (outward); G >= 1 (Jensen) and the value is clamped
// to [0, the plain Laplace's RDP] (quasi-convexity, both orders: the Laplace pair is symmetric).
// Limits: 0 < q < 1, eps <= 1000, alpha rational in (1, 256] (ParameterError naming "order"
// beyond: the add order's alternating series needs ~alpha guard bits). Thread-safety: pure.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

inline constexpr unsigned long kMaxSubsampledLaplaceOrder = 256;
[[nodiscard]] const mpq_class& subsampled_laplace_max_epsilon();  // 1000

// G(g) for the pair above (exposed for tests).
[[nodiscard]] Interval subsampled_laplace_moment(const mpq_class& eps, const mpq_class& q, const mpq_class& g,
                                                 mpfr_prec_t precision);
// max(D_alpha(M || Q0), D_alpha(Q0 || M)).
[[nodiscard]] Interval subsampled_laplace_rdp(const mpq_class& eps, const mpq_class& q, const mpq_class& alpha,
                                              mpfr_prec_t precision);

}  // namespace exactdp::accounting
