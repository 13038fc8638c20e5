// discrete_laplace_privacy.h — the privacy maps of the discrete Laplace P[x] ~ e^(-|x|/scale)
// (CKS20) on a query of integer sensitivity Delta: (Delta/scale)-DP, RDP min(a eps^2/2, eps)
// (a bound), the exact profile of accounting/discrete_laplace_profile.h; the closed form the rdp,
// pld and exact routes evaluate (law_privacy.h discrete_laplace_noise()).
// ParameterError naming scale (> 0) or sensitivity (an integer >= 1).
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>

namespace exactdp::laws {

[[nodiscard]] accounting::PrivacyEvent discrete_laplace_event(const mpq_class& scale, const mpz_class& sensitivity = 1);

}  // namespace exactdp::laws
