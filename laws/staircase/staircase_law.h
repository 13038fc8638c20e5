// staircase_law.h — the discrete staircase mechanism as a registry law (law.h): Geng and
// Viswanath, "The optimal noise-adding mechanism in differential privacy", integer-valued
// queries. Parameters: gamma > 0 (the privacy level: gamma-DP), sensitivity D >= 1 (integer; the
// law is built for it, so it is a noise parameter), r in 1..D (default: the r minimising
// E|noise|, staircase_shape.h), mean (sampling only). The law: staircase_shape.h; the sampler:
// staircase_sampler.h; the audit law: staircase_reference.h; the privacy maps:
// staircase_privacy.h. No hardened sampler.
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& staircase_law();

}  // namespace exactdp::laws
