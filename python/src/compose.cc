// compose.cc — k-fold composition of pure epsilon-DP mechanisms for exactdp.compose: Python values
// into an operations::ComposePureDpRequest, the report into a dict. The methods, checks, limits
// and citations are the operation's (operations/compose.h), shared with `exactdp compose pure-dp`.
// _compose_pure_dp(epsilon, k, delta, method, tolerance) -> {"epsilon": interval dict,
// "tolerance_met", "route": one line} for one method; for "all", {"methods": {method: that dict}}.
// ParameterError naming epsilon, k, delta, method or tolerance (LimitError: the tolerance's cost
// limit); the zcdp method refuses k eps^2 / 2 > 10^9 naming epsilon. GIL released while computing.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <string>

#include "bindings.h"
#include <exactdp/core/rational.h>
#include <exactdp/operations/compose.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

py::dict method_dict(const operations::ComposedEpsilon& r) {
  py::dict d;
  d["epsilon"] = interval_to_dict(r.epsilon);
  d["tolerance_met"] = r.tolerance_met;
  d["route"] = r.route;
  return d;
}

py::dict compose_pure_dp(const std::string& epsilon_text, unsigned long long k, const std::string& delta_text,
                         const std::string& method, const std::string& tolerance) {
  operations::ComposePureDpRequest request;
  request.epsilon = parse_rational("epsilon", epsilon_text);
  request.k = k;
  request.delta = parse_rational("delta", delta_text);
  request.method = method;
  if (!tolerance.empty()) request.tolerance = parse_rational("tolerance", tolerance);
  request.spelling = operations::kPythonSpelling;
  const operations::ComposePureDpReport report = [&] {
    const py::gil_scoped_release release;
    return operations::compose_pure_dp(request);
  }();
  if (report.results.size() == 1) return method_dict(report.results.front());
  py::dict methods;
  for (const auto& r : report.results) methods[py::str(r.method)] = method_dict(r);
  py::dict d;
  d["methods"] = methods;
  return d;
}

}  // namespace

void register_compose(py::module_& m) {
  m.def("_compose_pure_dp", &compose_pure_dp, py::arg("epsilon"), py::arg("k"), py::arg("delta"), py::arg("method"),
        py::arg("tolerance"));
}

}  // namespace exactdp::python
