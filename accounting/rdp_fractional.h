// rdp_fractional.h — the Rényi divergence of the Poisson-subsampled Gaussian at FRACTIONAL
// orders alpha > 1, certified: a convergent series in three regions with a proven
// geometric tail bound.
//
// The pair. With s = sigma / Delta (shift 1 after scaling), base Q0 = N(0, s^2) and mixture
// M = (1-q) N(0, s^2) + q N(1, s^2). Its likelihood ratio is M/Q0 = (1-q)(1 + r) with
//     r(z) = q/(1-q) e^((z - 1/2)/s^2) = e^((z - z0)/s^2),   z0 = 1/2 + s^2 ln((1-q)/q).
// Both divergences are moments of it:
//     D_alpha(M || Q0) = log G(alpha) / (alpha-1),   D_alpha(Q0 || M) = log G(1-alpha) / (alpha-1),
//     G(g) = E_Q0[(M/Q0)^g] = (1-q)^g E_Q0[(1 + r)^g].
// sampled_gaussian_rdp_fractional() returns the LARGER of the two, so it does not rely on
// Mironov-Talwar-Zhang 2019 Thm. 5 (that the first is the larger) at fractional orders.
//
// The series (MTZ19 Sec. 3.3 splits at r = 1, where both binomial series converge only like a
// power of k; we split at r = 1/2 and r = 2 instead, so every series converges geometrically):
//   z <= z1 = z0 - s^2 ln 2 (r <= 1/2):  (1 + r)^g = sum_k C(g,k) r^k
//   z >= z2 = z0 + s^2 ln 2 (r >= 2):    (1 + r)^g = sum_k C(g,k) r^(g-k)        (1/r <= 1/2)
//   z1 < z < z2 (1/2 < r < 2):           (1 + r)^g = 2^g sum_k C(g,k) 2^-k (r - 1)^k  (|r-1|/2 <= 1/2)
// and, for real j, int_a^b Q0(z) r(z)^j dz = e^(j lambda + (j^2 - j)/(2 s^2)) [Phi((b-j)/s) -
// Phi((a-j)/s)], lambda = ln(q/(1-q)) (complete the square). The middle region's moments
// int Q0 (r-1)^k are the k-th forward differences of the sequence M_i = int_{z1}^{z2} Q0 r^i.
// Each series converges absolutely and uniformly on its region (|ratio| <= 1/2), so summing
// under the integral is allowed (dominated convergence).
//
// Tail bound: the engine accounting/internal/three_region_series.h (the proof is there): the
// terms from K on sum to at most |C(g,K)| 2^-K (m_left(0) + m_right(g) + 2^g m_middle(0)) /
// (1 - rho/2), added as [-T_K, T_K]; K is the first k with T_K <= 2^-(precision + 32) (about
// precision + 40 terms).
//
// Rounding: interval arithmetic throughout (outward), at a working precision of precision +
// K + 64 bits (the forward differences lose about one bit per order of difference); the log
// and the division by alpha-1 outward; the result is clamped to [0, alpha Delta^2 / (2 sigma^2)]
// (quasi-convexity bounds the mixture's divergence by the Gaussian's; G >= 1 by Jensen).
//
// Limits: 0 < q < 1; Delta/sigma <= 16 (ParameterError naming "order" beyond: the Gaussian
// factors e^((k^2-k)/(2 s^2)) would need exponents of 10^8); alpha rational > 1, at most 256.
// Cost: about 3K normal cdfs and K^2/2 interval subtractions; K ~ precision + 40.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// The largest mu = Delta/sigma for which fractional orders are evaluated.
[[nodiscard]] const mpq_class& fractional_order_max_mu();
// The largest order this series accepts.
inline constexpr unsigned long kMaxFractionalOrder = 256;

// G(g) = E_{N(0,s^2)}[((1-q) + q e^((z - 1/2)/s^2))^g] with s = 1/mu, for rational g (any sign),
// 0 < q < 1, 0 < mu <= fractional_order_max_mu(): an outward interval at `precision`.
[[nodiscard]] Interval sampled_gaussian_moment(const mpq_class& mu, const mpq_class& q, const mpq_class& g,
                                               mpfr_prec_t precision);

// max(D_alpha(M || Q0), D_alpha(Q0 || M)) for the pair above, alpha rational in (1, 256]:
// the RDP of the Poisson-subsampled Gaussian under add/remove-one (MTZ19 Thm. 4 reduces the
// mechanism to this pair), at any order, integer or not.
[[nodiscard]] Interval sampled_gaussian_rdp_fractional(const mpq_class& mu, const mpq_class& q,
                                                       const mpq_class& alpha, mpfr_prec_t precision);

}  // namespace exactdp::accounting
