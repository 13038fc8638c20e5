// law_queries.h — questions the operations ask the registry's laws (laws/registry.h) through
// their public interface, so that no operation keeps a list of law names:
//   calibration_is_closed_form  the calibration is pure epsilon-DP, scale = sensitivity / epsilon
//                               (the Laplace laws), not a certified bracket (the Gaussian ones);
//   events_are_pure_dp          an accounting-only law whose events are pure epsilon-DP
//                               (pure-dp), which measure-gdp measures by that profile;
//   definition_law              the accounting-only law that is a privacy definition of one
//                               parameter (rho: zcdp, mu: gdp, epsilon: pure-dp), for convert.
#pragma once

#include <string_view>

#include <exactdp/laws/law.h>

namespace exactdp::operations {

// True when the law calibrates (Capability::kCalibrate) and its calibration accepts delta = 0
// (pure epsilon-DP at sensitivity 1, epsilon 1): a closed form with no bracket to certify.
[[nodiscard]] bool calibration_is_closed_form(const laws::Law& law);

// True for a law without a certified profile of its own (no Capability::kProfile) whose event at
// the parameter value 1 is pure epsilon-DP.
[[nodiscard]] bool events_are_pure_dp(const laws::Law& law);

// The registry law without a sampler whose one parameter is named `parameter`, or nullptr.
[[nodiscard]] const laws::Law* definition_law(std::string_view parameter);

}  // namespace exactdp::operations
