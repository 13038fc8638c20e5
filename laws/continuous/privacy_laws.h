// privacy_laws.h — the registry's laws that exactdp accounts for but does not sample (law.h):
//   gaussian   continuous N(0, sigma^2) noise, real sensitivity: exactly (sensitivity/sigma)-GDP
//   laplace    continuous Laplace(scale) noise, real sensitivity: (sensitivity/scale)-DP
//   gdp        a mu-GDP mechanism;  pure-dp  an epsilon-DP one;  zcdp  a rho-zCDP one
// Their maps: gaussian_privacy.h and laplace_privacy.h (the accounting layer's closed forms). exactdp samples
// no continuous law: floating-point noise is what it exists to replace.
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& gaussian_law();
[[nodiscard]] const Law& laplace_law();
[[nodiscard]] const Law& gdp_law();
[[nodiscard]] const Law& pure_dp_law();
[[nodiscard]] const Law& zcdp_law();

}  // namespace exactdp::laws
