// calibrate.cc — certified noise calibration for exactdp.calibrate: Python values into an
// operations::CalibrateRequest (operations/calibrate.h, shared with `exactdp calibrate`: the
// checks, the tolerance's cost limit and the calibration), the report into a dict:
//   _calibrate_law(law, epsilon, delta, sensitivity, tolerance)
//       -> {"parameter": the law's noise parameter ("sigma", "sigma2", "scale"), "value": exact
//           text (the value to use), "delta_at": interval dict, "tolerance_met", and the
//           certificate's own fields: the analytic Gaussian's "sigma_lower" and
//           "delta_at_sigma_lower"; the discrete Gaussian's "significant_digits",
//           "optimum_lower", "optimum_upper"}
// Any registry law with Capability::kCalibrate is served; any other name is refused naming
// "mechanism". Parameters arrive as exact text and are parsed naming the parameter; the
// operation checks the ranges (ParameterError naming epsilon, delta, sensitivity or tolerance;
// LimitError for a tolerance below 2^-2000). GIL released while the calibration runs.
//   _calibrate_run(law, epsilon, delta, rounds, q, clients, parameters)
//       -> a training run's calibration (operations::calibrate_run: skellam's mu,
//          distributed-discrete-gaussian's sigma2): {"parameter", "value" (exact text),
//          "per_client" (or None), "epsilon_at" interval dict, "order", "value_below",
//          "epsilon_below" (interval dict or None), "event"}; clients "" for none, parameters
//          the law's other parameters as exact text.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <string>
#include <utility>
#include <vector>
#include <variant>

#include "bindings.h"
#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/noise_calibration.h>
#include <exactdp/operations/calibrate.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

void add_certificate(const laws::CalibrationCertificate& certificate, py::dict& d) {
  if (const auto* g = std::get_if<accounting::GaussianCalibration>(&certificate)) {
    d["sigma_lower"] = g->sigma_lower.get_str();
    d["delta_at_sigma_lower"] = interval_to_dict(g->delta_at_sigma_lower);
  } else if (const auto* z = std::get_if<accounting::DiscreteGaussianCalibration>(&certificate)) {
    d["significant_digits"] = z->significant_digits;
    d["optimum_lower"] = z->optimum_lower.get_str();
    d["optimum_upper"] = z->optimum_upper.get_str();
  }
}

py::dict calibrate_law(const std::string& name, const std::string& epsilon_text, const std::string& delta_text,
                       const std::string& sensitivity_text, const std::string& tolerance_text) {
  operations::CalibrateRequest request;
  request.law = name;
  request.spelling = operations::kPythonSpelling;
  request.epsilon = parse_rational("epsilon", epsilon_text);
  request.delta = parse_rational("delta", delta_text);
  request.sensitivity = parse_rational("sensitivity", sensitivity_text);
  if (!tolerance_text.empty()) request.tolerance = parse_rational("tolerance", tolerance_text);
  operations::CalibratePlan plan = operations::plan_calibration(request);
  const operations::CalibrateReport report = [&] {
    const py::gil_scoped_release release;
    return operations::calibrate(request, std::move(plan));
  }();
  const laws::NoiseCalibration& c = report.calibration;
  py::dict d;
  d["parameter"] = c.parameter;
  d["value"] = c.value.get_str();
  d["delta_at"] = interval_to_dict(c.delta_at);
  d["tolerance_met"] = c.tolerance_met;
  add_certificate(c.certificate, d);
  return d;
}

py::dict calibrate_run(const std::string& name, const std::string& epsilon_text, const std::string& delta_text,
                      const std::string& rounds_text, const std::string& q_text, const std::string& clients_text,
                      const std::vector<std::pair<std::string, std::string>>& parameters) {
  operations::CalibrateRunRequest request;
  request.law = name;
  request.spelling = operations::kPythonSpelling;
  request.epsilon = parse_rational("epsilon", epsilon_text);
  request.delta = parse_rational("delta", delta_text);
  request.rounds = parse_integer("rounds", rounds_text);
  request.q = parse_rational("q", q_text);
  if (!clients_text.empty()) request.clients = parse_integer("clients", clients_text);
  request.parameters = parameters;
  const operations::CalibrateRunReport r = [&] {
    const py::gil_scoped_release release;
    return operations::calibrate_run(request);
  }();
  py::dict d;
  d["parameter"] = r.parameter;
  d["value"] = r.value.get_str();
  d["per_client"] = r.per_client ? py::object(py::str(r.per_client->get_str())) : py::object(py::none());
  d["epsilon_at"] = interval_to_dict(r.epsilon_at);
  d["order"] = r.order.get_str();
  d["value_below"] = r.value_below.get_str();
  d["epsilon_below"] = r.epsilon_below ? py::object(interval_to_dict(*r.epsilon_below)) : py::object(py::none());
  d["event"] = r.event;
  return d;
}

}  // namespace

void register_calibrate(py::module_& m) {
  m.def("_calibrate_law", &calibrate_law, py::arg("law"), py::arg("epsilon"), py::arg("delta"),
        py::arg("sensitivity"), py::arg("tolerance"));
  m.def("_calibrate_run", &calibrate_run, py::arg("law"), py::arg("epsilon"), py::arg("delta"), py::arg("rounds"),
        py::arg("q"), py::arg("clients"), py::arg("parameters"));
}

}  // namespace exactdp::python
