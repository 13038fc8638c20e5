// module.cc — the exactdp._exactdp extension module. The public Python API is the pure-Python
// package exactdp/ (argument conversion, docstrings); this module is its thin C++ core.
#include <pybind11/pybind11.h>

#include <stdexcept>

#include "bindings.h"
#include <exactdp/core/cpu_level.h>

PYBIND11_MODULE(_exactdp, m) {
  m.doc() = "C++ core of the exactdp package (use the exactdp package, not this module)";
  // The environment's cap on the vector paths (core/cpu_level.h): a bad value fails the import.
  if (const auto problem = exactdp::cpu_level_setting_problem()) throw std::invalid_argument(*problem);
  m.attr("cpu_level_cap") = exactdp::cpu_level_cap_name();
  exactdp::python::register_errors(m);
  exactdp::python::register_sampling(m);
  exactdp::python::register_audit(m);
  exactdp::python::register_profile(m);
  exactdp::python::register_calibrate(m);
  exactdp::python::register_convert(m);
  exactdp::python::register_compose(m);
  exactdp::python::register_compose_events(m);
  exactdp::python::register_measure_gdp(m);
  exactdp::python::register_calibrate_dp_sgd(m);
  exactdp::python::register_accountant(m);
  exactdp::python::register_release(m);
  exactdp::python::register_grid_noise(m);
  exactdp::python::register_estimation(m);
  exactdp::python::register_aggregate(m);
  exactdp::python::register_federated(m);
  exactdp::python::register_select(m);
}
