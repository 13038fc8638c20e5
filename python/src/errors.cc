// errors.cc — translation of C++ exceptions into the Python exceptions of exactdp._errors:
//   exactdp::LimitError        -> exactdp.LimitError(message, parameter)      (a ParameterError)
//   exactdp::ParameterError    -> exactdp.ParameterError(message, parameter)  (a ValueError)
//   exactdp::cli::UsageError   -> exactdp.UsageError(message)                 (a ValueError)
// Anything else keeps pybind11's default mapping (std::bad_alloc -> MemoryError,
// std::domain_error / std::invalid_argument -> ValueError, others -> RuntimeError).
#include <pybind11/pybind11.h>

#include <exception>

#include "bindings.h"
#include "cli/args.h"
#include <exactdp/core/errors.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

void raise_python(const char* name, const std::string& message, const std::string* parameter) {
  const py::object errors = py::module_::import("exactdp._errors");
  const py::object type = errors.attr(name);
  const py::object instance =
      parameter != nullptr ? type(message, *parameter) : type(message);
  PyErr_SetObject(type.ptr(), instance.ptr());
}

}  // namespace

void register_errors(py::module_& /*m*/) {
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const LimitError& e) {
      raise_python("LimitError", e.what(), &e.parameter());
    } catch (const ParameterError& e) {
      raise_python("ParameterError", e.what(), &e.parameter());
    } catch (const cli::UsageError& e) {
      raise_python("UsageError", e.what(), nullptr);
    }
  });
}

}  // namespace exactdp::python
