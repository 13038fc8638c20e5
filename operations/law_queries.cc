#include <exactdp/operations/law_queries.h>

#include <exactdp/accounting/accountant.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/noise_calibration.h>
#include <exactdp/laws/registry.h>

namespace exactdp::operations {

bool calibration_is_closed_form(const laws::Law& law) {
  if (!law.supports(laws::Capability::kCalibrate)) return false;
  try {
    const laws::LawParameters privacy = law.parse_values({{"sensitivity", mpq_class(1)}}, laws::Use::kCalibrate);
    law.check_calibration({.epsilon = 1, .delta = 0, .tolerance = std::nullopt}, privacy);
    return true;
  } catch (const ParameterError&) {
    return false;  // the Gaussian laws need 0 < delta
  }
}

bool events_are_pure_dp(const laws::Law& law) {
  if (law.supports(laws::Capability::kProfile) || !law.supports(laws::Capability::kEvent)) return false;
  std::vector<std::pair<std::string, std::string>> ones;
  for (const auto& p : law.parameters()) {
    if (!p.fallback) ones.emplace_back(p.name, "1");
  }
  return law.privacy_event(law.parse(ones, laws::Use::kPrivacy)).is_pure();
}

const laws::Law* definition_law(std::string_view parameter) {
  for (const laws::Law* law : laws::all_laws()) {
    const auto& params = law->parameters();
    if (!law->supports(laws::Capability::kSample) && params.size() == 1 && params.front().name == parameter) {
      return law;
    }
  }
  return nullptr;
}

}  // namespace exactdp::operations
