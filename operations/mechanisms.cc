#include <exactdp/operations/mechanisms.h>

#include <exactdp/accounting/event_profile.h>
#include <exactdp/accounting/gdp_measurement.h>
#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/operations/law_names.h>
#include <exactdp/operations/law_queries.h>
#include <exactdp/samplers/hardening.h>

namespace exactdp::operations {
namespace {

using accounting::Certified;
using accounting::ZivOptions;

constexpr MechanismCommand kProfile = MechanismCommand::kProfile;
constexpr MechanismCommand kMeasureGdp = MechanismCommand::kMeasureGdp;
constexpr MechanismCommand kCalibrate = MechanismCommand::kCalibrate;

const std::string* find_given(const GivenParameters& given, const std::string& name) {
  for (const auto& [k, v] : given) {
    if (k == name) return &v;
  }
  return nullptr;
}

const std::string& required(const GivenParameters& given, const std::string& name, const Spelling& spelling) {
  const std::string* v = find_given(given, name);
  if (v == nullptr) throw ParameterError(name, spelling.missing(name));
  return *v;
}

// The laws `calibrate` offers: a calibration map (Capability::kCalibrate) whose certificate the
// command prints in full (the analytic Gaussian's sigma bracket, the discrete Gaussian's sigma2
// bracket). The closed forms (the Laplace laws) have nothing more to certify than
// scale = sensitivity / epsilon; calibrate refuses them by name (cmd_calibrate.cc).
bool has_calibration(const laws::Law& law) {
  return law.supports(laws::Capability::kCalibrate) && !calibration_is_closed_form(law);
}

// A registry law with a certified profile: its parameters are its noise and privacy parameters,
// validated by the law (ParameterError naming the parameter); its profile is its privacy
// event's (accounting/event_profile.h).
MechanismSpec law_mechanism(const laws::Law& law, const GivenParameters& given, const Spelling& spelling) {
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto& p : law.parameters()) {
    if (p.role == laws::Role::kSampling) continue;
    if (const std::string* v = find_given(given, p.name)) {
      values.emplace_back(p.name, *v);
    } else if (!p.fallback) {
      throw ParameterError(p.name, spelling.missing(p.name));
    }
  }
  const laws::LawParameters params = law.parse(values, laws::Use::kPrivacy);
  const accounting::PrivacyEvent event = law.privacy_event(params);
  MechanismSpec m;
  m.name = law.name();
  m.parameters = params.as_text();
  m.noise_name = m.parameters.front().first;
  m.noise = params.rational(m.noise_name);
  if (params.has("sensitivity")) {
    m.sensitivity = params.rational("sensitivity");
    m.sensitivity_given = find_given(given, "sensitivity") != nullptr;
  }
  m.delta_at = accounting::event_profile(event);
  m.delta = [event](const mpq_class& e, const ZivOptions& o) { return accounting::event_delta(event, e, o); };
  if (event.is_pure()) m.pure_epsilon = event.pure_epsilon();
  m.maps = event.shared_maps();
  return m;
}

// k-fold composition of an epsilon-DP mechanism (not a law: a composition measured as one).
MechanismSpec pure_dp_composition(const GivenParameters& given, const Spelling& spelling) {
  MechanismSpec m;
  m.name = "pure-dp-composition";
  m.noise_name = "epsilon";
  m.noise = parse_rational("epsilon", required(given, "epsilon", spelling));
  accounting::require_positive("epsilon", m.noise);
  m.parameters = {{"epsilon", to_string(m.noise)}};
  const std::string& k_text = required(given, "k", spelling);
  m.k = static_cast<unsigned long>(checked_count("k", k_text, 1, accounting::kMaxCompositionK));
  m.parameters.emplace_back("k", std::to_string(m.k));
  m.delta_at = accounting::kov_profile(m.noise, m.k);  // validates epsilon and k
  m.pure_epsilon = m.noise * mpq_class(static_cast<long>(m.k));
  return m;
}

// "--sigma R   [--sensitivity R]": the first option padded to 12 columns when more follow.
std::string law_help(const laws::Law& law) {
  std::string help;
  for (const auto& p : law.parameters()) {
    if (p.role == laws::Role::kSampling) continue;
    const std::string value = p.kind == laws::ValueKind::kInteger ? " INT" : " R";
    const std::string option = "--" + p.name + value;
    if (!help.empty()) help += help.size() < 12 ? std::string(12 - help.size(), ' ') : " ";
    help += p.fallback ? "[" + option + "]" : option;
  }
  return help;
}

SensitivityKind sensitivity_kind(const laws::Law& law) {
  for (const auto& p : law.parameters()) {
    if (p.name == "sensitivity") {
      return p.kind == laws::ValueKind::kInteger ? SensitivityKind::kInteger : SensitivityKind::kReal;
    }
  }
  return SensitivityKind::kNone;
}

// The commands that offer a law: profile and measure-gdp every law with a certified profile;
// measure-gdp also a law whose events are pure epsilon-DP (pure-dp: the profile every epsilon-DP
// mechanism meets), which profile does not take; calibrate the laws it has a calibration of.
std::vector<MechanismCommand> commands_of(const laws::Law& law) {
  std::vector<MechanismCommand> out;
  if (law.supports(laws::Capability::kProfile)) out = {kProfile, kMeasureGdp};
  if (events_are_pure_dp(law)) out = {kMeasureGdp};
  if (has_calibration(law)) out.push_back(kCalibrate);
  return out;
}

// One row per registry law some command offers, in the registry's order.
std::vector<MechanismRow> law_rows() {
  std::vector<MechanismRow> rows;
  for (const laws::Law* law : laws::all_laws()) {
    std::vector<MechanismCommand> commands = commands_of(*law);
    if (commands.empty()) continue;
    MechanismRow row{law->name(), {}, sensitivity_kind(*law), std::move(commands), law_help(*law), nullptr};
    for (const auto& p : law->parameters()) {
      if (p.role != laws::Role::kSampling) row.parameters.push_back(p.name);
    }
    row.build = [law](const GivenParameters& given, const Spelling& s) { return law_mechanism(*law, given, s); };
    rows.push_back(std::move(row));
  }
  return rows;
}

bool offers(const MechanismRow& row, MechanismCommand command) {
  for (const auto c : row.commands) {
    if (c == command) return true;
  }
  return false;
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
    std::vector<MechanismRow> rows = law_rows();
    rows.push_back({"pure-dp-composition", {"epsilon", "k"}, SensitivityKind::kNone, {kMeasureGdp},
                    "--epsilon R --k K", pure_dp_composition});
    return rows;
  }();
  return table;
}

