#include "cli/mechanism_spec.h"

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/accounting/laplace_profile.h>
#include <exactdp/core/decimal.h>
#include "cli/sensitivity_options.h"
#include <exactdp/laws/registry.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

using accounting::Certified;
using accounting::ZivOptions;

constexpr MechanismCommand kProfile = MechanismCommand::kProfile;
constexpr MechanismCommand kMeasureGdp = MechanismCommand::kMeasureGdp;
constexpr MechanismCommand kCalibrate = MechanismCommand::kCalibrate;

// The noise parameter `option` (> 0) and the sensitivity of `kind`, with the output parameters.
MechanismSpec noise_and_sensitivity(const std::string& name, const std::string& option,
                                    SensitivityKind kind, const ParsedArgs& parsed) {
  MechanismSpec m;
  m.name = name;
  m.noise_name = parameter_name(option);
  m.noise = positive_option(parsed, option);
  m.parameters = {{m.noise_name, to_string(m.noise)}};
  if (kind != SensitivityKind::kNone) {
    m.sensitivity = sensitivity_of(kind, parsed);
    m.sensitivity_given = parsed.has("--sensitivity");
    m.parameters.emplace_back("sensitivity", to_string(m.sensitivity));
  }
  return m;
}

// Attaches the profile of a noise mechanism: at(eps, noise, sensitivity, p) at a working
// precision and to_tolerance(eps, noise, sensitivity, options) (the library's functions).
template <class Sensitivity, class At, class ToTolerance>
MechanismSpec with_profile(MechanismSpec m, At at, ToTolerance to_tolerance) {
  const mpq_class noise = m.noise;
  const Sensitivity sens(m.sensitivity);
  m.delta_at = [=](const mpq_class& e, mpfr_prec_t p) { return at(e, noise, sens, p); };
  m.delta = [=](const mpq_class& e, const ZivOptions& o) { return to_tolerance(e, noise, sens, o); };
  return m;
}

MechanismSpec gaussian(const ParsedArgs& parsed) {
  return with_profile<mpq_class>(
      noise_and_sensitivity("gaussian", "--sigma", SensitivityKind::kReal, parsed),
      [](const auto&... a) { return accounting::gaussian_delta_at(a...); },
      [](const auto&... a) { return accounting::gaussian_delta(a...); });
}

MechanismSpec laplace(const ParsedArgs& parsed) {
  MechanismSpec m = with_profile<mpq_class>(
      noise_and_sensitivity("laplace", "--scale", SensitivityKind::kReal, parsed),
      [](const auto&... a) { return accounting::laplace_delta_at(a...); },
      [](const auto&... a) { return accounting::laplace_delta(a...); });
  m.pure_epsilon = m.sensitivity / m.noise;
  return m;
}

MechanismSpec discrete_gaussian(const ParsedArgs& parsed) {
  return with_profile<mpz_class>(
      noise_and_sensitivity("discrete-gaussian", "--sigma2", SensitivityKind::kInteger, parsed),
      [](const auto&... a) { return accounting::discrete_gaussian_delta_at(a...); },
      [](const auto&... a) { return accounting::discrete_gaussian_delta(a...); });
}

MechanismSpec discrete_laplace(const ParsedArgs& parsed) {
  MechanismSpec m = with_profile<mpz_class>(
      noise_and_sensitivity("discrete-laplace", "--scale", SensitivityKind::kInteger, parsed),
      [](const auto&... a) { return accounting::discrete_laplace_delta_at(a...); },
      [](const auto&... a) { return accounting::discrete_laplace_delta(a...); });
  m.pure_epsilon = m.sensitivity / m.noise;
  return m;
}

MechanismSpec gdp(const ParsedArgs& parsed) {
  MechanismSpec m = noise_and_sensitivity("gdp", "--mu", SensitivityKind::kNone, parsed);
  const mpq_class mu = m.noise;
  m.delta_at = accounting::gdp_profile(mu);
  m.delta = [mu](const mpq_class& e, const ZivOptions& o) { return accounting::gdp_delta(e, mu, o); };
  return m;
}

MechanismSpec pure_dp(const ParsedArgs& parsed) {
  MechanismSpec m = noise_and_sensitivity("pure-dp", "--epsilon", SensitivityKind::kNone, parsed);
  m.delta_at = accounting::pure_dp_profile(m.noise);
  m.pure_epsilon = m.noise;
  return m;
}

