// events.h — the built-in privacy events, one factory per law (each law's maps live in its
// folder: continuous/gaussian_privacy.h, continuous/laplace_privacy.h,
// continuous/guarantee_privacy.h, discrete_gaussian/discrete_gaussian_privacy.h,
// discrete_laplace/discrete_laplace_privacy.h):
//   gaussian_event(sigma, Delta)            continuous Gaussian noise: exactly mu-GDP, mu = Delta/sigma
//   discrete_gaussian_event(sigma2, Delta)  rho = Delta^2/(2 sigma2)-zCDP (CKS20 Theorem 4)
//   laplace_event(scale, Delta)             (Delta/scale)-DP
//   discrete_laplace_event(scale, Delta)    (Delta/scale)-DP (P[x] ~ e^(-|x|/scale), CKS20)
//   pure_dp_event(epsilon)                  epsilon-DP
//   zcdp_event(rho)                         rho-zCDP
//   gdp_event(mu)                           mu-GDP
// Each validates its parameters (ParameterError naming the parameter) and returns an
// accounting::PrivacyEvent holding the law's maps (accounting/law_privacy.h). A registry law's
// event: Law::privacy_event (law.h).
#pragma once

#include <exactdp/laws/continuous/gaussian_privacy.h>
#include <exactdp/laws/continuous/guarantee_privacy.h>
#include <exactdp/laws/continuous/laplace_privacy.h>
#include <exactdp/laws/discrete_gaussian/discrete_gaussian_privacy.h>
#include <exactdp/laws/discrete_laplace/discrete_laplace_privacy.h>
