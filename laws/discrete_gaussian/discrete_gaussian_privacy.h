// discrete_gaussian_privacy.h — the privacy maps of the discrete Gaussian N_Z(0, sigma2) on a
// query of integer sensitivity Delta (CKS20): rho = Delta^2/(2 sigma2)-zCDP (Theorem 4), RDP
// a rho (exact at integer orders: the shifted theta sum equals the normaliser; a bound at
// fractional ones), the exact profile of Theorem 7 (accounting/discrete_gaussian_profile.h); the
// closed form the rdp, pld and exact routes evaluate (law_privacy.h discrete_gaussian_noise()).
// ParameterError naming sigma2 (> 0) or sensitivity (an integer >= 1).
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>

namespace exactdp::laws {

[[nodiscard]] accounting::PrivacyEvent discrete_gaussian_event(const mpq_class& sigma2, const mpz_class& sensitivity = 1);

}  // namespace exactdp::laws
