// bindings.h — the pieces of the exactdp._exactdp extension module, one file each:
//   errors.cc      C++ exceptions -> exactdp.ParameterError / LimitError / UsageError
//   sampling.cc    SeededBits and batch sampling (GIL released while drawing)
//   commands.cc    the CLI's accounting and audit commands run in-process (no subprocess)
//   accountant.cc  accounting::Accountant and its PrivacyEvent kinds
#pragma once

#include <pybind11/pybind11.h>

namespace exactdp::python {

void register_errors(pybind11::module_& m);
void register_sampling(pybind11::module_& m);
void register_commands(pybind11::module_& m);
void register_accountant(pybind11::module_& m);

}  // namespace exactdp::python
