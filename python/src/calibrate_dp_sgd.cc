// calibrate_dp_sgd.cc — the certified DP-SGD noise multiplier for exactdp.calibrate("dp-sgd"),
// through operations::calibrate_dp_sgd (operations/calibrate_dp_sgd.h), the operation
// `exactdp calibrate dp-sgd` calls: its steps limit, route and fields.
//
// _calibrate_dp_sgd(q, steps, epsilon, delta, route, digits): exact texts (steps an integer),
// route "pld" or "rdp". Returns {"sigma_lower", "sigma_upper": exact "p/q", "sigma_to_use" (see
// dp_sgd_sigma_to_use), "epsilon_at_sigma_upper", "epsilon_at_sigma_lower": interval dicts,
// "rdp_order": exact decimal text (rdp) or None, "width_met", "route" (as printed),
// "neighbouring", "pld": None (rdp) or {"resolution", "rdp_sigma" (8 digits, rounded up), "pld_grid",
// "pld_evaluations", "optimal_within_resolution"}}. ParameterError /
// LimitError naming the parameter. GIL released while searching.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <optional>
#include <string>

#include "bindings.h"
#include <exactdp/accounting/dp_sgd_calibration.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/calibrate_dp_sgd.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

py::object pld_dict(const std::optional<accounting::DpSgdPldSearch>& pld) {
  if (!pld) return py::none();
  py::dict d;
  d["resolution"] = exactdp::exact_decimal(pld->resolution);
  d["rdp_sigma"] = accounting::dp_sgd_rdp_sigma_text(*pld);
  d["pld_grid"] = pld->grid;
  d["pld_evaluations"] = pld->evaluations;
  d["optimal_within_resolution"] = pld->optimal_within_resolution;
  return d;
}

py::dict calibrate_dp_sgd(const std::string& q, const std::string& steps, const std::string& epsilon,
                          const std::string& delta, const std::string& route, int digits) {
  if (digits < 1 || digits > 1000) {
    throw ParameterError::out_of_range("digits", std::to_string(digits), "1 <= digits <= 1000");
  }
  operations::CalibrateDpSgdRequest request;
  request.spelling = operations::kPythonSpelling;
  request.q = parse_rational("q", q);
  request.steps = operations::checked_dp_sgd_steps(steps);
  request.epsilon = parse_rational("epsilon", epsilon);
  request.delta = parse_rational("delta", delta);
  request.route = route;
  request.digits = digits;
  const operations::CalibrateDpSgdReport report = [&] {
    const py::gil_scoped_release release;
    return operations::calibrate_dp_sgd(request);
  }();
  const accounting::DpSgdAnswer& a = report.answer;
  const accounting::DpSgdCalibration& c = a.calibration;
  py::dict d;
  d["sigma_lower"] = to_string(c.sigma_lower);
  d["sigma_upper"] = to_string(c.sigma_upper);
  d["sigma_to_use"] = report.sigma_to_use;
  d["epsilon_at_sigma_upper"] = interval_to_dict(c.epsilon_at_upper);
  d["epsilon_at_sigma_lower"] = interval_to_dict(c.epsilon_at_lower);
  d["rdp_order"] = a.pld ? py::object(py::none()) : py::object(py::str(exactdp::exact_decimal(c.order_at_upper)));
  d["width_met"] = c.width_met;
  d["route"] = a.route_text;
  d["pld"] = pld_dict(a.pld);
  d["neighbouring"] = report.neighbouring;
  return d;
}

}  // namespace

void register_calibrate_dp_sgd(py::module_& m) {
  m.def("_calibrate_dp_sgd", &calibrate_dp_sgd, py::arg("q"), py::arg("steps"), py::arg("epsilon"), py::arg("delta"),
        py::arg("route"), py::arg("digits"));
}

}  // namespace exactdp::python
