// event_profile.h — the certified privacy profile delta(epsilon) of one privacy event, by the
// event's own closed form: the one place where an event kind is mapped to its profile function
// (the CLI's profile and measure-gdp, and Python's exactdp.profile, call these).
//
//   kGaussian          gaussian_delta_at / gaussian_delta (gaussian_profile.h)
//   kLaplace           laplace_delta_at / laplace_delta (laplace_profile.h)
//   kDiscreteGaussian  discrete_gaussian_delta_at / _delta (discrete_gaussian_profile.h)
//   kDiscreteLaplace   discrete_laplace_delta_at / _delta (discrete_laplace_profile.h)
//   kGdp               gdp_profile (gdp_transformation.h) / gdp_delta
//   kPureDp            pure_dp_profile: the tightest profile every epsilon-DP mechanism meets
//   kLaw               the registry law's own maps (LawPrivacy::delta_at)
//   kZcdp              none: zCDP bounds a profile but is not one (has_profile() is false)
//
// Rounding: each result is an Interval containing the true delta(epsilon) (every function above
// rounds outward); the *_to_tolerance form raises the precision until the relative width meets
// the options' tolerance (ziv.h), or says it was not met.
// Errors: ParameterError naming "event" for a kZcdp event; the profile functions' own
// ParameterErrors (epsilon >= 0) otherwise.
// Thread-safety: pure functions; the returned ProfileFunction holds copies of the parameters.
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

// True for every kind but kZcdp.
[[nodiscard]] bool has_profile(const PrivacyEvent& event);

// delta(epsilon) at a working precision.
[[nodiscard]] ProfileFunction event_profile(const PrivacyEvent& event);

// delta(epsilon) to the options' relative tolerance.
[[nodiscard]] Certified event_delta(const PrivacyEvent& event, const mpq_class& epsilon, const ZivOptions& options);

}  // namespace exactdp::accounting
