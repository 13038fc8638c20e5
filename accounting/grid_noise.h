// grid_noise.h — the accounting of real-valued vectors noised on a grid: each coordinate x_i is
// rounded to the grid g (n_i = the integer nearest x_i / g, ties either way), integer noise is
// added (the discrete Gaussian N_Z(0, sigma^2/g^2) or the discrete Laplace of scale scale/g on
// every coordinate, independently), and (n_i + Z_i) g is released. docs/REAL_VALUED_ACCOUNTING.md
// states and proves everything below; in short:
//
// Rounding (Lemma 1 there). If ||x - x'||_2 <= Delta then v = n(x) - n(x') is an integer vector
// with |v_i| <= floor(|b_i|) + 1, b = (x - x')/g, hence with F = floor((Delta/g)^2), d = dim,
//   ||v||_2^2 <= F + 2 isqrt(min(F, d) F) + d          (<= (Delta/g + sqrt(d))^2),
// and for the L1 norm ||v||_1 <= floor(Delta/g) + d. Both are exact integers (no rounding).
//
// Lattice smoothing (Lemma 2). For 0 < t^2 < s2 := sigma_int^2 (sigma_int = sigma/g) let
//   eta(t) = 2 / (e^(2 pi^2 t^2) - 1),   r(t) = (1 + eta) / (1 - eta)   (needs eta < 1),
// and s^2 = s2 - t^2. The randomised rounding K(x, .) = N_Z(x, t^2) (integer-shift equivariant)
// maps N(c, s^2) to a law whose pmf is within the factors [1/r, r] of N_Z(c, s2) for every
// integer c; on Z^d the factor is r^d. Hence, for every integer shift v with ||v||^2 <= D2 and
// mu_t = sqrt(D2 / (s2 - t^2)), both pair orders:
//   delta(eps) <= r^d delta_G(eps - 2 d ln r; mu_t)            (Theorem 3, plain release)
//   D_a <= D_a^G(mu_t) + (2a - 1)/(a - 1) d ln r               (Theorem 4, any pair of mixtures
//                                                               of the shifted laws: Poisson
//                                                               subsampling, both orders)
// where delta_G is the Gaussian (mu-GDP) profile and D_a^G the same divergence for the
// continuous Gaussian at mu_t (sensitivity mu_t, sigma 1).
// The RDP of the plain release is a D2 / (2 s2) at every a > 1 (CKS20: the discrete Gaussian's
// Renyi divergence is at most the Gaussian's; divergences of product laws add).
//
// Every function returns an Interval enclosing the stated real number, outward rounded at
// `precision`. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// Lemma 1: the integer L2 sensitivity squared and the L1 sensitivity of the rounded query, for a
// real query of sensitivity `sensitivity` (> 0) on the grid `granularity` (> 0) in `dim` (>= 1)
// dimensions. Exact.
[[nodiscard]] mpz_class grid_l2_sensitivity_squared(const mpq_class& sensitivity, const mpq_class& granularity,
                                                    const mpz_class& dim);
[[nodiscard]] mpz_class grid_l1_sensitivity(const mpq_class& sensitivity, const mpq_class& granularity,
                                            const mpz_class& dim);

// eta(t) = 2 / expm1(2 pi^2 t2) (t2 = t^2 > 0), and dim * ln r(t) (needs eta < 1: t2 >= 1/16 is
// enough; std::logic_error otherwise).
[[nodiscard]] Interval lattice_eta(const mpq_class& t2, mpfr_prec_t precision);
[[nodiscard]] Interval lattice_log_ratio(const mpq_class& t2, const mpz_class& dim, mpfr_prec_t precision);

// The smoothing widths tried (t^2 = 1/8, 1/4, ..., 16, those at most s2 / 2).
[[nodiscard]] std::vector<mpq_class> smoothing_candidates(const mpq_class& sigma_int2);

// Whether eps - 2 d ln r(t) >= 0 is proven at `precision` (Theorem 3 then applies at t).
[[nodiscard]] bool smoothing_applies(const mpq_class& epsilon, const mpz_class& dim, const mpq_class& t2,
                                     mpfr_prec_t precision);
// Theorem 3 at one t^2: the value min(1, r^d delta_G(eps - 2 d ln r; mu_t)) for the pair of
// N_Z(0, s2)^d and N_Z(v, s2)^d, ||v||^2 <= d2, enclosed. Precondition: eps - 2 d ln r >= 0
// (smoothing_applies at any precision proves it; the enclosure of eps - 2 d ln r is then clamped
// at 0, so the same number is enclosed at every precision).
[[nodiscard]] Interval smoothed_gaussian_delta(const mpq_class& epsilon, const mpq_class& sigma_int2,
                                               const mpz_class& d2, const mpz_class& dim, const mpq_class& t2,
                                               mpfr_prec_t precision);

// min(1, x) clamped at 0 as well: an enclosure of min(1, max(0, value)) for x enclosing value.
[[nodiscard]] Interval at_most_one(const Interval& x);

// A rational mu >= sqrt(d2 / (sigma_int2 - t2)) (rounded up at 2^-256 relative, and at least
// 10^-6): the continuous Gaussian's mu used by Theorem 4. Exact, deterministic.
[[nodiscard]] mpq_class smoothed_mu_upper(const mpz_class& d2, const mpq_class& sigma_int2, const mpq_class& t2);

}  // namespace exactdp::accounting
