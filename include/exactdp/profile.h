// profile.h — the operation `profile` through the C++ facade: a law's certified privacy profile
// delta(epsilon), the smallest delta for which it is (epsilon, delta)-DP, at one or more
// epsilons, plain or with the noise of its hardened sampler. The same operation as
// `exactdp profile` and exactdp.profile: the same checks, limits and numbers (docs/DESIGN.md,
// "Operations"). Installed; part of the source-compatibility promise (docs/ABI.md).
//
//   const exactdp::ProfileReport r =
//       exactdp::profile({.law = "gaussian", .parameters = {{"sigma", "2"}}, .epsilons = {"1"}});
//   mpfr_srcptr safe = r.rows[0].delta.upper();
//
// Errors, before any work: ParameterError naming "law" (a law without a certified profile), a
// parameter (unknown, missing or out of range), "epsilon", "points" (more epsilons than a curve
// may have: 10,000, fewer for very large parameters), "tau_bits", "hardened" or "tolerance";
// LimitError over a resource limit (a tolerance below 2^-2000; SECURITY.md, "Limits").
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/sampler.h>

namespace exactdp {

struct ProfileRequest {
  std::string law{};                      // a law with a certified profile (LawInfo::profile)
  LawArguments parameters{};              // its noise and privacy parameters: {{"sigma", "2"}}
  std::vector<std::string> epsilons{};    // exact text, each >= 0; at least one
  bool hardened = false;                  // the noise of the law's hardened (isochronous) sampler
  std::optional<std::string> tau_bits{};  // integer text, 40..128 (default 64); only with hardened
  std::optional<std::string> tolerance{};  // relative width wanted, exact text (default 2^-100)
};

struct ProfileRow {
  mpq_class epsilon{};
  Interval delta{kDefaultPrecision};  // contains delta(epsilon); delta.upper() is the safe value
  bool tolerance_met = true;          // false past the precision cap: wider, still certified
};

struct ProfileReport {
  std::string law{};
  LawArguments parameters{};           // as used, defaults included, exact text
  std::optional<mpq_class> tau_upper{};  // hardened: the charged tau, (1 + e^eps) tau in each delta
  std::vector<ProfileRow> rows{};      // one per epsilon, in the request's order
};

[[nodiscard]] ProfileReport profile(const ProfileRequest& request);

}  // namespace exactdp
