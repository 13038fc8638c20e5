// laws.h — the operation `laws`: every law of the registry (laws/registry.h) with what it
// supports and its parameters, as `exactdp laws` and exactdp.laws() show them (docs/DESIGN.md,
// "Operations"). Nothing here is written per law: a law added to the registry appears by itself.
//
// Example:
//   for (const LawEntry& law : list_laws().laws) use(law.name, law.supports, law.parameters);
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace exactdp::operations {

struct LawParameterEntry {
  std::string name{};
  std::string type{};  // "rational" or "integer"
  std::string role{};  // "noise" (defines the law), "sampling" (the mean) or "privacy" (sensitivity)
  bool required = true;
  std::optional<std::string> default_value{};  // none when required, or computed by the law
  std::string range{};                         // "sigma2 > 0"
  std::string help{};                          // one line

  // Optional, with a default the law computes from the others (the staircase's r).
  [[nodiscard]] bool computed() const { return !required && !default_value; }
};

struct LawEntry {
  std::string name{};
  std::string summary{};
  std::string supports{};  // "sample, hardened, audit, profile, event, poisson, ..."
  std::vector<LawParameterEntry> parameters{};
};

struct LawsReport {
  std::vector<LawEntry> laws;  // in registry order
};

[[nodiscard]] LawsReport list_laws();

}  // namespace exactdp::operations
