// bindings.h — the pieces of the exactdp._exactdp extension module, one file each:
//   errors.cc      C++ exceptions -> exactdp.ParameterError / LimitError / ComputationError
//   sampling.cc    the law registry, SeededBits and batch sampling (GIL released while drawing)
//   audit.cc       verification::run_audit against a law's reference law
//   profile.cc     a law's certified profile delta(epsilon) (accounting library)
//   calibrate.cc   certified calibration of the Gaussian and discrete Gaussian
//   convert.cc     zCDP / mu-GDP / pure-DP conversions
//   compose.cc     k-fold composition of pure-DP mechanisms
//   compose_events.cc   adaptive composition of events by every route (event_composition.h)
//   measure_gdp.cc      the mu-GDP bracket by the GDP transformation (gdp_measurement.h)
//   calibrate_dp_sgd.cc the DP-SGD noise multiplier (dp_sgd_calibration.h)
//   accountant.cc  accounting::Accountant and the events of the laws (laws/events.h)
//   release.cc     the calibration and guarantee of `exactdp release` (for exactdp.dask.release)
//   grid_noise.cc  exact grid noise on float64 / float32 arrays (exactdp.add_noise; GIL released)
//   estimation.cc  the Cost-of-Privacy estimators (exactdp.estimators; GIL released)
//   aggregate.cc   `exactdp aggregate` on records (exactdp.aggregate, exactdp.dask.aggregate)
//   federated.cc   the federated round's client encoder and server decoder (exactdp.federated)
//   select.cc      the operation `select`: exact private selection (exactdp.select; GIL released)
#pragma once

#include <gmpxx.h>
#include <pybind11/pybind11.h>

#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::python {

// A Python int as an exact integer, through its hexadecimal text: Python's int-to-str digit
// limit (4,300 by default) applies to decimal only. The argument must be an int.
[[nodiscard]] mpz_class mpz_from_python_int(const pybind11::handle& v);

void register_errors(pybind11::module_& m);
void register_sampling(pybind11::module_& m);
void register_audit(pybind11::module_& m);
void register_profile(pybind11::module_& m);
void register_calibrate(pybind11::module_& m);
void register_convert(pybind11::module_& m);
void register_compose(pybind11::module_& m);
void register_compose_events(pybind11::module_& m);
void register_measure_gdp(pybind11::module_& m);
void register_calibrate_dp_sgd(pybind11::module_& m);
void register_accountant(pybind11::module_& m);
void register_release(pybind11::module_& m);
void register_grid_noise(pybind11::module_& m);
void register_estimation(pybind11::module_& m);
void register_aggregate(pybind11::module_& m);
void register_federated(pybind11::module_& m);
void register_select(pybind11::module_& m);

// {"lower": text, "upper": text}: exact dyadic ends (outward decimals beyond 10^+-100000).
pybind11::dict interval_to_dict(const exactdp::Interval& x);

// {"route": route, "value": interval_to_dict(value)}: one route of an accounting answer; the
// caller adds that route's flags.
pybind11::dict route_value_dict(const std::string& route, const exactdp::Interval& value);

// Sets the Python error exactdp._errors.<name>(message[, parameter]); the caller then throws
// pybind11::error_already_set.
void raise_exactdp_error(const char* name, const std::string& message, const std::string* parameter);

}  // namespace exactdp::python
