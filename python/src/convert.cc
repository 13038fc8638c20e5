// convert.cc — certified conversions between privacy definitions for exactdp.convert: Python
// values into an operations::ConvertRequest, the report into a dict. The sources, checks, limits
// and citations are the operation's (operations/convert.h), shared with `exactdp convert`.
// _convert(source, given, tolerance): given is the (name, exact text) pairs of rho, mu, epsilon,
// delta that were passed. Returns {"result": the name of the converted value, "value": interval
// dict, "tolerance_met", "alpha": exact text (zcdp: the Renyi order used) or None, "rho": exact
// text (pure-dp) or None, "route": the theorem used, one line}. A missing, extra or unknown
// input: ParameterError naming it. The GIL is released while computing.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/convert.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using Given = std::vector<std::pair<std::string, std::string>>;

// The field of the request a Python argument fills, or ParameterError naming an unknown one.
std::optional<mpq_class>& field(operations::ConvertRequest& r, const std::string& name) {
  if (name == "rho") return r.rho;
  if (name == "mu") return r.mu;
  if (name == "epsilon") return r.epsilon;
  if (name == "delta") return r.delta;
  throw ParameterError(name, "convert takes no " + name + " (allowed: rho, mu, epsilon, delta)");
}

py::object text_or_none(const std::optional<mpq_class>& value) {
  return value ? py::object(py::str(value->get_str())) : py::object(py::none());
}

py::dict convert(const std::string& source, const Given& given, const std::string& tolerance) {
  operations::ConvertRequest request;
  request.source = source;
  request.spelling = operations::kPythonSpelling;
  if (!tolerance.empty()) request.tolerance = parse_rational("tolerance", tolerance);
  for (const auto& [name, text] : given) field(request, name) = parse_rational(name, text);
  const operations::ConvertReport report = [&] {
    const py::gil_scoped_release release;
    return operations::convert(request);
  }();
  py::dict d;
  d["result"] = report.result;
  d["value"] = interval_to_dict(report.value.value);
  d["tolerance_met"] = report.value.tolerance_met;
  d["alpha"] = text_or_none(report.alpha);
  d["rho"] = text_or_none(report.rho);
  d["route"] = report.route.empty() ? report.meaning : report.route;
  return d;
}

}  // namespace

void register_convert(py::module_& m) {
  m.def("_convert", &convert, py::arg("source"), py::arg("given"), py::arg("tolerance"));
}

}  // namespace exactdp::python
