// bindings.h — the pieces of the exactdp._exactdp extension module, one file each:
//   errors.cc      C++ exceptions -> exactdp.ParameterError / LimitError / UsageError
//   sampling.cc    SeededBits and batch sampling (GIL released while drawing)
//   commands.cc    the CLI's accounting and audit commands run in-process (no subprocess)
//   accountant.cc  accounting::Accountant and its PrivacyEvent kinds
//   release.cc     the calibration and guarantee of `exactdp release` (for exactdp.dask.release)
#pragma once

#include <pybind11/pybind11.h>

#include <exactdp/core/interval.h>

namespace exactdp::python {

void register_errors(pybind11::module_& m);
void register_sampling(pybind11::module_& m);
void register_commands(pybind11::module_& m);
void register_accountant(pybind11::module_& m);
void register_release(pybind11::module_& m);

// {"lower": text, "upper": text}: exact dyadic ends (outward decimals beyond 10^+-100000).
pybind11::dict interval_to_dict(const exactdp::Interval& x);

}  // namespace exactdp::python
