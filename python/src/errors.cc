// errors.cc — translation of the library's C++ exceptions into the Python exceptions of
// exactdp._errors (no exception of the library reaches Python as a bare RuntimeError):
//   exactdp::LimitError        -> exactdp.LimitError(message, parameter)      (a ParameterError)
//   exactdp::ParameterError    -> exactdp.ParameterError(message, parameter)  (a ValueError)
//   other std::invalid_argument / std::domain_error / std::out_of_range
//                              -> exactdp.ParameterError(message)
//   std::runtime_error, std::logic_error (a computation the library could not finish, or a
//   failed internal check)     -> exactdp.ComputationError(message)          (a RuntimeError)
// A GMP or MPFR allocation that fails or exceeds the per-number cap throws GmpAllocationError
// (core/gmp_allocation.h, installed when the module is registered), a LimitError: it reaches
// Python as exactdp.LimitError naming "memory", never as GMP's abort() of the interpreter.
// Other std::bad_alloc keeps pybind11's MemoryError; Python exceptions pass through unchanged.
#include <pybind11/pybind11.h>

#include <exception>
#include <stdexcept>
#include <string>

#include "bindings.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/gmp_allocation.h>

namespace py = pybind11;

namespace exactdp::python {

void raise_exactdp_error(const char* name, const std::string& message, const std::string* parameter) {
  const py::object errors = py::module_::import("exactdp._errors");
  const py::object type = errors.attr(name);
  const py::object instance = parameter != nullptr ? type(message, *parameter) : type(message);
  PyErr_SetObject(type.ptr(), instance.ptr());
}

void register_errors(py::module_& /*m*/) {
  install_gmp_allocation_guard();  // normally done at load already; once per process
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const LimitError& e) {
      raise_exactdp_error("LimitError", e.what(), &e.parameter());
    } catch (const ParameterError& e) {
      raise_exactdp_error("ParameterError", e.what(), &e.parameter());
    } catch (const std::invalid_argument& e) {
      raise_exactdp_error("ParameterError", e.what(), nullptr);
    } catch (const std::domain_error& e) {
      raise_exactdp_error("ParameterError", e.what(), nullptr);
    } catch (const std::out_of_range& e) {
      raise_exactdp_error("ParameterError", e.what(), nullptr);
    } catch (const std::bad_alloc&) {
      throw;  // pybind11's MemoryError
    } catch (const py::builtin_exception&) {
      throw;  // py::type_error and friends: pybind11's own mapping
    } catch (const py::error_already_set&) {
      throw;
    } catch (const std::runtime_error& e) {
      raise_exactdp_error("ComputationError", e.what(), nullptr);
    } catch (const std::logic_error& e) {
      raise_exactdp_error("ComputationError", e.what(), nullptr);
    }
  });
}

}  // namespace exactdp::python
