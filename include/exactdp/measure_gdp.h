// measure_gdp.h — the operation `measure-gdp` through the C++ facade: the certified mu-GDP
// bracket of a mechanism by the GDP transformation (docs/ACCOUNTING.md). The same operation as
// `exactdp measure-gdp` and exactdp.measure_gdp: the same checks, limits and numbers
// (docs/DESIGN.md, "Operations"). Installed; part of the source-compatibility promise
// (docs/ABI.md).
//
//   const exactdp::MeasureGdpReport r =
//       exactdp::measure_gdp({.mechanism = "gaussian", .parameters = {{"sigma", "1"}}});
//   // r.mu contains the mechanism's mu on [0, eps_max]; r.mu.upper() is proven
//
// Errors, before any work: ParameterError naming "law" (a mechanism measure-gdp does not offer),
// a parameter, eps_max, tolerance, mu_max or seed; LimitError over a resource limit (SECURITY.md,
// "Limits").
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/sampler.h>

namespace exactdp {

struct MeasureGdpRequest {
  std::string mechanism{};   // a law with a certified profile, pure-dp, or pure-dp-composition
  LawArguments parameters{};  // its parameters: {{"sigma", "1"}}, {{"epsilon", "1"}, {"k", "10"}}
  std::optional<std::string> eps_max{};    // exact text; none: the default
  std::optional<std::string> tolerance{};  // absolute width of the mu bracket, exact text
  std::optional<std::string> mu_max{};     // exact text
  std::optional<std::uint64_t> seed{};     // the shuffle order (speed only)
  bool naive = false;                      // the paper's Algorithm 3
};

struct MeasureGdpReport {
  std::string mechanism{};  // how it is named: "gaussian(sigma=1, sensitivity=1)"
  mpq_class eps_max{};      // as used
  mpq_class tolerance{};
  Interval mu{kDefaultPrecision};  // contains sup of T on [0, eps_max]; upper = +inf when unbounded
  bool bounded = true;
  bool complete = false;     // delta(eps) = 0 beyond eps_max: mu is the full mu-GDP
  std::string algorithm{};   // "shuffled (Algorithm 1)" or "naive (Algorithm 3)"
  std::size_t grid_points = 0;
  std::size_t binary_searches = 0;
  std::size_t profile_evaluations = 0;
  std::size_t gdp_evaluations = 0;
  // The tail: L of the GDP bridge when known analytically, and eps / sqrt(-2 log delta(eps)) at
  // eps_max and 2 eps_max (where delta < 1).
  std::optional<std::string> tail_limit{};
  std::string tail_limit_source{};
  std::vector<std::pair<mpq_class, Interval>> tail_ratios{};
};

[[nodiscard]] MeasureGdpReport measure_gdp(const MeasureGdpRequest& request);

}  // namespace exactdp
