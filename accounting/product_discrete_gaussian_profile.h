// product_discrete_gaussian_profile.h — the exact privacy profile of a product of independent
// discrete Gaussians, each shifted by its own integer sensitivity, certified.
//
// The pair. Coordinate j adds Z_j ~ N_Z(0, sigma2_j) to an integer query that a neighbour moves by
// at most b_j. The noise of all coordinates together is the product P = prod_j N_Z(0, sigma2_j)
// against Q = prod_j N_Z(v_j, sigma2_j) with |v_j| <= b_j. The worst v is v_j = b_j for every j:
//  - one coordinate: N_Z(0, s) and N_Z(k, s) have a monotone likelihood ratio (the discrete
//    Gaussian is log-concave), so the best test is a half-line and
//    H_g = sup_c P[Z <= c] - g P[Z <= c - k] grows with k >= 0; by reflection v_j < 0 is v_j > 0;
//  - products: when a pair is dominated (every hockey-stick divergence at most another pair's),
//    Blackwell's theorem gives a Markov kernel from the larger pair to the smaller, and that
//    kernel times the identity maps the product with the larger pair to the product with the
//    smaller one, so the hockey-stick divergence of the product is monotone in each coordinate.
// The pair is symmetric (reflect every coordinate), so delta(eps) below bounds both directions.
//
// The value. The privacy loss of coordinate j at x is L_j(x) = (b_j^2 - 2 b_j x) / (2 sigma2_j),
// an exact rational, and H_{e^eps}(P || Q) = E_P[(1 - e^(eps - sum_j L_j))_+]. Summing out the
// last coordinate (the widest) leaves its one-dimensional profile (CKS20 Thm. 7,
// discrete_gaussian_profile.h) at the rational eps' = eps - sum_{j < last} L_j(x_j):
//   delta(eps) = sum_{x_1..x_{m-1}} prod_j p_j(x_j) delta_last(eps'),
// with delta_last(eps') for eps' < 0 by H_g(P||Q) = 1 - g + g H_{1/g}(Q||P) (Q||P is P||Q
// reflected): delta_last(-e) = 1 - e^-e (1 - delta_last(e)). The outer coordinates are summed over
// |x_j| <= R_j; the mass outside, at most sum_j 2 S_j(R_j + 1) / N_j (union bound), is added to
// the upper end only (delta_last <= 1), so the result encloses the exact delta(eps).
//
// Cost: one 1-D profile per outer point, prod_j (2 R_j + 1) points with R_j about sigma_j
// sqrt(2 ln(2 m / eta)), eta = delta 2^-16 (product_profile_points). Callers refuse (fall back)
// above kMaxProductProfilePoints before evaluating.
// Errors: ParameterError for an empty product, sigma2 <= 0, shift < 1, eps < 0.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

struct GaussianCoordinate {
  mpq_class sigma2;  // > 0
  mpz_class shift;   // b >= 1, integer
};

inline constexpr unsigned long kMaxProductProfilePoints = 256;

// The outer points the evaluation at a target delta visits (0 for one coordinate), or a value
// above kMaxProductProfilePoints (saturated) when over it.
[[nodiscard]] unsigned long product_profile_points(const std::vector<GaussianCoordinate>& coords,
                                                   const mpq_class& delta);

// delta(eps) of the product, enclosed (see above); `delta` is the target the truncation is sized
// for (its tail charge is at most delta 2^-16). Refuses (LimitError naming "delta") above
// kMaxProductProfilePoints.
[[nodiscard]] Interval product_discrete_gaussian_delta_at(const std::vector<GaussianCoordinate>& coords,
                                                          const mpq_class& epsilon, const mpq_class& delta,
                                                          mpfr_prec_t precision = kDefaultPrecision);

}  // namespace exactdp::accounting
