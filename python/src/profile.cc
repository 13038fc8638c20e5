// profile.cc — the certified privacy profile delta(epsilon) of a law of the registry
// (laws/registry.h) for exactdp.profile, from the accounting library directly.
//
// _profile(law, parameters, epsilons, tolerance, hardened, tau_bits) parses the law's noise and
// privacy parameters (Law::parse, Use::kPrivacy: ParameterError naming the parameter), takes its
// accounting event (Law::privacy_event) and evaluates, for each epsilon (exact text, >= 0), the
// certified delta(epsilon) to the relative tolerance (accounting/ziv.h; "" = the default
// 2^-100) by the event's own profile (accounting/event_profile.h). With hardened=True the noise is the law's hardened
// sampler's (Law::make_sampler with Hardening at mean 0): its certified tau_upper is charged,
// delta + (1 + e^epsilon) tau_upper (accounting/hardened_charge.h). Returns a dict: "law",
// "parameters" (name, exact text), "tau_upper" (exact text or None) and "rows", each
// {"epsilon", "delta": interval dict, "tolerance_met", "precision"}. GIL released while computing.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/event_profile.h>
#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/laws/registry.h>
#include <exactdp/core/errors.h>
#include <exactdp/samplers/hardening.h>
#include <exactdp/core/rational.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using accounting::Certified;
using accounting::PrivacyEvent;
using accounting::ZivOptions;
using Given = std::vector<std::pair<std::string, std::string>>;

// The certified TV bound of the law's hardened sampler at these noise parameters (mean 0).
mpq_class hardened_tau(const laws::Law& law, const Given& given, const std::optional<unsigned>& tau_bits) {
  if (!law.supports(laws::Capability::kHardened)) {
    throw laws::UnsupportedError("hardened", "hardened=True applies to " +
                                                 laws::law_names_with(laws::Capability::kHardened) + ", not " +
                                                 law.name());
  }
  Given noise;
  for (const auto& [name, value] : given) {
    for (const auto& p : law.parameters()) {
      if (p.name == name && p.role == laws::Role::kNoise) noise.emplace_back(name, value);
    }
  }
  Hardening h;
  if (tau_bits) {
    if (*tau_bits < kMinTauBits || *tau_bits > kMaxTauBits) {
      throw ParameterError::out_of_range("tau_bits", std::to_string(*tau_bits),
                                         std::to_string(kMinTauBits) + " <= tau_bits <= " + std::to_string(kMaxTauBits));
    }
    h.tau_bits = *tau_bits;
  }
  return law.make_sampler(law.parse(noise, laws::Use::kSample), h)->tau_upper();
}

py::dict profile(const std::string& name, const Given& given, const std::vector<std::string>& epsilons,
                 const std::string& tolerance, bool hardened, const std::optional<unsigned>& tau_bits) {
  const laws::Law& law = laws::law_named(name);
  if (!law.supports(laws::Capability::kProfile)) {
    throw laws::UnsupportedError("law", "law = " + name + " has no certified profile: allowed " +
                                            laws::law_names_with(laws::Capability::kProfile));
  }
  if (tau_bits && !hardened) throw ParameterError("tau_bits", "tau_bits applies only with hardened=True");
  const laws::LawParameters params = law.parse(given, laws::Use::kPrivacy);
  const PrivacyEvent event = law.privacy_event(params);
  const std::optional<mpq_class> tau = hardened ? std::optional(hardened_tau(law, given, tau_bits)) : std::nullopt;
  const ZivOptions options = ziv_options(tolerance);
  std::vector<mpq_class> eps;
  for (const std::string& text : epsilons) {
    eps.push_back(parse_rational("epsilon", text));
    accounting::require_nonnegative("epsilon", eps.back());
  }
  std::vector<Certified> results;
  {
    const py::gil_scoped_release release;
    for (const mpq_class& e : eps) {
      results.push_back(accounting::event_delta(event, e, options));
      if (tau) results.back().value = accounting::hardened_delta(results.back().value, e, *tau);
    }
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
  d["law"] = law.name();
  d["parameters"] = params.as_text();
  d["tau_upper"] = tau ? py::object(py::str(tau->get_str())) : py::object(py::none());
  d["rows"] = rows;
  return d;
}

}  // namespace

ZivOptions ziv_options(const std::string& tolerance) {
  ZivOptions o;
  if (!tolerance.empty()) {
    o.tolerance = parse_rational("tolerance", tolerance);
    if (o.tolerance >= 1) throw ParameterError::out_of_range("tolerance", tolerance, "2^-10000 <= tolerance < 1");
  }
  o.validate();
  return o;
}

void register_profile(py::module_& m) {
  m.def("_profile", &profile, py::arg("law"), py::arg("parameters"), py::arg("epsilons"), py::arg("tolerance"),
        py::arg("hardened"), py::arg("tau_bits"));
}

}  // namespace exactdp::python
