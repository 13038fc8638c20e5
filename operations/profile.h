// profile.h — the operation `profile`: the certified privacy profile delta(epsilon) of a
// mechanism of operations/mechanisms.h, plain or with the noise of its hardened sampler
// (docs/DESIGN.md, "Operations"). The command line (cli/cmd_profile.cc) and Python
// (python/src/profile.cc) build a ProfileRequest, then evaluate the plan at each epsilon; every
// check, the tolerance's cost limit and the curve's point limit are here, before any work.
//
// Example:
//   ProfileRequest r{.mechanism = "gaussian", .parameters = {{"sigma", "2"}}};
//   const ProfilePlan plan = plan_profile(r);
//   const accounting::ZivOptions o = profile_options(r);
//   const accounting::Certified c = plan.mechanism.delta(checked_epsilon("1"), o);
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/accounting/ziv.h>
#include <exactdp/operations/mechanisms.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

// The most points of one curve while the mechanism's numbers are small (SECURITY.md, "Limits").
inline constexpr long kMaxProfilePoints = 10'000;

struct ProfileRequest {
  std::string mechanism{};
  GivenParameters parameters{};             // the mechanism's parameters, (name, exact text)
  bool hardened = false;                    // the noise of the law's isochronous sampler
  std::optional<std::string> tau_bits{};    // integer text, 40..128 (default 64); only with hardened
  std::optional<std::string> tolerance{};   // relative width wanted, exact text (none: 2^-100)
  Spelling spelling = kCommandLineSpelling;
};

struct ProfilePlan {
  MechanismSpec mechanism;  // delta charges the hardened sampler's tau when asked
};

// Checks, in this order: tau_bits only with hardened; the mechanism (a law with a certified
// profile; the command line's wording names the command, Python's the missing profile); no
// parameter of another mechanism; tau_bits' range (with hardened); each parameter
// (operations/mechanisms.h); hardened (a law with a hardened sampler, in its range).
[[nodiscard]] ProfilePlan plan_profile(const ProfileRequest& request);

// The tolerance, checked after the mechanism: 2^-10000 <= R < 1, and its cost limit 2^-2000
// (LimitError naming "tolerance").
[[nodiscard]] accounting::ZivOptions profile_options(const ProfileRequest& request);

// An epsilon from its exact text, epsilon >= 0 (ParameterError naming "epsilon").
[[nodiscard]] mpq_class checked_epsilon(const std::string& text);

// The epsilons of one request from their exact texts (checked_epsilon each, at least one:
// ParameterError naming "epsilons" for none); more than one is a curve, held to
// checked_curve_points.
[[nodiscard]] std::vector<mpq_class> checked_epsilons(const MechanismSpec& mechanism,
                                                      const std::vector<std::string>& texts);

// The most points of a curve of this mechanism: kMaxProfilePoints up to 2^16 bits of its numbers,
// fewer in proportion beyond, so that a curve stays within the 10 s limit.
[[nodiscard]] long max_curve_points(const MechanismSpec& mechanism);

// The number of points of a curve, 2 <= points <= max_curve_points (ParameterError naming
// "points" otherwise).
[[nodiscard]] long checked_curve_points(const MechanismSpec& mechanism, const std::string& text);

// The ends of a curve, each a checked_epsilon: EPS_MAX > EPS_MIN (ParameterError naming "curve").
void check_curve_range(const mpq_class& lo, const mpq_class& hi, const std::string& hi_text);

}  // namespace exactdp::operations
