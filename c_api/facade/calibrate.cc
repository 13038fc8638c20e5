// calibrate.cc — the operations `calibrate` and `calibrate dp-sgd` through the C++ facade
// (<exactdp/calibrate.h>): the public requests into operations::CalibrateRequest and
// operations::CalibrateDpSgdRequest (operations/calibrate.h, operations/calibrate_dp_sgd.h,
// shared with `exactdp calibrate` and exactdp.calibrate), their reports into the public ones.
#include <exactdp/calibrate.h>

#include <string>
#include <utility>
#include <variant>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/calibrate.h>
#include <exactdp/operations/calibrate_dp_sgd.h>

namespace exactdp {
namespace {

void add_certificate(const laws::CalibrationCertificate& certificate, CalibrateReport& out) {
  if (const auto* g = std::get_if<accounting::GaussianCalibration>(&certificate)) {
    out.sigma_lower = g->sigma_lower;
    out.delta_at_sigma_lower = g->delta_at_sigma_lower;
  } else if (const auto* z = std::get_if<accounting::DiscreteGaussianCalibration>(&certificate)) {
    out.significant_digits = z->significant_digits;
    out.optimum_lower = z->optimum_lower;
    out.optimum_upper = z->optimum_upper;
  }
}

}  // namespace

CalibrateReport calibrate(const CalibrateRequest& request) {
  const internal::MpfrCacheRelease release;
  operations::CalibrateRequest r;
  r.law = request.law;
  r.epsilon = parse_rational("epsilon", request.epsilon);
  r.delta = parse_rational("delta", request.delta);
  r.sensitivity = parse_rational("sensitivity", request.sensitivity);
  if (request.tolerance) r.tolerance = parse_rational("tolerance", *request.tolerance);
  r.spelling = internal::kFacadeSpelling;
  operations::CalibratePlan plan = operations::plan_calibration(r);
  const operations::CalibrateReport report = operations::calibrate(r, std::move(plan));
  const laws::NoiseCalibration& c = report.calibration;
  CalibrateReport out{report.law, c.parameter, c.value, c.delta_at, c.tolerance_met,
                      report.target.tolerance.value_or(0), {}, {}, {}, {}, {}};
  add_certificate(c.certificate, out);
  return out;
}

CalibrateDpSgdReport calibrate_dp_sgd(const CalibrateDpSgdRequest& request) {
  const internal::MpfrCacheRelease release;
  operations::CalibrateDpSgdRequest r;
  r.q = parse_rational("q", request.q);
  r.steps = operations::checked_dp_sgd_steps(std::to_string(request.steps));
  r.epsilon = parse_rational("epsilon", request.epsilon);
  r.delta = parse_rational("delta", request.delta);
  r.route = request.route;
  r.spelling = internal::kFacadeSpelling;
  const operations::CalibrateDpSgdReport report = operations::calibrate_dp_sgd(r);
  const accounting::DpSgdCalibration& c = report.answer.calibration;
  CalibrateDpSgdReport out;
  out.sigma_upper = c.sigma_upper;
  out.sigma_lower = c.sigma_lower;
  out.sigma_to_use = report.sigma_to_use;
  out.epsilon_at_sigma_upper = c.epsilon_at_upper;
  out.epsilon_at_sigma_lower = c.epsilon_at_lower;
  if (!report.answer.pld) out.rdp_order = c.order_at_upper;
  out.width_met = c.width_met;
  out.route = report.answer.route_text;
  out.neighbouring = report.neighbouring;
  if (const auto& pld = report.answer.pld) {
    out.resolution = pld->resolution;
    out.pld_grid = pld->grid;
    out.pld_evaluations = pld->evaluations;
    out.optimal_within_resolution = pld->optimal_within_resolution;
  }
  return out;
}

}  // namespace exactdp
