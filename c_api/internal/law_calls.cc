#include <exactdp/c_api/internal/law_calls.h>

#include <string>
#include <utility>

#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/calibrate.h>

namespace exactdp::internal {
const laws::Law& law_with(std::string_view name, laws::Capability c, const char* what) {
  const laws::Law& law = laws::law_named(name);
  if (!law.supports(c)) {
    throw laws::UnsupportedError("law", "law " + law.name() + " has no " + what + " (laws with one: " +
                                            laws::law_names_with(c) + ")");
  }
  return law;
}

laws::NoiseCalibration calibrate_law(std::string_view law_name, const NamedText& given, const mpq_class& epsilon,
                                     const mpq_class& delta, const operations::Spelling& spelling) {
  const laws::Law& law = law_with(law_name, laws::Capability::kCalibrate, "calibration");
  // The sensitivity's value is the operation's to check, as for the command line and Python; the
  // law refuses any other name.
  NamedText others;
  mpq_class sensitivity = 1;
  for (const auto& [name, text] : given) {
    if (name == "sensitivity") {
      sensitivity = parse_rational(name, text);
    } else {
      others.emplace_back(name, text);
    }
  }
  (void)law.parse(others, laws::Use::kCalibrate);
  operations::CalibrateRequest request{law.name(), epsilon, delta, sensitivity, std::nullopt, 20, spelling};
  operations::CalibratePlan plan = operations::plan_calibration(request);
  return operations::calibrate(request, std::move(plan)).calibration;
}

}  // namespace exactdp::internal
