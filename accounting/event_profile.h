// event_profile.h — the certified privacy profile delta(epsilon) of one privacy event, by the
// event's own maps (LawPrivacy::delta_at / delta, law_privacy.h; the CLI's profile and
// measure-gdp, and Python's exactdp.profile, call these). The built-in events answer with their
// closed forms (gaussian_profile.h, laplace_profile.h, discrete_gaussian_profile.h,
// discrete_laplace_profile.h, gdp_profile, pure_dp_profile: the tightest profile every
// epsilon-DP mechanism meets); a zCDP event has none (has_profile() is false): zCDP bounds a
// profile but is not one.
//
// Rounding: each result is an Interval containing the true delta(epsilon) (every function above
// rounds outward); the *_to_tolerance form raises the precision until the relative width meets
// the options' tolerance (ziv.h), or says it was not met.
// Errors: ParameterError naming "event" for an event without a profile; the profile functions' own
// ParameterErrors (epsilon >= 0) otherwise.
// Thread-safety: pure functions; the returned ProfileFunction shares the (immutable) maps.
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

// The maps' has_profile(): every event but a zCDP one.
[[nodiscard]] bool has_profile(const PrivacyEvent& event);

// delta(epsilon) at a working precision.
[[nodiscard]] ProfileFunction event_profile(const PrivacyEvent& event);

// delta(epsilon) to the options' relative tolerance.
[[nodiscard]] Certified event_delta(const PrivacyEvent& event, const mpq_class& epsilon, const ZivOptions& options);

}  // namespace exactdp::accounting