// Each profile evaluation is a KOV pass of up to k/2 steps: k <= 1000 keeps the thousands of
// evaluations of the GDP transformation within seconds.
constexpr unsigned long long kMaxCompositionK = 1000;

MechanismSpec pure_dp_composition(const ParsedArgs& parsed) {
  MechanismSpec m =
      noise_and_sensitivity("pure-dp-composition", "--epsilon", SensitivityKind::kNone, parsed);
  (void)parsed.require("--k");
  m.k = static_cast<unsigned long>(*parsed.count("--k", 1, kMaxCompositionK));
  m.parameters.emplace_back("k", std::to_string(m.k));
  m.delta_at = accounting::kov_profile(m.noise, m.k);  // validates epsilon and k
  m.pure_epsilon = m.noise * mpq_class(static_cast<long>(m.k));
  return m;
}

// A registry law with its own privacy maps (accounting/law_privacy.h), e.g. the staircase: its
// options are its noise and privacy parameters with "--" in front.
MechanismSpec registry_law(const laws::Law& law, const ParsedArgs& parsed) {
  std::vector<std::pair<std::string, std::string>> given;
  for (const auto& p : law.parameters()) {
    if (p.role == laws::Role::kSampling) continue;
    const std::string option = "--" + p.name;
    if (parsed.has(option)) {
      given.emplace_back(p.name, parsed.require(option));
    } else if (!p.fallback) {
      (void)parsed.require(option);  // the usual "missing required option" UsageError
    }
  }
  const laws::LawParameters params = law.parse(given, laws::Use::kPrivacy);
  const accounting::PrivacyEvent event = law.privacy_event(params);
  MechanismSpec m;
  m.name = law.name();
  m.parameters = params.as_text();
  m.noise_name = m.parameters.front().first;
  m.noise = params.rational(m.noise_name);
  m.delta_at = [event](const mpq_class& e, mpfr_prec_t p) { return event.law_maps().delta_at(e, p); };
  m.delta = [event](const mpq_class& e, const ZivOptions& o) {
    return accounting::evaluate_to_tolerance([&](mpfr_prec_t p) { return event.law_maps().delta_at(e, p); }, o);
  };
  if (event.is_pure()) m.pure_epsilon = event.pure_epsilon();
  return m;
}

// Rows for the registry's laws that have their own maps (not one of the closed forms above).
void add_registry_rows(std::vector<MechanismRow>& table) {
  for (const laws::Law* law : laws::all_laws()) {
    if (!law->supports(laws::Capability::kProfile)) continue;
    bool listed = false;
    for (const auto& row : table) listed = listed || row.name == law->name();
    if (listed) continue;
    MechanismRow row{law->name(), {}, SensitivityKind::kNone, {kProfile, kMeasureGdp}, "", nullptr};
    for (const auto& p : law->parameters()) {
      if (p.role == laws::Role::kSampling) continue;
      row.options.push_back("--" + p.name);
      const std::string value = p.kind == laws::ValueKind::kInteger ? " INT" : " R";
      row.help += (row.help.empty() ? "" : " ") + (p.fallback ? "[--" + p.name + value + "]" : "--" + p.name + value);
    }
    row.build = [law](const ParsedArgs& parsed) { return registry_law(*law, parsed); };
    table.push_back(std::move(row));
  }
}

}  // namespace

std::string MechanismSpec::describe() const {
  std::string out = name + "(";
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    out += (i ? ", " : "") + parameters[i].first + "=" + abbreviate(parameters[i].second);
  }
  return out + ")";
}

