// measure_gdp.cc — exactdp.measure_gdp: the operation `measure-gdp` (operations/measure_gdp.h)
// from Python values.
//
// _measure_gdp(mechanism, parameters, eps_max, tolerance, mu_max, seed, naive, digits) builds a
// MeasureGdpRequest with Python's spelling: mechanism is one of the operation's mechanisms (a law
// with a profile or pure epsilon-DP events, or "pure-dp-composition"); parameters (name, exact
// text); eps_max / tolerance / mu_max "" for the defaults; seed None for the default. Returns
// {"mechanism", "eps_max", "tolerance", "mu": interval dict, "mu_upper" (rounded up to `digits`
// digits, or "inf"), "bounded", "complete", "grid_points", "binary_searches",
// "profile_evaluations", "gdp_evaluations", "naive", "tail": {"limit", "limit_source", "ratios":
// [{"epsilon", "ratio": interval dict}]}}. ParameterError naming the parameter for bad input.
// GIL released while measuring.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/accounting/gdp_measurement.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/measure_gdp.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using Given = std::vector<std::pair<std::string, std::string>>;

std::optional<std::string> optional_text(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return text;
}

py::dict tail_dict(const accounting::GdpTail& tail) {
  py::dict t;
  if (tail.limit) {
    t["limit"] = *tail.limit;
    t["limit_source"] = tail.limit_source;
  }
  py::list ratios;
  for (const auto& [e, ratio] : tail.ratios) {
    py::dict one;
    one["epsilon"] = to_string(e);
    one["ratio"] = interval_to_dict(ratio);
    ratios.append(one);
  }
  t["ratios"] = ratios;
  return t;
}

py::dict measure_gdp(const std::string& mechanism, const Given& given, const std::string& eps_max,
                     const std::string& tolerance, const std::string& mu_max, std::optional<std::uint64_t> seed,
                     bool naive, int digits) {
  operations::MeasureGdpRequest request;
  request.mechanism = mechanism;
  request.parameters = given;
  request.eps_max = optional_text(eps_max);
  request.tolerance = optional_text(tolerance);
  request.mu_max = optional_text(mu_max);
  if (seed) request.seed = std::to_string(*seed);
  request.naive = naive;
  request.spelling = operations::kPythonSpelling;
  const accounting::GdpMeasurable m = operations::measure_gdp_mechanism(request);
  (void)operations::checked_gdp_digits(std::to_string(digits));
  const accounting::GdptOptions options = operations::measure_gdp_options(request, m);
  std::optional<operations::MeasureGdpReport> report;
  {
    const py::gil_scoped_release release;
    report.emplace(operations::measure_gdp_report(m, options));
  }
  const accounting::GdptResult& r = report->measured.result;
  py::dict d;
  d["mechanism"] = m.description;
  d["eps_max"] = to_string(options.eps_max);
  d["tolerance"] = to_string(options.tolerance);
  d["mu"] = interval_to_dict(r.mu);
  d["mu_upper"] = operations::mu_upper_text(r, digits);
  d["bounded"] = r.bounded;
  d["complete"] = report->measured.complete;
  d["grid_points"] = r.grid_points;
  d["binary_searches"] = r.binary_searches;
  d["profile_evaluations"] = r.profile_evaluations;
  d["gdp_evaluations"] = r.gdp_evaluations;
  d["naive"] = options.naive;
  d["tail"] = tail_dict(report->measured.tail);
  return d;
}

}  // namespace

void register_measure_gdp(py::module_& m) {
  m.def("_measure_gdp", &measure_gdp, py::arg("mechanism"), py::arg("parameters"), py::arg("eps_max"),
        py::arg("tolerance"), py::arg("mu_max"), py::arg("seed"), py::arg("naive"), py::arg("digits"));
}

}  // namespace exactdp::python
