// profile.cc — exactdp.profile: the operation `profile` (operations/profile.h) from Python values.
//
// _profile(law, parameters, epsilons, tolerance, hardened, tau_bits) builds a ProfileRequest (the
// law, its parameters as (name, exact text), hardened and tau_bits, the tolerance: "" = the
// default 2^-100) with Python's spelling; the operation checks it and evaluates the certified
// delta(epsilon) at each epsilon (exact text, >= 0; a list of more than one is a curve, held to
// the curve's point limit). Returns a dict: "law", "parameters" (name, exact text), "tau_upper"
// (exact text or None) and "rows", each {"epsilon", "delta": interval dict, "tolerance_met",
// "precision"}. GIL released while computing.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/profile.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using accounting::Certified;
using accounting::ZivOptions;
using Given = std::vector<std::pair<std::string, std::string>>;

// The law's parameters as it prints them: a hardened mechanism's tau_bits is not one of them.
Given without_tau_bits(const Given& parameters) {
  Given out;
  for (const auto& p : parameters) {
    if (p.first != "tau_bits") out.push_back(p);
  }
  return out;
}

py::dict profile(const std::string& name, const Given& given, const std::vector<std::string>& epsilons,
                 const std::string& tolerance, bool hardened, const std::optional<unsigned>& tau_bits) {
  operations::ProfileRequest request;
  request.mechanism = name;
  request.parameters = given;
  request.hardened = hardened;
  if (tau_bits) request.tau_bits = std::to_string(*tau_bits);
  if (!tolerance.empty()) request.tolerance = tolerance;
  request.spelling = operations::kPythonSpelling;
  const operations::MechanismSpec mechanism = operations::plan_profile(request).mechanism;
  const ZivOptions options = operations::profile_options(request);
  const std::vector<mpq_class> eps = operations::checked_epsilons(mechanism, epsilons);
  std::vector<Certified> results;
  {
    const py::gil_scoped_release release;
    for (const mpq_class& e : eps) results.push_back(mechanism.delta(e, options));
  }
  py::list rows;
  for (std::size_t i = 0; i < eps.size(); ++i) {
    py::dict row;
    row["epsilon"] = eps[i].get_str();
    row["delta"] = interval_to_dict(results[i].value);
    row["tolerance_met"] = results[i].tolerance_met;
    row["precision"] = results[i].precision;
    rows.append(row);
  }
  py::dict d;
  d["law"] = mechanism.name;
  d["parameters"] = without_tau_bits(mechanism.parameters);
  const auto& tau = mechanism.hardened_tau;
  d["tau_upper"] = tau ? py::object(py::str(tau->get_str())) : py::object(py::none());
  d["rows"] = rows;
  return d;
}

}  // namespace

void register_profile(py::module_& m) {
  m.def("_profile", &profile, py::arg("law"), py::arg("parameters"), py::arg("epsilons"), py::arg("tolerance"),
        py::arg("hardened"), py::arg("tau_bits"));
}

}  // namespace exactdp::python
