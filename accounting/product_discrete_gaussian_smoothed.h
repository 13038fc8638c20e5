// product_discrete_gaussian_smoothed.h — a certified upper bound on the privacy profile of a
// product of independent discrete Gaussians with integer shifts, for ANY number of coordinates,
// through the continuous Gaussian (lattice smoothing, docs/REAL_VALUED_ACCOUNTING.md Lemma 2).
//
// The pair (product_discrete_gaussian_profile.h has the worst-neighbour argument): block j holds
// `copies` coordinates, each N_Z(c, sigma2_j) against N_Z(c + v, sigma2_j), c and v integers,
// |v| <= shift_j. Bound. For a smoothing width 0 < t2_j < sigma2_j, Lemma 2 gives a post-processing
// K_j (randomised rounding, integer-shift equivariant) with K_j(N(c, sigma2_j - t2_j)) within the
// pointwise factors [1/r_j, r_j] of N_Z(c, sigma2_j), r_j = (1 + eta_j)/(1 - eta_j),
// eta_j = 2 / (e^(2 pi^2 t2_j) - 1). Coordinates are independent, so the product of the K_j maps
// the continuous product to a law within [1/R, R] of the discrete one, ln R = sum_j copies_j ln r_j,
// for both neighbours. For every output set S (Theorem 3's argument, block by block):
//   Q0(S) - e^eps Q1(S) <= R (P~0(S) - e^(eps - 2 ln R) P~1(S)) <= R delta_G(eps - 2 ln R; mu),
// by data processing, where the continuous product N(c, D) against N(c + v, D) (D diagonal,
// D_jj = sigma2_j - t2_j) is, after whitening and a rotation, one Gaussian of mean
// ||D^(-1/2) v|| <= mu = sqrt(sum_j copies_j shift_j^2 / (sigma2_j - t2_j)), and delta_G (the
// mu-GDP profile, gaussian_profile.h) grows with mu. The other order is v -> -v. So
//   delta(eps) <= min(1, R delta_G(eps - 2 ln R; mu))      whenever eps >= 2 ln R.
// The bound is the continuous Gaussian's profile at the variances lowered by t2_j, so it is
// within about t2_j / (2 sigma2_j) (relative, in sigma) of the exact discrete profile plus a
// shift of 2 ln R in epsilon; the widths are chosen to balance the two (choose_smoothing).
// Cost: O(number of blocks) interval operations; no summation.
// Errors: ParameterError naming "sigma2" for no block, sigma2 <= 0, shift < 1 or copies < 1;
// std::logic_error for a width outside 1/16 <= t2 < sigma2 (callers take them from
// choose_smoothing). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

struct SmoothedGaussianBlock {
  mpq_class sigma2;  // > 0
  mpz_class shift;   // >= 1
  mpz_class copies;  // >= 1 coordinates with this law and shift
  mpq_class t2;      // smoothing width, 1/16 <= t2 < sigma2
};

// The bound above, enclosed at `precision`; [1, 1] when eps >= 2 ln R is not proven.
[[nodiscard]] Interval smoothed_product_delta_at(const std::vector<SmoothedGaussianBlock>& blocks,
                                                 const mpq_class& epsilon, mpfr_prec_t precision = kDefaultPrecision);

// The widths tried per block: 1/2, 5/8, 3/4, 7/8, 1, 5/4, 3/2, 2, 4, those at most sigma2 / 4.
[[nodiscard]] std::vector<mpq_class> smoothing_widths(const mpq_class& sigma2);

// Sets every block's t2 to the width minimising the bound at `epsilon`, one block at a time
// (two passes, each block's width among smoothing_widths). Returns false, leaving the blocks
// unchanged, when a block has no width (sigma2 < 2).
[[nodiscard]] bool choose_smoothing(std::vector<SmoothedGaussianBlock>& blocks, const mpq_class& epsilon);

}  // namespace exactdp::accounting
