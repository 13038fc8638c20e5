// calibrate.h — the operations `calibrate` and `calibrate dp-sgd` through the C++ facade: the
// certified noise parameter that makes a law (epsilon, delta)-DP, and DP-SGD's certified noise
// multiplier. The same operations as `exactdp calibrate` and exactdp.calibrate: the same checks,
// limits and numbers (docs/DESIGN.md, "Operations"). Installed; part of the
// source-compatibility promise (docs/ABI.md). (<exactdp/laws.h>'s law_calibrate is the short
// form of calibrate(): the parameter, its value and delta_at.)
//
//   const exactdp::CalibrateReport c =
//       exactdp::calibrate({.law = "gaussian", .epsilon = "1", .delta = "1e-5"});   // c.value: sigma
//
// Errors, before any work: ParameterError naming "mechanism" (a law without a calibration map),
// epsilon, delta, sensitivity, tolerance, q, steps or route with the allowed range; LimitError
// over a resource limit (a tolerance below 2^-2000, a DP-SGD search over its cost limits;
// SECURITY.md, "Limits").
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <string>

#include <exactdp/core/interval.h>

namespace exactdp {

struct CalibrateRequest {
  std::string law{};                       // a law with a calibration map (LawInfo::calibrates)
  std::string epsilon{};                   // exact text
  std::string delta{};                     // exact text
  std::string sensitivity = "1";           // exact text (an integer for the discrete laws)
  std::optional<std::string> tolerance{};  // exact text; none: the law's default
};

struct CalibrateReport {
  std::string law{};
  std::string parameter{};             // the noise parameter: "sigma", "sigma2", "scale"
  mpq_class value{};                   // exact; use it as is (a larger value is at least as private)
  Interval delta_at{kDefaultPrecision};  // certified delta(epsilon) at value: upper() <= delta
  bool tolerance_met = true;
  mpq_class tolerance{};               // the tolerance used
  // The analytic Gaussian's certificate: a sigma that misses the target, and its delta.
  std::optional<mpq_class> sigma_lower{};
  std::optional<Interval> delta_at_sigma_lower{};
  // The discrete Gaussian's: sigma2's significant digits and the bracket of the optimum.
  std::optional<int> significant_digits{};
  std::optional<mpq_class> optimum_lower{};
  std::optional<mpq_class> optimum_upper{};
};

[[nodiscard]] CalibrateReport calibrate(const CalibrateRequest& request);

// DP-SGD: Poisson sampling at rate q, `steps` steps, add/remove-one neighbours.
struct CalibrateDpSgdRequest {
  std::string q{};            // exact text, 0 < q <= 1
  unsigned long long steps = 0;  // 1 <= steps <= 10^9
  std::string epsilon{};      // exact text
  std::string delta{};        // exact text
  std::string route = "pld";  // "pld" (privacy loss distribution) or "rdp" (Renyi DP)
};

struct CalibrateDpSgdReport {
  mpq_class sigma_upper{};     // the sigma to use: epsilon_at_sigma_upper.upper() <= epsilon, proven
  mpq_class sigma_lower{};     // one that misses the target (pld: sigma_upper - resolution)
  std::string sigma_to_use{};  // sigma_upper as `exactdp calibrate dp-sgd` prints it
  Interval epsilon_at_sigma_upper{kDefaultPrecision};
  Interval epsilon_at_sigma_lower{kDefaultPrecision};
  std::optional<mpq_class> rdp_order{};  // rdp: the order that proves sigma_upper
  bool width_met = true;
  std::string route{};         // the route that answered, one line
  std::string neighbouring{};  // "add/remove-one"
  // pld only: sigma is a multiple of resolution; the grid and the evaluations it took.
  std::optional<mpq_class> resolution{};
  std::string pld_grid{};
  std::size_t pld_evaluations = 0;
  bool optimal_within_resolution = false;
};

[[nodiscard]] CalibrateDpSgdReport calibrate_dp_sgd(const CalibrateDpSgdRequest& request);

}  // namespace exactdp
