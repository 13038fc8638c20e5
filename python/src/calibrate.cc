// calibrate.cc — certified noise calibration for exactdp.calibrate, from the accounting library:
//   _calibrate_gaussian(epsilon, delta, sensitivity, tolerance)   accounting::calibrate_gaussian
//       -> {"sigma": exact text (the value to use, the bracket's upper end), "sigma_lower",
//           "delta_at_sigma", "delta_at_sigma_lower": interval dicts, "tolerance_met"}
//   _calibrate_discrete_gaussian(epsilon, delta, sensitivity, tolerance)
//                                      accounting::calibrate_discrete_gaussian
//       -> {"sigma2": exact text (the value to use), "delta_at_sigma2": interval dict,
//           "significant_digits", "optimum_lower", "optimum_upper": exact text, "tolerance_met"}
// Parameters arrive as exact text and are parsed naming the parameter; the library checks the
// ranges (ParameterError naming epsilon, delta, sensitivity or tolerance). GIL released while
// the calibration runs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <string>

#include "bindings.h"
#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

py::dict calibrate_gaussian(const std::string& epsilon_text, const std::string& delta_text,
                            const std::string& sensitivity_text, const std::string& tolerance) {
  const mpq_class epsilon = parse_rational("epsilon", epsilon_text);
  const mpq_class delta = parse_rational("delta", delta_text);
  const mpq_class sensitivity = parse_rational("sensitivity", sensitivity_text);
  accounting::validate_gaussian_calibration(epsilon, delta, sensitivity);
  const accounting::ZivOptions options = ziv_options(tolerance);
  accounting::GaussianCalibration c;
  {
    const py::gil_scoped_release release;
    c = accounting::calibrate_gaussian(epsilon, delta, sensitivity, options);
  }
  py::dict d;
  d["sigma"] = c.sigma.get_str();
  d["sigma_lower"] = c.sigma_lower.get_str();
  d["delta_at_sigma"] = interval_to_dict(c.delta_at_sigma);
  d["delta_at_sigma_lower"] = interval_to_dict(c.delta_at_sigma_lower);
  d["tolerance_met"] = c.tolerance_met;
  return d;
}

py::dict calibrate_discrete_gaussian(const std::string& epsilon_text, const std::string& delta_text,
                                     const std::string& sensitivity_text, const std::string& tolerance_text) {
  const mpq_class epsilon = parse_rational("epsilon", epsilon_text);
  const mpq_class delta = parse_rational("delta", delta_text);
  const mpz_class sensitivity = parse_integer("sensitivity", sensitivity_text);
  accounting::validate_discrete_gaussian_calibration(epsilon, delta, sensitivity);
  mpq_class tolerance = accounting::default_bracket_tolerance();
  if (!tolerance_text.empty()) tolerance = parse_rational("tolerance", tolerance_text);
  accounting::DiscreteGaussianCalibration c;
  {
    const py::gil_scoped_release release;
    c = accounting::calibrate_discrete_gaussian(epsilon, delta, sensitivity, tolerance);
  }
  py::dict d;
  d["sigma2"] = c.sigma2.get_str();
  d["delta_at_sigma2"] = interval_to_dict(c.delta_at_sigma2);
  d["significant_digits"] = c.significant_digits;
  d["optimum_lower"] = c.optimum_lower.get_str();
  d["optimum_upper"] = c.optimum_upper.get_str();
  d["tolerance_met"] = c.bracket_tolerance_met;
  return d;
}

}  // namespace

void register_calibrate(py::module_& m) {
  m.def("_calibrate_gaussian", &calibrate_gaussian, py::arg("epsilon"), py::arg("delta"), py::arg("sensitivity"),
        py::arg("tolerance"));
  m.def("_calibrate_discrete_gaussian", &calibrate_discrete_gaussian, py::arg("epsilon"), py::arg("delta"),
        py::arg("sensitivity"), py::arg("tolerance"));
}

}  // namespace exactdp::python
