// vector_grid_law.h — accounting-only registry laws (law.h) for real vectors noised on a grid:
// each of `dim` coordinates x_i is rounded to n_i, the nearest multiple of the granularity g
// (in units of g; ties either way), integer noise Z_i is added and (n_i + Z_i) g is released.
//   vector-discrete-gaussian  sigma, sensitivity (L2 of the real query before rounding), dim,
//                             granularity: Z_i ~ N_Z(0, (sigma/g)^2)
//   vector-discrete-laplace   scale, sensitivity (L1), dim, granularity: P[Z_i = z] ~ e^(-|z| g/scale)
// Both have profile and event capabilities and may be Poisson-subsampled
// (poisson-vector-discrete-gaussian: the rdp route, Theorem 4 of docs/REAL_VALUED_ACCOUNTING.md;
// poisson-vector-discrete-laplace: the pld route through randomised response's atoms).
// Parameters (ParameterError naming the parameter otherwise): 0 < sigma, scale <= 10^9;
// 0 < sensitivity <= 10^9 (default 1); dim an integer, 1 <= dim <= 10^12; granularity = 2^k for
// an integer k, -1074 <= k <= 1023; (sigma/g)^2 >= 10^-6 D2 (Gaussian) and L1 g / scale <= 10^6
// (Laplace), both naming the noise parameter. No sampler here: the noise is drawn by the vector
// mechanism. The maps: vector_grid_privacy.h.
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& vector_discrete_gaussian_law();
[[nodiscard]] const Law& vector_discrete_laplace_law();

}  // namespace exactdp::laws