std::vector<std::string> mechanism_parameters(MechanismCommand command) {
  std::vector<std::string> out;
  for (const auto& row : mechanism_table()) {
    if (!offers(row, command)) continue;
    for (const auto& p : row.parameters) {
      bool known = false;
      for (const auto& o : out) known = known || o == p;
      if (!known) out.push_back(p);
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

std::optional<std::string> foreign_parameter(const MechanismRow& row, const GivenParameters& given) {
  for (const auto& [name, value] : given) {
    bool ok = false;
    for (const auto& p : row.parameters) ok = ok || p == name;
    if (!ok) return name;
  }
  return std::nullopt;
}

unsigned checked_tau_bits(const std::string& text, const Spelling& spelling) {
  return static_cast<unsigned>(checked_count(spelling.bare("tau_bits"), text, kMinTauBits, kMaxTauBits));
}

MechanismSpec with_hardened_noise(MechanismSpec m, unsigned tau_bits, const Spelling& spelling) {
  const laws::Law& law = laws::law_named(m.name);
  if (!law.supports(laws::Capability::kHardened)) {
    throw laws::UnsupportedError("hardened", spelling.flag("hardened") + " applies to " +
                                                 law_names_and(laws::Capability::kHardened) + ", not " + m.name);
  }
  // The hardened sampler of the same noise (mean 0): its certified tau_upper.
  const laws::LawParameters noise = law.parse({{m.noise_name, to_string(m.noise)}}, laws::Use::kSample);
  const mpq_class tau = law.make_sampler(noise, Hardening{tau_bits})->tau_upper();
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

}  // namespace exactdp::operations
