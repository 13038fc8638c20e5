// discrete_laplace_law.h — the discrete Laplace as a registry law (law.h):
//   P[X = x] proportional to exp(-|x - mean| / scale), scale > 0 rational, mean integer.
// Samplers: samplers/discrete_laplace.h (exact) and samplers/hardened_discrete_laplace.h
// (isochronous, scale in its documented range). Audit: verification::DiscreteLaplaceLaw.
// Privacy: (sensitivity / scale)-DP, its exact profile (accounting/discrete_laplace_profile.h),
// integer sensitivity >= 1.
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& discrete_laplace_law();

}  // namespace exactdp::laws
