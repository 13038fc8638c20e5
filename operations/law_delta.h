// law_delta.h — the operation `law delta`: a law's certified delta(epsilon) at one epsilon, from
// its noise and privacy parameters, optionally charged a hardened sampler's tau. The C interface
// (exactdp_law_delta, exactdp_sampler_delta and the per-law delta calls) and the C++ facade
// (exactdp::law_delta) build a LawDeltaRequest; the law, its parameters and epsilon are checked by
// the operation `profile` (operations/profile.h), so their refusals are the command line's
// (`exactdp profile`) and Python's (exactdp.profile) in the caller's spelling.
//
// Example:
//   LawDeltaRequest r{.law = "gaussian", .parameters = {{"sigma", "2"}}, .epsilon = "1"};
//   const LawDeltaReport d = law_delta(r);   // d.delta contains delta(1)
#pragma once

#include <optional>
#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/operations/mechanisms.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

struct LawDeltaRequest {
  std::string law{};
  GivenParameters parameters{};            // noise and privacy parameters, (name, exact text)
  std::string epsilon{};                   // exact text, epsilon >= 0
  std::optional<std::string> tau{};        // a hardened sampler's tau_upper, exact text, 0 <= tau <= 1
  std::optional<std::string> tolerance{};  // relative width wanted, exact text (none: 2^-100)
  Spelling spelling = kCommandLineSpelling;
};

struct LawDeltaReport {
  Interval delta{kDefaultPrecision};  // contains delta(epsilon) (+ (1 + e^epsilon) tau)
  bool tolerance_met = true;
};

// Checks, in this order: the law and its parameters (plan_profile), the tolerance
// (profile_options), epsilon (checked_epsilon), tau (ParameterError naming "tau" outside
// 0 <= tau <= 1); then evaluates the certified profile and adds the hardened charge.
[[nodiscard]] LawDeltaReport law_delta(const LawDeltaRequest& request);

}  // namespace exactdp::operations
