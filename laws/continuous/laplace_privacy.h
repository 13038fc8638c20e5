// laplace_privacy.h — the privacy maps of continuous Laplace(scale) noise on a query of real
// sensitivity Delta (accounting only): (Delta/scale)-DP; RDP of Mironov 2017 Prop. 6 (exact); the
// profile of laplace_profile.h; the closed form the rdp, pld and gdp routes evaluate
// (law_privacy.h laplace_noise()). ParameterError naming scale or sensitivity unless > 0.
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>

namespace exactdp::laws {

[[nodiscard]] accounting::PrivacyEvent laplace_event(const mpq_class& scale, const mpq_class& sensitivity = 1);

}  // namespace exactdp::laws
