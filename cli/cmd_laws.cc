// exactdp laws — every law of the registry (laws/registry.h): its name, what it supports and its
// parameters (name, exact type, range, default, role), as text or --json. Nothing here is
// written per law: a law added to the registry appears here by itself.
#include <ostream>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include <exactdp/laws/registry.h>

namespace exactdp::cli {
namespace {

constexpr const char* kHelp =
    "usage: exactdp laws [--json]\n"
    "\n"
    "Every noise law of the registry with what it supports and its parameters. The same names\n"
    "are used by sample, audit, audit-timing, profile, compose --event (and poisson-<law>),\n"
    "the C interface (exactdp_sampler_new) and Python (exactdp.laws).\n"
    "  supports: sample (exact sampler), hardened (isochronous sampler), audit (exact reference\n"
    "  law), profile (certified delta(epsilon)), event (composition), poisson (Poisson\n"
    "  subsampling), audit-timing\n"
    "  roles: noise (defines the law), sampling (exactdp sample / audit only: the mean),\n"
    "  privacy (profile / compose only: the query's sensitivity)\n";

const char* role_name(laws::Role role) {
  switch (role) {
    case laws::Role::kNoise: return "noise";
    case laws::Role::kSampling: return "sampling";
    case laws::Role::kPrivacy: return "privacy";
  }
  return "noise";
}

const char* kind_name(laws::ValueKind kind) { return kind == laws::ValueKind::kInteger ? "integer" : "rational"; }

std::string default_text(const laws::ParameterSpec& p) {
  if (!p.fallback) return "required";
  return p.fallback->empty() ? "computed" : "default " + *p.fallback;
}

void print_text(std::ostream& out) {
  for (const laws::Law* law : laws::all_laws()) {
    out << law->name() << " — " << law->summary() << "\n  supports: " << law->capability_list() << "\n";
    for (const auto& p : law->parameters()) {
      out << "  --" << p.name << " (" << kind_name(p.kind) << ", " << role_name(p.role) << ", " << default_text(p)
          << "): " << p.range << "; " << p.help << "\n";
    }
  }
}

void print_json(std::ostream& out) {
  JsonValue list = JsonValue::array();
  for (const laws::Law* law : laws::all_laws()) {
    JsonValue params = JsonValue::array();
    for (const auto& p : law->parameters()) {
      JsonValue j = JsonValue::object();
      j.set("name", p.name.c_str()).set("type", kind_name(p.kind)).set("role", role_name(p.role));
      j.set("required", !p.fallback.has_value());
      j.set("default", p.fallback && !p.fallback->empty() ? JsonValue(p.fallback->c_str()) : JsonValue::null());
      j.set("range", p.range.c_str()).set("help", p.help.c_str());
      params.push(std::move(j));
    }
    JsonValue l = JsonValue::object();
    l.set("name", law->name().c_str()).set("summary", law->summary().c_str());
    l.set("supports", law->capability_list().c_str()).set("parameters", std::move(params));
    list.push(std::move(l));
  }
  JsonValue top = JsonValue::object();
  top.set("command", "laws").set("laws", std::move(list));
  out << top.dump() << "\n";
}

}  // namespace

int cmd_laws(Args args, Io& io) {
  std::vector<OptionSpec> specs = {{"--json", false}};
  for (const auto& s : help_option_specs()) specs.push_back(s);
  const ParsedArgs parsed(args, specs);
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  if (!parsed.positionals().empty()) throw UsageError("laws takes no arguments (see --help)");
  if (parsed.has("--json")) {
    print_json(io.out);
  } else {
    print_text(io.out);
  }
  return 0;
}

}  // namespace exactdp::cli
