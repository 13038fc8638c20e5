#include <exactdp/operations/calibrate.h>

#include <utility>
#include <variant>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/noise_calibration.h>
#include <exactdp/operations/tolerance.h>

namespace exactdp::operations {
namespace {

// The analytic Gaussian's report: the precision of its printed ends (enough bits that printing
// the exact dyadic ends loses nothing at `digits` digits) and the classical comparison.
void add_gaussian_fields(const CalibrateRequest& r, CalibrateReport& report) {
  const auto* c = std::get_if<accounting::GaussianCalibration>(&report.calibration.certificate);
  if (c == nullptr) return;
  report.precision = 64 + 4 * static_cast<mpfr_prec_t>(r.digits) +
                     static_cast<mpfr_prec_t>(mpz_sizeinbase(c->sigma.get_den_mpz_t(), 2));
  if (sgn(r.epsilon) > 0 && r.epsilon < 1) {
    report.classical_sigma = accounting::classical_gaussian_sigma(r.epsilon, r.delta, r.sensitivity, report.precision);
    report.variance_ratio =
        accounting::gaussian_variance_ratio(*c, r.epsilon, r.delta, r.sensitivity, report.precision);
  }
}

}  // namespace

bool integer_sensitivity(const laws::Law& law) {
  for (const auto& p : law.parameters()) {
    if (p.name == "sensitivity") return p.kind == laws::ValueKind::kInteger;
  }
  return false;
}

CalibratePlan plan_calibration(const CalibrateRequest& request) {
  const laws::Law* law = laws::find_law(request.law);
  if (law == nullptr || !law->supports(laws::Capability::kCalibrate)) {
    throw ParameterError("mechanism", "mechanism = " + abbreviate(request.law) + ": allowed " +
                                          laws::law_names_with(laws::Capability::kCalibrate) + ", dp-sgd");
  }
  CalibratePlan plan{law, {request.epsilon, request.delta, std::nullopt}, {}};
  plan.privacy = law->parse_values({{"sensitivity", request.sensitivity}}, laws::Use::kCalibrate);
  law->check_calibration(plan.target, plan.privacy);
  return plan;
}

CalibrateReport calibrate(const CalibrateRequest& request, CalibratePlan plan) {
  if (integer_sensitivity(*plan.law)) {
    plan.target.tolerance = request.tolerance.value_or(accounting::default_bracket_tolerance());
  } else {
    plan.target.tolerance = checked_ziv_options(request.tolerance, TinyTolerance::kOutOfRange).tolerance;
  }
  CalibrateReport report{plan.law->name(), plan.target, plan.law->calibrate(plan.target, plan.privacy), 64, {}, {}};
  if (std::holds_alternative<accounting::DiscreteGaussianCalibration>(report.calibration.certificate)) {
    report.precision = 64 + 4 * static_cast<mpfr_prec_t>(request.digits) + 256;
  }
  add_gaussian_fields(request, report);
  return report;
}

}  // namespace exactdp::operations
