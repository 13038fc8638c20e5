// noise_calibration.h — the calibration map of a noise law (Law::calibrate): from a target
// (epsilon, delta) and the query's sensitivity to a certified noise parameter, on the private
// side (the law at that parameter is (epsilon, delta)-DP for that sensitivity, proven, not
// estimated). A law has one when it supports Capability::kCalibrate: the Gaussian (Balle and
// Wang's analytic Gaussian, accounting/analytic_gaussian.h), the discrete Gaussian (CKS20
// Theorem 7, accounting/discrete_gaussian_calibration.h) and the Laplace and discrete Laplace
// (scale = sensitivity / epsilon: pure epsilon-DP, delta 0).
//
// Every interface that calibrates noise (exactdp calibrate, exactdp release, the C interface's
// exactdp_law_calibrate and exactdp_calibrate_discrete_gaussian, Python) calls these through the
// registry; none keeps its own list of calibrated laws.
//
// Errors: ParameterError naming epsilon, delta, sensitivity or tolerance (checked before any
// computation, in that order). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <variant>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/core/interval.h>

namespace exactdp::laws {

// What a calibration aims at: (epsilon, delta)-DP.
struct CalibrationTarget {
  mpq_class epsilon;  // >= 0 (> 0 for the Laplace laws)
  mpq_class delta;    // 0 < delta < 1 (0 <= delta < 1 for the Laplace laws, which need none)
  // The procedure's relative bracket width (the analytic Gaussian: 2^-10000 <= R < 1, default
  // 2^-100; the discrete Gaussian: 2^-200 <= R <= 1/100, default 2^-32). Unused by closed forms.
  std::optional<mpq_class> tolerance;
};

// The procedures' full certificates, for reports that print more than the value.
using CalibrationCertificate =
    std::variant<std::monostate, accounting::GaussianCalibration, accounting::DiscreteGaussianCalibration>;

// A certified calibration: the law with {parameter = value} (and the target's sensitivity) is
// (epsilon, delta_at.upper())-DP and delta_at.upper() <= the target delta.
struct NoiseCalibration {
  std::string parameter;  // the noise parameter's name in the law's schema: "sigma", "sigma2", "scale"
  mpq_class value;        // exact; use it as is (a larger value is at least as private)
  exactdp::Interval delta_at{exactdp::kDefaultPrecision};  // certified delta(epsilon) at value
  bool tolerance_met = true;          // the procedure reached its bracket tolerance
  CalibrationCertificate certificate;  // monostate for the closed forms
};

// The calibration maps of the registry's laws (the laws call them; see law.h).
namespace calibration {
void check_gaussian(const CalibrationTarget& t, const mpq_class& sensitivity);
[[nodiscard]] NoiseCalibration gaussian(const CalibrationTarget& t, const mpq_class& sensitivity);
void check_discrete_gaussian(const CalibrationTarget& t, const mpq_class& sensitivity);
[[nodiscard]] NoiseCalibration discrete_gaussian(const CalibrationTarget& t, const mpq_class& sensitivity);
// scale = sensitivity / epsilon, for the Laplace and the discrete Laplace: pure epsilon-DP.
void check_laplace(const CalibrationTarget& t, const mpq_class& sensitivity);
[[nodiscard]] NoiseCalibration laplace_scale(const CalibrationTarget& t, const mpq_class& sensitivity);
}  // namespace calibration

}  // namespace exactdp::laws
