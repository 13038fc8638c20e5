#include <exactdp/operations/calibrate_dp_sgd.h>

#include <exactdp/accounting/rdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>

namespace exactdp::operations {

unsigned long checked_dp_sgd_steps(const std::string& text) {
  return static_cast<unsigned long>(checked_count("steps", text, 1, kMaxDpSgdSteps));
}

CalibrateDpSgdReport calibrate_dp_sgd(const CalibrateDpSgdRequest& r) {
  const accounting::DpSgdRoute route = accounting::parse_dp_sgd_route(r.route);
  CalibrateDpSgdReport report;
  report.answer = accounting::calibrate_dp_sgd_request({r.q, r.steps, r.epsilon, r.delta, route});
  report.precision = accounting::dp_sgd_print_precision(report.answer.calibration, r.digits);
  report.sigma_to_use = accounting::dp_sgd_sigma_to_use(report.answer, r.digits);
  report.neighbouring = accounting::neighbouring_name(accounting::Neighbouring::kAddRemove);
  return report;
}

}  // namespace exactdp::operations
