// convert.cc — certified conversions between privacy definitions for exactdp.convert, from the
// accounting library (accounting/zcdp.h, accounting/gdp_conversions.h):
//   zcdp    rho + delta -> epsilon (zcdp_epsilon), rho + epsilon -> delta (zcdp_delta)
//   gdp     mu + delta -> epsilon (gdp_epsilon), epsilon + delta -> mu (gdp_mu_for)
//   pure-dp epsilon -> mu (gdp_mu_of_pure_dp) and rho (zcdp_rho_pure_dp, exact)
// _convert(source, given, tolerance): given is the (name, exact text) pairs of rho, mu, epsilon,
// delta that were passed. Returns {"result": the name of the converted value, "value": interval
// dict, "tolerance_met", "alpha": exact text (zcdp: the Renyi order used) or None, "rho": exact
// text (pure-dp) or None}. A missing, extra or unknown input: ParameterError naming it. The GIL
// is released while computing.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using accounting::Certified;
using Given = std::vector<std::pair<std::string, std::string>>;

struct Inputs {
  std::map<std::string, mpq_class> values;
  [[nodiscard]] bool has(const std::string& name) const { return values.count(name) != 0; }
  [[nodiscard]] const mpq_class& at(const std::string& source, const std::string& name) const {
    const auto it = values.find(name);
    if (it == values.end()) throw ParameterError(name, "convert " + source + ": " + name + " is required");
    return it->second;
  }
};

// The inputs of `source`, checked against the names it takes ("exactly one of" checked by caller).
Inputs read_inputs(const std::string& source, const Given& given, const std::vector<std::string>& allowed) {
  Inputs in;
  for (const auto& [name, text] : given) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == name;
    if (!ok) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw ParameterError(name, "convert " + source + " takes no " + name + " (allowed: " + list + ")");
    }
    in.values[name] = parse_rational(name, text);
  }
  return in;
}

void require_one_of(const std::string& source, const Inputs& in, const std::string& a, const std::string& b) {
  if (in.has(a) == in.has(b)) {
    throw ParameterError(a, "convert " + source + " needs exactly one of " + a + " or " + b);
  }
}

py::dict result(const std::string& name, const Certified& c) {
  py::dict d;
  d["result"] = name;
  d["value"] = interval_to_dict(c.value);
  d["tolerance_met"] = c.tolerance_met;
  d["alpha"] = py::none();
  d["rho"] = py::none();
  return d;
}

py::dict convert_zcdp(const Inputs& in, const accounting::ZivOptions& o) {
  const mpq_class rho = in.at("zcdp", "rho");
  accounting::validate_rho(rho);
  require_one_of("zcdp", in, "delta", "epsilon");
  const bool to_epsilon = in.has("delta");
  const mpq_class other = to_epsilon ? in.at("zcdp", "delta") : in.at("zcdp", "epsilon");
  accounting::ZcdpConversion c;
  {
    const py::gil_scoped_release release;
    c = to_epsilon ? accounting::zcdp_epsilon(rho, other, o) : accounting::zcdp_delta(rho, other, o);
  }
  py::dict d = result(to_epsilon ? "epsilon" : "delta", c.bound);
  d["alpha"] = c.alpha.get_str();
  return d;
}

py::dict convert_gdp(const Inputs& in, const accounting::ZivOptions& o) {
  const mpq_class delta = in.at("gdp", "delta");
  require_one_of("gdp", in, "mu", "epsilon");
  const bool to_epsilon = in.has("mu");
  const mpq_class value = to_epsilon ? in.at("gdp", "mu") : in.at("gdp", "epsilon");
  Certified c;
  {
    const py::gil_scoped_release release;
    c = to_epsilon ? accounting::gdp_epsilon(value, delta, o) : accounting::gdp_mu_for(value, delta, o);
  }
  return result(to_epsilon ? "epsilon" : "mu", c);
}

py::dict convert(const std::string& source, const Given& given, const std::string& tolerance) {
  const accounting::ZivOptions o = ziv_options(tolerance);
  if (source == "zcdp") return convert_zcdp(read_inputs(source, given, {"rho", "epsilon", "delta"}), o);
  if (source == "gdp") return convert_gdp(read_inputs(source, given, {"mu", "epsilon", "delta"}), o);
  if (source != "pure-dp") throw ParameterError::out_of_range("source", source, "zcdp, gdp or pure-dp");
  const mpq_class eps = read_inputs(source, given, {"epsilon"}).at(source, "epsilon");
  Certified c;
  {
    const py::gil_scoped_release release;
    c = accounting::gdp_mu_of_pure_dp(eps, o);
  }
  py::dict d = result("mu", c);
  d["rho"] = accounting::zcdp_rho_pure_dp(eps).get_str();
  return d;
}

}  // namespace

void register_convert(py::module_& m) {
  m.def("_convert", &convert, py::arg("source"), py::arg("given"), py::arg("tolerance"));
}

}  // namespace exactdp::python
