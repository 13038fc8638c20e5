// laws.cc — the law registry through the C++ facade (<exactdp/laws.h>): the registry's schema
// copied into plain structs; profiles through the operation `law delta` (operations/law_delta.h)
// and calibrations through the operation `calibrate`, as the C interface makes them.
#include <exactdp/laws.h>

#include <utility>

#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/law_delta.h>

namespace exactdp {
namespace {

LawInfo info_of(const laws::Law& law) {
  LawInfo info;
  info.name = law.name();
  info.summary = law.summary();
  for (const laws::ParameterSpec& spec : law.parameters()) {
    info.parameters.push_back({spec.name, spec.kind == laws::ValueKind::kInteger, spec.fallback, spec.range, spec.help});
  }
  info.samples = law.supports(laws::Capability::kSample);
  info.hardened = law.supports(laws::Capability::kHardened);
  info.profile = law.supports(laws::Capability::kProfile);
  info.calibrates = law.supports(laws::Capability::kCalibrate);
  return info;
}

}  // namespace

std::vector<LawInfo> law_list() {
  std::vector<LawInfo> out;
  for (const laws::Law* law : laws::all_laws()) out.push_back(info_of(*law));
  return out;
}

LawInfo law_info(std::string_view law) { return info_of(laws::law_named(law)); }

Interval law_delta(std::string_view law, const LawArguments& arguments, const mpq_class& epsilon,
                   const std::optional<mpq_class>& tau_upper) {
  const internal::MpfrCacheRelease release;
  const operations::LawDeltaRequest request{std::string(law), arguments, to_string(epsilon),
                                            tau_upper ? std::optional(to_string(*tau_upper)) : std::nullopt,
                                            std::nullopt, internal::kFacadeSpelling};
  return operations::law_delta(request).delta;
}

LawCalibration law_calibrate(std::string_view law, const LawArguments& arguments, const mpq_class& epsilon,
                             const mpq_class& delta) {
  const internal::MpfrCacheRelease release;
  laws::NoiseCalibration c = internal::calibrate_law(law, arguments, epsilon, delta, internal::kFacadeSpelling);
  return {std::move(c.parameter), std::move(c.value), std::move(c.delta_at)};
}

}  // namespace exactdp
