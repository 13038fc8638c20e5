// discrete_gaussian_law.h — the discrete Gaussian as a registry law (law.h):
//   P[X = x] proportional to exp(-(x - mean)^2 / (2 sigma2)), sigma2 > 0 rational, mean integer.
// Samplers: samplers/discrete_gaussian.h (exact) and samplers/hardened_discrete_gaussian.h
// (isochronous, sigma2 in its documented range). Audit: verification::DiscreteGaussianLaw.
// Privacy: rho = sensitivity^2 / (2 sigma2)-zCDP and the exact profile of CKS20 Theorem 7
// (accounting/discrete_gaussian_profile.h), integer sensitivity >= 1.
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& discrete_gaussian_law();

}  // namespace exactdp::laws
