#include <exactdp/laws/noise_calibration.h>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws::calibration {
namespace {

// The discrete laws' sensitivity is an integer (a law's schema says so; this guards direct calls).
mpz_class integer_sensitivity(const mpq_class& sensitivity) {
  if (sensitivity.get_den() != 1) {
    throw ParameterError::out_of_range("sensitivity", abbreviate(to_string(sensitivity)), "an integer >= 1");
  }
  return sensitivity.get_num();
}

}  // namespace

void check_gaussian(const CalibrationTarget& t, const mpq_class& sensitivity) {
  accounting::validate_gaussian_calibration(t.epsilon, t.delta, sensitivity);
}

NoiseCalibration gaussian(const CalibrationTarget& t, const mpq_class& sensitivity) {
  check_gaussian(t, sensitivity);
  accounting::ZivOptions options;
  if (t.tolerance) options.tolerance = *t.tolerance;
  options.validate();
  accounting::GaussianCalibration c = accounting::calibrate_gaussian(t.epsilon, t.delta, sensitivity, options);
  NoiseCalibration out{"sigma", c.sigma, c.delta_at_sigma, c.tolerance_met, {}};
  out.certificate = std::move(c);
  return out;
}

void check_discrete_gaussian(const CalibrationTarget& t, const mpq_class& sensitivity) {
  accounting::validate_discrete_gaussian_calibration(t.epsilon, t.delta, integer_sensitivity(sensitivity));
}

NoiseCalibration discrete_gaussian(const CalibrationTarget& t, const mpq_class& sensitivity) {
  check_discrete_gaussian(t, sensitivity);
  accounting::DiscreteGaussianCalibration c = accounting::calibrate_discrete_gaussian(
      t.epsilon, t.delta, integer_sensitivity(sensitivity),
      t.tolerance.value_or(accounting::default_bracket_tolerance()));
  NoiseCalibration out{"sigma2", c.sigma2, c.delta_at_sigma2, c.bracket_tolerance_met, {}};
  out.certificate = std::move(c);
  return out;
}

void check_laplace(const CalibrationTarget& t, const mpq_class& sensitivity) {
  accounting::require_positive("epsilon", t.epsilon);
  if (sgn(t.delta) < 0 || t.delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(t.delta)), "0 <= delta < 1");
  }
  accounting::require_positive("sensitivity", sensitivity);
}

NoiseCalibration laplace_scale(const CalibrationTarget& t, const mpq_class& sensitivity) {
  check_laplace(t, sensitivity);
  // Privacy loss |x - y| / scale <= sensitivity / scale = epsilon for neighbouring outputs.
  return {"scale", sensitivity / t.epsilon, exactdp::Interval(0L, exactdp::kDefaultPrecision), true, {}};
}

}  // namespace exactdp::laws::calibration
