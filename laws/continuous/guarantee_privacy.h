// guarantee_privacy.h — the privacy maps of a bare guarantee: a mechanism known only by its
// privacy, with no noise pair (so it cannot be Poisson-subsampled; law_privacy.h is_noise_law()).
//   pure_dp_event(epsilon)  epsilon-DP: RDP min(a eps^2/2, eps) (a bound), the tightest profile
//                           every epsilon-DP mechanism meets (pure_dp_profile)
//   zcdp_event(rho)         rho-zCDP: RDP a rho (a bound), no profile
// (a mu-GDP guarantee: gdp_event, gaussian_privacy.h.) ParameterError naming epsilon (>= 0) or
// rho (zcdp.h validate_rho).
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>

namespace exactdp::laws {

[[nodiscard]] accounting::PrivacyEvent pure_dp_event(const mpq_class& epsilon);
[[nodiscard]] accounting::PrivacyEvent zcdp_event(const mpq_class& rho);

}  // namespace exactdp::laws
