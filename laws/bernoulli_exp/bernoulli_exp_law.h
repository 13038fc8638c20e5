// bernoulli_exp_law.h — Bernoulli(exp(-gamma)) as a registry law (law.h): X in {0, 1} with
// P[X = 1] = exp(-gamma), gamma >= 0 rational. Sampler: samplers/bernoulli_exp.h (exact, CKS20
// Algorithm 1); no hardened sampler. Audit: verification::BernoulliExpLaw. No privacy maps (it is
// a building block, not a mechanism).
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& bernoulli_exp_law();

}  // namespace exactdp::laws
