// exactdp laws — every law of the registry (laws/registry.h): its name, what it supports and its
// parameters (name, exact type, range, default, role), as text or --json: the report of
// operations::list_laws (operations/laws.h), which Python's exactdp.laws() shows too.
#include <ostream>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include <exactdp/operations/laws.h>

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

std::string default_text(const operations::LawParameterEntry& p) {
  if (p.required) return "required";
  return p.computed() ? "computed" : "default " + *p.default_value;
}

void print_text(const operations::LawsReport& report, std::ostream& out) {
  for (const auto& law : report.laws) {
    out << law.name << " — " << law.summary << "\n  supports: " << law.supports << "\n";
    for (const auto& p : law.parameters) {
      out << "  --" << p.name << " (" << p.type << ", " << p.role << ", " << default_text(p) << "): " << p.range
          << "; " << p.help << "\n";
    }
  }
}

void print_json(const operations::LawsReport& report, std::ostream& out) {
  JsonValue list = JsonValue::array();
  for (const auto& law : report.laws) {
    JsonValue params = JsonValue::array();
    for (const auto& p : law.parameters) {
      JsonValue j = JsonValue::object();
      j.set("name", p.name.c_str()).set("type", p.type.c_str()).set("role", p.role.c_str());
      j.set("required", p.required);
      j.set("default", p.default_value ? JsonValue(p.default_value->c_str()) : JsonValue::null());
      j.set("range", p.range.c_str()).set("help", p.help.c_str());
      params.push(std::move(j));
    }
    JsonValue l = JsonValue::object();
    l.set("name", law.name.c_str()).set("summary", law.summary.c_str());
    l.set("supports", law.supports.c_str()).set("parameters", std::move(params));
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
  const operations::LawsReport report = operations::list_laws();
  if (parsed.has("--json")) {
    print_json(report, io.out);
  } else {
    print_text(report, io.out);
  }
  return 0;
}

}  // namespace exactdp::cli
