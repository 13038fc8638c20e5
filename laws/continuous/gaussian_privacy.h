// gaussian_privacy.h — the privacy maps of continuous Gaussian noise N(0, sigma^2) on a query of
// real sensitivity Delta (accounting only: no exact sampler draws it), and of a mu-GDP guarantee.
//   gaussian_event(sigma, Delta)  exactly mu-GDP with mu = Delta/sigma (DRS19): rho = mu^2/2,
//                                 RDP a mu^2/2 (exact), the profile of gaussian_profile.h; the
//                                 closed form the rdp, pld and exact routes evaluate
//                                 (law_privacy.h gaussian_noise(): subsampling, the pld pair)
//   gdp_event(mu)                 a bare mu-GDP guarantee: the same maps without a noise pair
//                                 (it cannot be Poisson-subsampled)
// ParameterError naming sigma / sensitivity / mu unless each is > 0.
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>

namespace exactdp::laws {

[[nodiscard]] accounting::PrivacyEvent gaussian_event(const mpq_class& sigma, const mpq_class& sensitivity = 1);
[[nodiscard]] accounting::PrivacyEvent gdp_event(const mpq_class& mu);

}  // namespace exactdp::laws
