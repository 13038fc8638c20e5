// vector_grid_pld.h — Theorem 5 of docs/REAL_VALUED_ACCOUNTING.md: the epsilon of k adaptive
// releases of the vector discrete Gaussian on a grid (vector_grid_privacy.h), each
// Poisson-subsampled at rate q (q = 1: not subsampled), under add/remove-one, through the pld
// route of the CONTINUOUS (sampled) Gaussian at mu' = law.subsampling_mu():
//   epsilon <= epsilon_G(delta / R) + 2 ln R,     ln R = k d ln r(t),
// where epsilon_G is the pld route's certified upper end for k continuous events (sigma 1,
// sensitivity mu', rate q) and t = law.subsampling_width(). The pld route has no dominating pair
// of the discrete law itself (base_atoms() refuses); this is the composition-level statement that
// replaces it. Errors: ParameterError naming "q" (0 < q <= 1), "count" (1 <= steps <= 10^9),
// "route" when the law has no smoothing width (sigma/g below 1/2) and the pld route's own errors.
// The composition-level route itself (mixed events, delta as well): accounting/smoothed_pld.h,
// the smoothed-pld route of `exactdp compose`; this is its one-law form.
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/laws/vector_grid/vector_grid_privacy.h>

namespace exactdp::laws {

struct GridPldAnswer {
  Interval epsilon{kDefaultPrecision};  // upper end: the certified epsilon; lower end: the
                                        // continuous Gaussian's lower end (not a lower bound here)
  Interval log_ratio{kDefaultPrecision};  // ln R = k d ln r(t), enclosed
  mpq_class delta_used;                   // the delta given to the continuous pld route (<= delta / R)
  accounting::pld::PldAnswer gaussian;    // the continuous composition's answer at delta_used
};

[[nodiscard]] GridPldAnswer vector_discrete_gaussian_pld_epsilon(const VectorDiscreteGaussianPrivacy& law,
                                                                 const mpq_class& q, unsigned long steps,
                                                                 const mpq_class& delta,
                                                                 const accounting::pld::PldOptions& options = {});

}  // namespace exactdp::laws
