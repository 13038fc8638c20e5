// laplace_privacy.h — the privacy maps of continuous Laplace(scale) noise on a query of real
// sensitivity Delta (accounting only), and of a bare epsilon-DP or rho-zCDP guarantee.
//   laplace_event(scale, Delta)  (Delta/scale)-DP; RDP of Mironov 2017 Prop. 6 (exact); the
//                                profile of laplace_profile.h; the closed form the rdp, pld and
//                                gdp routes evaluate (law_privacy.h laplace_noise())
//   pure_dp_event(epsilon)       epsilon-DP: RDP min(a eps^2/2, eps) (a bound), the tightest
//                                profile every epsilon-DP mechanism meets (pure_dp_profile)
//   zcdp_event(rho)              rho-zCDP: RDP a rho (a bound), no profile
// ParameterError naming scale / sensitivity (> 0), epsilon (>= 0) or rho (zcdp.h validate_rho).
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>

namespace exactdp::laws {

[[nodiscard]] accounting::PrivacyEvent laplace_event(const mpq_class& scale, const mpq_class& sensitivity = 1);
[[nodiscard]] accounting::PrivacyEvent pure_dp_event(const mpq_class& epsilon);
[[nodiscard]] accounting::PrivacyEvent zcdp_event(const mpq_class& rho);

}  // namespace exactdp::laws
