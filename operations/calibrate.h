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
//
// A training run (calibrate_run): a registry noise law (Capability::kSubsample) without a
// calibration map of its own whose first noise parameter is a scale or a variance (mu, sigma2,
// sigma, scale: more noise when larger), e.g. skellam and distributed-discrete-gaussian;
// `rounds` rounds each Poisson-subsampled at rate q (q = 1: every round sees everyone),
// add/remove-one. The result: that parameter at 3 significant digits, rounded up, whose certified
// epsilon at delta (the rdp route: the law's RDP, or its Poisson-subsampled bound, composed over
// the rounds) is at most the target. The search doubles, then bisects to 2^-12 relative, then
// rounds up and certifies the value it returns; the value one step below it (value_below, at
// 2^-12 relative) is shown to miss the target, so the answer is near the smallest on this route
// (the route's epsilon is observed, not proven, to decrease in the parameter). For a law without
// a `clients` parameter (skellam: Sk(n mu) is n clients' Sk(mu)), clients divides the value into
// the per-client share. Cost: about 30 rdp evaluations (each 10-50 ms; q and the parameters
// within the composition limits of accounting/composition_limits.h); values searched in
// [10^-6, 10^15] (LimitError naming epsilon when none meets the target).
//   CalibrateRunRequest r{.law = "skellam", .epsilon = 1, .delta = mpq_class(1, 100000), .rounds = 1000,
//                         .q = mpq_class(1, 100), .parameters = {{"sensitivity", "10"}}};
//   const CalibrateRunReport c = calibrate_run(r);   // c.parameter "mu", c.value
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <optional>
#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/mechanisms.h>
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
// "mechanism"), the sensitivity (as the law reads it; a fraction for an integer one is "not an
// integer", as core's parse_integer words it) and the target (Law::check_calibration:
// epsilon, delta, sensitivity), before any work.
[[nodiscard]] CalibratePlan plan_calibration(const CalibrateRequest& request);

// Checks the tolerance (its range, and for a real sensitivity its cost limit 2^-2000, LimitError
// naming "tolerance"), then calibrates.
[[nodiscard]] CalibrateReport calibrate(const CalibrateRequest& request, CalibratePlan plan);

struct CalibrateRunRequest {
  std::string law{};
  mpq_class epsilon{};
  mpq_class delta{};
  mpz_class rounds = 1;                 // 1 <= rounds <= 10^9
  mpq_class q = 1;                      // 0 < q <= 1
  std::optional<mpz_class> clients{};   // for a law without a clients parameter: the per-client share
  GivenParameters parameters{};         // the law's other parameters, (name, exact text)
  Spelling spelling = kCommandLineSpelling;
};

struct CalibrateRunReport {
  std::string law{};
  std::string parameter{};              // the calibrated parameter: "mu", "sigma2"
  mpq_class value{};                    // exact, 3 significant digits, rounded up: use it
  std::optional<mpq_class> per_client{};  // value / clients (a law without a clients parameter)
  Interval epsilon_at{kDefaultPrecision};  // certified epsilon at value (upper end <= target)
  mpq_class order = 0;                  // the RDP order that proves it
  mpq_class value_below{};              // a smaller value that misses the target (0: none searched)
  std::optional<Interval> epsilon_below{};  // its epsilon (lower end > target), when it is defined
  std::string event{};                  // how the composed event is named
};

// Checks (ParameterError naming the parameter: law, epsilon, delta, rounds, q, clients, the
// law's own parameters) before any search, then searches and certifies.
[[nodiscard]] CalibrateRunReport calibrate_run(const CalibrateRunRequest& request);

// The parameter calibrate_run calibrates for a law (its first noise parameter), or "" when it
// does not serve the law (no event, or a calibration map of its own).
[[nodiscard]] std::string run_calibration_parameter(const laws::Law& law);

}  // namespace exactdp::operations
