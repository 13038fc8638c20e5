#include "cli/sampler_spec.h"

#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

using laws::Capability;
using laws::Law;
using laws::Use;

bool accepted_for_sampling(const laws::ParameterSpec& p) { return p.role != laws::Role::kPrivacy; }

std::vector<std::string> names_with(Capability c) {
  std::vector<std::string> out;
  for (const Law* law : laws::all_laws()) {
    if (law->supports(c)) out.push_back(law->name());
  }
  return out;
}

std::optional<Hardening> hardening_of(const ParsedArgs& args) {
  if (!args.has("--hardened")) {
    if (args.has("--tau-bits")) throw UsageError("--tau-bits applies only with --hardened");
    return std::nullopt;
  }
  Hardening h;
  if (args.has("--tau-bits")) {
    h.tau_bits = static_cast<unsigned>(*args.count("--tau-bits", kMinTauBits, kMaxTauBits));
  }
  return h;
}

// The law's options as given (name without "--", text); UsageError for a missing required one or
// one of another law.
std::vector<std::pair<std::string, std::string>> given_parameters(const Law& law, const ParsedArgs& args) {
  std::vector<std::pair<std::string, std::string>> given;
  for (const auto& spec : law_option_specs()) {
    if (!args.has(spec.name) || spec.name == "--hardened" || spec.name == "--tau-bits") continue;
    bool own = false;
    for (const auto& p : law.parameters()) own = own || (accepted_for_sampling(p) && "--" + p.name == spec.name);
    if (!own) throw UsageError("option " + spec.name + " does not apply to " + law.name());
  }
  for (const auto& p : law.parameters()) {
    if (!accepted_for_sampling(p)) continue;
    const std::string option = "--" + p.name;
    if (args.has(option)) {
      given.emplace_back(p.name, args.require(option));
    } else if (!p.fallback) {
      (void)args.require(option);  // the usual "missing required option" UsageError
    }
  }
  return given;
}

}  // namespace

std::string join_with_and(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : (i + 1 == names.size() ? " and " : ", ")) + names[i];
  }
  return out;
}

std::string law_names_and(Capability c) { return join_with_and(names_with(c)); }

std::vector<OptionSpec> law_option_specs() {
  std::vector<OptionSpec> out;
  for (const Law* law : laws::all_laws()) {
    if (!law->supports(Capability::kSample)) continue;
    for (const auto& p : law->parameters()) {
      if (!accepted_for_sampling(p)) continue;
      bool known = false;
      for (const auto& s : out) known = known || s.name == "--" + p.name;
      if (!known) out.push_back({"--" + p.name, true});
    }
  }
  out.push_back({"--hardened", false});
  out.push_back({"--tau-bits", true});
  return out;
}

SamplerSpec parse_sampler_spec(const std::string& name, const ParsedArgs& args) {
  const Law* law = laws::find_law(name);
  if (law == nullptr || !law->supports(Capability::kSample)) {
    throw UsageError("unknown law '" + abbreviate(name) + "'" + (law == nullptr ? "" : " here: it has no sampler") +
                     ": allowed " + laws::law_names_with(Capability::kSample));
  }
  const std::optional<Hardening> hardening = hardening_of(args);
  const auto given = given_parameters(*law, args);
  if (hardening && !law->supports(Capability::kHardened)) {
    throw UsageError("--hardened applies to " + law_names_and(Capability::kHardened) + ", not " +
                     law->name());
  }
  SamplerSpec spec;
  spec.law = law;
  spec.params = law->parse(given, Use::kSample);
  spec.sampler = law->make_sampler(spec.params, hardening);
  return spec;
}

}  // namespace exactdp::cli
