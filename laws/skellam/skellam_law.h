// skellam_law.h — the Skellam law Sk(mu) = Poisson(mu) - Poisson(mu) as a registry law (law.h):
// the noise of the Skellam mechanism for federated learning with secure aggregation (Agarwal,
// Kairouz, Liu, NeurIPS 2021; docs/FEDERATED.md). Parameters: mu > 0 (exact rational, at most
// 10^15; the variance is 2 mu), mean (integer, sampling only), and for privacy only: sensitivity
// (the L2 sensitivity, rational >= 1), l1 (optional L1 sensitivity) and dim (Sk(mu) on each of dim
// coordinates). The sampler: samplers/skellam.h (plain only: a hardened sampler is refused naming
// "law"); the audit law: skellam_reference.h (mu <= 10^6); the privacy maps: skellam_privacy.h.
// Closed under sums: n clients adding Sk(mu) each are the event skellam:mu=<n mu>.
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& skellam_law();

}  // namespace exactdp::laws