const std::vector<MechanismRow>& mechanism_table() {
  static const std::vector<MechanismRow> table = [] {
    std::vector<MechanismRow> rows = {
      {"gaussian", {"--sigma", "--sensitivity"}, SensitivityKind::kReal,
       {kProfile, kMeasureGdp, kCalibrate}, "--sigma R   [--sensitivity R]", gaussian},
      {"laplace", {"--scale", "--sensitivity"}, SensitivityKind::kReal, {kProfile, kMeasureGdp},
       "--scale R   [--sensitivity R]", laplace},
      {"discrete-gaussian", {"--sigma2", "--sensitivity"}, SensitivityKind::kInteger,
       {kProfile, kMeasureGdp, kCalibrate}, "--sigma2 R  [--sensitivity INT]", discrete_gaussian},
      {"discrete-laplace", {"--scale", "--sensitivity"}, SensitivityKind::kInteger,
       {kProfile, kMeasureGdp}, "--scale R   [--sensitivity INT]", discrete_laplace},
      {"gdp", {"--mu"}, SensitivityKind::kNone, {kProfile, kMeasureGdp}, "--mu R", gdp},
      {"pure-dp", {"--epsilon"}, SensitivityKind::kNone, {kMeasureGdp}, "--epsilon R", pure_dp},
      {"pure-dp-composition", {"--epsilon", "--k"}, SensitivityKind::kNone, {kMeasureGdp},
       "--epsilon R --k K", pure_dp_composition},
    };
    add_registry_rows(rows);
    return rows;
  }();
  return table;
}


namespace {
bool offers(const MechanismRow& row, MechanismCommand command) {
  for (const auto c : row.commands) {
    if (c == command) return true;
  }
  return false;
}
}  // namespace

std::vector<OptionSpec> mechanism_option_specs(MechanismCommand command) {
  std::vector<OptionSpec> out;
  for (const auto& row : mechanism_table()) {
    if (!offers(row, command)) continue;
    for (const auto& o : row.options) {
      bool known = false;
      for (const auto& s : out) known = known || s.name == o;
      if (!known) out.push_back({o, true});
    }
  }
  return out;
}

std::vector<std::string> mechanism_names(MechanismCommand command) {
  std::vector<std::string> out;
  for (const auto& row : mechanism_table()) {
    if (offers(row, command)) out.push_back(row.name);
  }
  return out;
}

std::string mechanism_list(MechanismCommand command) {
  std::string out;
  for (const auto& name : mechanism_names(command)) out += (out.empty() ? "" : ", ") + name;
  return out;
}

const MechanismRow* find_mechanism(MechanismCommand command, const std::string& name) {
  for (const auto& row : mechanism_table()) {
    if (row.name == name && offers(row, command)) return &row;
  }
  return nullptr;
}

void reject_foreign_options(MechanismCommand command, const MechanismRow& row, const ParsedArgs& parsed,
                            const std::function<std::string(const std::string&)>& message) {
  for (const auto& spec : mechanism_option_specs(command)) {
    if (!parsed.has(spec.name)) continue;
    bool ok = false;
    for (const auto& o : row.options) ok = ok || o == spec.name;
    if (!ok) throw UsageError(message(spec.name));
  }
}

MechanismSpec with_hardened_noise(MechanismSpec m, unsigned tau_bits) {
  mpq_class tau;
  if (m.name == "discrete-gaussian") {
    tau = HardenedDiscreteGaussianParams::make(m.noise, 0, {tau_bits}).tau_upper();
  } else if (m.name == "discrete-laplace") {
    tau = HardenedDiscreteLaplaceParams::make(m.noise, 0, {tau_bits}).tau_upper();
  } else {
    throw UsageError("--hardened applies to discrete-gaussian and discrete-laplace, not " + m.name);
  }
  const accounting::ProfileFunction plain_at = m.delta_at;
  const auto plain = m.delta;
  m.delta_at = [=](const mpq_class& e, mpfr_prec_t p) { return accounting::hardened_delta(plain_at(e, p), e, tau); };
  m.delta = [=](const mpq_class& e, const ZivOptions& o) {
    Certified c = plain(e, o);
    c.value = accounting::hardened_delta(c.value, e, tau);
    return c;
  };
  m.pure_epsilon.reset();  // delta is at least (1 + e^eps) tau > 0 at every eps
  m.hardened_tau = tau;
  m.parameters.emplace_back("tau_bits", std::to_string(tau_bits));
  return m;
}

mpq_class sensitivity_of(SensitivityKind kind, const ParsedArgs& parsed) {
  switch (kind) {
    case SensitivityKind::kReal: return real_sensitivity_option(parsed);
    case SensitivityKind::kInteger: return mpq_class(integer_sensitivity_option(parsed));
    case SensitivityKind::kNone: break;
  }
  return mpq_class(1);
}

}  // namespace exactdp::cli
