// calibrate.h — the operation `calibrate`: the certified noise parameter of a registry law that
// makes it (epsilon, delta)-DP at a sensitivity (laws/noise_calibration.h; docs/DESIGN.md,
// "Operations"). The command line (cli/cmd_calibrate.cc) and Python (python/src/calibrate.cc)
// build a CalibrateRequest and print or convert the CalibrateReport; the checks, the tolerance
// and its cost limit, and every computed field are here.
//
//   a law with a real sensitivity (gaussian): the analytic Gaussian's sigma bracket, tolerance
//     2^-2000 <= R < 1 (default 2^-100; the cost limit of operations/tolerance.h);
//   a law with an integer sensitivity (discrete-gaussian): CKS20 Theorem 7's sigma2, tolerance
//     2^-200 <= R <= 1/100 (default 2^-32, checked by the law);
//   the closed forms (the Laplace laws): scale = sensitivity / epsilon.
//
// Example:
//   CalibrateRequest r{.law = "gaussian", .epsilon = 1, .delta = mpq_class(1, 100000)};
//   const CalibrateReport c = calibrate(r, plan_calibration(r));   // c.calibration.value: sigma
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <optional>
#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

struct CalibrateRequest {
  std::string law{};
  mpq_class epsilon{};
  mpq_class delta{};
  mpq_class sensitivity = 1;
  std::optional<mpq_class> tolerance{};  // none: the law's default
  int digits = 20;                       // significant digits the face prints (sets the precision)
  Spelling spelling = kCommandLineSpelling;
};

// The law and its checked target: plan_calibration() runs every parameter check before any work.
struct CalibratePlan {
  const laws::Law* law = nullptr;
  laws::CalibrationTarget target;
  laws::LawParameters privacy;  // the sensitivity, as the law reads it
};

struct CalibrateReport {
  std::string law{};
  laws::CalibrationTarget target;  // its tolerance: the one used
  laws::NoiseCalibration calibration;
  mpfr_prec_t precision = 64;  // of the printed brackets: enough for `digits` digits of their ends
  // The analytic Gaussian only, for 0 < epsilon < 1: the classical sigma (Dwork-Roth) and the
  // ratio of its variance to the calibrated one's.
  std::optional<Interval> classical_sigma{};
  std::optional<Interval> variance_ratio{};
};

// True for a law whose sensitivity is an integer (its calibration a discrete one).
[[nodiscard]] bool integer_sensitivity(const laws::Law& law);

// Checks the law (a registry law with Capability::kCalibrate; ParameterError naming
// "mechanism"), the sensitivity (as the law reads it) and the target (Law::check_calibration:
// epsilon, delta, sensitivity), before any work.
[[nodiscard]] CalibratePlan plan_calibration(const CalibrateRequest& request);

// Checks the tolerance (its range, and for a real sensitivity its cost limit 2^-2000, LimitError
// naming "tolerance"), then calibrates.
[[nodiscard]] CalibrateReport calibrate(const CalibrateRequest& request, CalibratePlan plan);

}  // namespace exactdp::operations
