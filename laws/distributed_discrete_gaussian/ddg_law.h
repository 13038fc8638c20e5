// ddg_law.h — the distributed discrete Gaussian as a registry law (law.h): the noise of the
// distributed discrete Gaussian mechanism for federated learning with secure aggregation
// (Kairouz, Liu and Steinke, ICML 2021; docs/FEDERATED.md). Each of `clients` n clients adds
// N_Z(0, sigma2) to its integer-encoded update; the server sees the sum.
// Surviving clients: with a dropout fraction f (0 <= f < 1) at least m = ceil(n (1 - f)) clients
// deliver their share. The law is the sum of m shares, the fewest allowed: the sampler draws
// exactly m discrete Gaussians (samplers/discrete_gaussian.h) and adds them (plus mean), and the
// privacy maps (ddg_privacy.h) are those of m shares. More survivors add independent noise to
// that sum, a post-processing, so the privacy stated holds for every survivor count >= m.
// Parameters: sigma2 (per client, rational > 0), clients (1..10^6), dropout (default 0), mean
// (sampling only), and for the privacy maps: sensitivity (the query's L2 sensitivity D2), l1
// (optional L1 sensitivity), dim (the vector dimension, default 1).
// Cost: a sample is m draws: sampling is refused beyond m * max(1, digits of sigma2 / 100) = 10^4
// (naming "clients"); draws_per_sample() is m, and audit --samples and sample's count are
// charged count * m draws (operations/draw_cost.h: 1.14*10^8 draws at small sigma2).
// With two or more survivors the privacy maps need sigma2 >= 1/4 (KLS21's range). Plain sampler
// only (a hardened sampler is refused naming "law"); the audit law: ddg_reference.h (the exact pmf
// of the sum, within the convolution's range m <= 10^4, m sigma2 <= 250).
#pragma once

#include <exactdp/laws/law.h>

namespace exactdp::laws {

[[nodiscard]] const Law& distributed_discrete_gaussian_law();

}  // namespace exactdp::laws
