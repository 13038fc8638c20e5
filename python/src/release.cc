// release.cc — mechanisms::calibrate_release for Python: the per-cell noise parameter and the
// certified guarantee of a whole release, exactly as `exactdp release` computes them (the same
// contribution model, routes and checks), so that exactdp.dask.release reports the guarantee of
// the single-machine release.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include <exactdp/core/decimal.h>
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

py::dict release_calibration(const std::string& mechanism, const std::string& epsilon,
                             const std::optional<std::string>& delta, const std::string& sensitivity,
                             unsigned long contributions, unsigned long columns, std::uint64_t rows) {
  mechanisms::ReleaseBudget budget;
  budget.mechanism = mechanisms::release_law(mechanism).name();  // the registry's, or refused by name
  budget.epsilon = parse_rational("epsilon", epsilon);
  if (delta) budget.delta = parse_rational("delta", *delta);
  mechanisms::ContributionModel model;
  model.sensitivity = parse_integer("sensitivity", sensitivity);
  model.contributions = contributions;
  model.columns = columns;
  const mechanisms::ReleaseCalibration c = mechanisms::calibrate_release(budget, model, rows);
  py::dict d;
  d["mechanism"] = budget.mechanism;
  d["route"] = c.route;
  d["route_detail"] = c.route_detail;
  d["parameter_name"] = c.parameter;
  d["parameter"] = to_string(c.noise());
  d["epsilon"] = interval_to_dict(c.epsilon);
  d["delta"] = interval_to_dict(c.delta);
  d["rho"] = c.rho ? py::object(py::str(to_string(*c.rho))) : py::object(py::none());
  d["mu"] = c.mu ? py::object(interval_to_dict(*c.mu)) : py::object(py::none());
  d["l1_sensitivity"] = c.l1_sensitivity.get_str();
  d["l2_sensitivity_squared"] = c.l2_sensitivity_squared.get_str();
  d["cells"] = c.cells;
  return d;
}

}  // namespace

void register_release(py::module_& m) {
  m.def("_release_laws", &mechanisms::release_laws);  // exactdp.dask.MECHANISMS
  m.def("_release_calibration", &release_calibration, py::arg("mechanism"), py::arg("epsilon"),
        py::arg("delta"), py::arg("sensitivity"), py::arg("contributions"), py::arg("columns"),
        py::arg("rows"));
}

}  // namespace exactdp::python
