// calibrate.cc — certified noise calibration for exactdp.calibrate, through the law registry
// (laws::Law::calibrate, laws/noise_calibration.h), the same calls as `exactdp calibrate`:
//   _calibrate_law(law, epsilon, delta, sensitivity, tolerance)
//       -> {"parameter": the law's noise parameter ("sigma", "sigma2", "scale"), "value": exact
//           text (the value to use), "delta_at": interval dict, "tolerance_met", and the
//           certificate's own fields: the analytic Gaussian's "sigma_lower" and
//           "delta_at_sigma_lower"; the discrete Gaussian's "significant_digits",
//           "optimum_lower", "optimum_upper"}
// Any registry law with Capability::kCalibrate is served; any other name is refused naming
// "mechanism". Parameters arrive as exact text and are parsed naming the parameter; the law
// checks the ranges (ParameterError naming epsilon, delta, sensitivity or tolerance). GIL
// released while the calibration runs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <string>
#include <variant>

#include "bindings.h"
#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/law.h>
#include <exactdp/laws/noise_calibration.h>
#include <exactdp/laws/registry.h>

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
  const laws::Law* law = laws::find_law(name);
  if (law == nullptr || !law->supports(laws::Capability::kCalibrate)) {
    throw ParameterError("mechanism", "mechanism = " + abbreviate(name) + ": allowed " +
                                          laws::law_names_with(laws::Capability::kCalibrate) + ", dp-sgd");
  }
  laws::CalibrationTarget target;
  target.epsilon = parse_rational("epsilon", epsilon_text);
  target.delta = parse_rational("delta", delta_text);
  const mpq_class sensitivity = parse_rational("sensitivity", sensitivity_text);
  if (!tolerance_text.empty()) target.tolerance = parse_rational("tolerance", tolerance_text);
  const laws::LawParameters privacy = law->parse_values({{"sensitivity", sensitivity}}, laws::Use::kCalibrate);
  law->check_calibration(target, privacy);
  laws::NoiseCalibration c;
  {
    const py::gil_scoped_release release;
    c = law->calibrate(target, privacy);
  }
  py::dict d;
  d["parameter"] = c.parameter;
  d["value"] = c.value.get_str();
  d["delta_at"] = interval_to_dict(c.delta_at);
  d["tolerance_met"] = c.tolerance_met;
  add_certificate(c.certificate, d);
  return d;
}

}  // namespace

void register_calibrate(py::module_& m) {
  m.def("_calibrate_law", &calibrate_law, py::arg("law"), py::arg("epsilon"), py::arg("delta"),
        py::arg("sensitivity"), py::arg("tolerance"));
}

}  // namespace exactdp::python
