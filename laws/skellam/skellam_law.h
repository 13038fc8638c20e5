// skellam_law.h — the Skellam law Sk(mu) = Poisson(mu) - Poisson(mu) as a registry law (law.h):
// the noise of the Skellam mechanism for federated learning with secure aggregation (Agarwal,
// Kairouz, Liu, NeurIPS 2021; docs/FEDERATED.md). Parameters: mu > 0 (exact rational, at most
// 10^15; the variance is 2 mu), mean (integer, sampling only), sensitivity (integer >= 1, privacy
// only). The sampler: samplers/skellam.h (plain only: a hardened sampler is refused naming
// "law"); the audit law: skellam_reference.h (mu <= 10^6); the privacy maps: skellam_privacy.h.
// Closed under sums: n clients adding Sk(mu) each are the event skellam:mu=<n mu>.
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& skellam_law();

}  // namespace exactdp::laws
