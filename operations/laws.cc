#include <exactdp/operations/laws.h>

#include <exactdp/laws/registry.h>

namespace exactdp::operations {
namespace {

const char* role_name(laws::Role role) {
  switch (role) {
    case laws::Role::kNoise: return "noise";
    case laws::Role::kSampling: return "sampling";
    case laws::Role::kPrivacy: return "privacy";
  }
  return "noise";
}

LawParameterEntry entry_of(const laws::ParameterSpec& p) {
  LawParameterEntry e;
  e.name = p.name;
  e.type = p.kind == laws::ValueKind::kInteger ? "integer" : "rational";
  e.role = role_name(p.role);
  e.required = !p.fallback.has_value();
  if (p.fallback && !p.fallback->empty()) e.default_value = *p.fallback;
  e.range = p.range;
  e.help = p.help;
  return e;
}

}  // namespace

LawsReport list_laws() {
  LawsReport report;
  for (const laws::Law* law : laws::all_laws()) {
    LawEntry entry{law->name(), law->summary(), law->capability_list(), {}};
    for (const auto& p : law->parameters()) entry.parameters.push_back(entry_of(p));
    report.laws.push_back(std::move(entry));
  }
  return report;
}

}  // namespace exactdp::operations
