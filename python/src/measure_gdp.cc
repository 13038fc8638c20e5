// measure_gdp.cc — the mu-GDP bracket of a mechanism for exactdp.measure_gdp, from the library
// (accounting/gdp_measurement.h: require_measurable, gdp_measure_options, measure_gdp — the
// functions `exactdp measure-gdp` calls).
//
// _measure_gdp(mechanism, parameters, eps_max, tolerance, mu_max, seed, naive, digits):
// mechanism is a law of the registry with a profile or pure epsilon-DP events (its parameters
// parsed by the law, as exactdp.profile) or "pure-dp-composition" (epsilon, k); parameters
// (name, exact text); eps_max / tolerance / mu_max "" for the defaults; seed None for the
// default. Returns {"mechanism", "eps_max", "tolerance", "mu": interval dict, "mu_upper" (rounded
// up to `digits` digits, or "inf"), "bounded", "complete", "grid_points", "binary_searches",
// "profile_evaluations", "gdp_evaluations", "naive", "tail": {"limit", "limit_source", "ratios":
// [{"epsilon", "ratio": interval dict}]}}. ParameterError naming the parameter for bad input,
// UsageError-free (the Python layer checks option names). GIL released while measuring.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/accounting/gdp_measurement.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/law_queries.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using Given = std::vector<std::pair<std::string, std::string>>;

std::optional<std::string> find_given(const Given& given, const std::string& name) {
  for (const auto& [k, v] : given) {
    if (k == name) return v;
  }
  return std::nullopt;
}

std::string required(const Given& given, const std::string& mechanism, const std::string& name) {
  const auto v = find_given(given, name);
  if (!v) throw ParameterError(name, mechanism + ": " + name + " is required");
  return *v;
}

std::string describe(const std::string& name, const Given& parameters) {
  std::string out = name + "(";
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    out += (i ? ", " : "") + parameters[i].first + "=" + abbreviate(parameters[i].second);
  }
  return out + ")";
}

// A law of the registry with a certified profile, or whose events are pure epsilon-DP (pure-dp):
// its privacy event, named by its parameters as the law prints them, with its sensitivity where
// it has one (as `exactdp measure-gdp` reads it, cli/mechanism_spec.cc).
accounting::GdpMeasurable law_mechanism(const std::string& name, const Given& given) {
  const laws::Law& law = laws::law_named(name);
  if (!law.supports(laws::Capability::kProfile) && !operations::events_are_pure_dp(law)) {
    throw laws::UnsupportedError("law", name + " has no certified profile to measure (allowed: " +
                                            laws::law_names_with(laws::Capability::kProfile) + ")");
  }
  const laws::LawParameters params = law.parse(given, laws::Use::kPrivacy);
  accounting::GdpMeasurable m;
  m.name = name;
  const Given text = params.as_text();
  m.description = describe(name, text);
  m.noise_name = text.front().first;
  m.noise = params.rational(m.noise_name);
  if (params.has("sensitivity")) {
    m.sensitivity = params.rational("sensitivity");
    m.sensitivity_given = params.given("sensitivity");
  }
  return accounting::measurable_event(law.privacy_event(params), std::move(m));
}

// pure-dp-composition (epsilon, k), not a law: k epsilon-DP mechanisms composed, measured as one.
accounting::GdpMeasurable mechanism_of(const std::string& name, const Given& given) {
  if (name != "pure-dp-composition") return law_mechanism(name, given);
  for (const auto& [k, v] : given) {
    if (k != "epsilon" && k != "k") throw ParameterError(k, name + " does not take " + k);
  }
  const mpq_class eps = parse_rational("epsilon", required(given, name, "epsilon"));
  accounting::require_positive("epsilon", eps);
  const mpz_class k = parse_integer("k", required(given, name, "k"));
  if (k < 1 || k > 1000) throw ParameterError::out_of_range("k", abbreviate(k.get_str()), "1 <= k <= 1000");
  return accounting::measurable_pure_dp_composition(eps, k.get_ui());
}

std::optional<mpq_class> optional_rational(const char* name, const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parse_rational(name, text);
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
  if (digits < 1 || digits > 10'000) {
    throw ParameterError::out_of_range("digits", std::to_string(digits), "1 <= digits <= 10000");
  }
  const accounting::GdpMeasurable m = mechanism_of(mechanism, given);
  accounting::require_measurable(m);
  accounting::GdpMeasureSettings settings;
  settings.eps_max = optional_rational("eps_max", eps_max);
  settings.tolerance = optional_rational("tolerance", tolerance);
  settings.mu_max = optional_rational("mu_max", mu_max);
  settings.seed = seed;
  settings.naive = naive;
  const accounting::GdptOptions options = accounting::gdp_measure_options(m, settings);
  accounting::GdpMeasurement r;
  {
    const py::gil_scoped_release release;
    r = accounting::measure_gdp(m, options);
  }
  py::dict d;
  d["mechanism"] = m.description;
  d["eps_max"] = to_string(options.eps_max);
  d["tolerance"] = to_string(options.tolerance);
  d["mu"] = interval_to_dict(r.result.mu);
  d["mu_upper"] = r.result.bounded ? exactdp::decimal_upper(r.result.mu.upper(), digits) : std::string("inf");
  d["bounded"] = r.result.bounded;
  d["complete"] = r.complete;
  d["grid_points"] = r.result.grid_points;
  d["binary_searches"] = r.result.binary_searches;
  d["profile_evaluations"] = r.result.profile_evaluations;
  d["gdp_evaluations"] = r.result.gdp_evaluations;
  d["naive"] = options.naive;
  d["tail"] = tail_dict(r.tail);
  return d;
}

}  // namespace

void register_measure_gdp(py::module_& m) {
  m.def("_measure_gdp", &measure_gdp, py::arg("mechanism"), py::arg("parameters"), py::arg("eps_max"),
        py::arg("tolerance"), py::arg("mu_max"), py::arg("seed"), py::arg("naive"), py::arg("digits"));
}

}  // namespace exactdp::python
