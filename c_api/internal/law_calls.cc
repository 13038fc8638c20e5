#include <exactdp/c_api/internal/law_calls.h>

#include <string>

#include <exactdp/accounting/event_profile.h>
#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>

namespace exactdp::internal {
namespace {

// The law's refusal when it lacks the sampler asked for: naming "law", with what it supports.
void require_capability(const laws::Law& law, bool hardened) {
  const laws::Capability needed = hardened ? laws::Capability::kHardened : laws::Capability::kSample;
  if (law.supports(needed)) return;
  throw laws::UnsupportedError("law", "law " + law.name() + " has no " + (hardened ? "hardened sampler" : "sampler") +
                                          " (it supports: " + law.capability_list() + "; laws with a " +
                                          (hardened ? "hardened sampler: " : "sampler: ") +
                                          laws::law_names_with(needed) + ")");
}

// The law of that name; an unknown name names "law" with the laws a sampler call accepts (those
// with a sampler), not the whole registry.
const laws::Law& sampled_law(std::string_view name) {
  const laws::Law* law = laws::find_law(name);
  if (law == nullptr) {
    throw ParameterError("law", "unknown law '" + abbreviate(name) + "': allowed " +
                                    laws::law_names_with(laws::Capability::kSample));
  }
  return *law;
}

}  // namespace

LawSampler make_law_sampler(std::string_view law_name, const NamedText& given,
                            const std::optional<Hardening>& hardening) {
  const laws::Law& law = sampled_law(law_name);
  require_capability(law, hardening.has_value());
  LawSampler s;
  s.law = &law;
  s.parameters = law.parse(given, laws::Use::kSample);
  s.sampler = law.make_sampler(s.parameters, hardening);
  return s;
}

const laws::Law& law_with(std::string_view name, laws::Capability c, const char* what) {
  const laws::Law& law = laws::law_named(name);
  if (!law.supports(c)) {
    throw laws::UnsupportedError("law", "law " + law.name() + " has no " + what + " (laws with one: " +
                                            laws::law_names_with(c) + ")");
  }
  return law;
}

void require_epsilon(const mpq_class& epsilon, std::string_view text) {
  if (sgn(epsilon) < 0) throw ParameterError::out_of_range("epsilon", abbreviate(text), "epsilon >= 0");
}

Interval certified_delta(const laws::Law& law, const laws::LawParameters& p, const mpq_class& epsilon,
                         const mpq_class* tau_upper) {
  const accounting::Certified d = accounting::event_delta(law.privacy_event(p), epsilon, accounting::ZivOptions{});
  if (tau_upper == nullptr) return d.value;
  return accounting::hardened_delta(d.value, epsilon, *tau_upper);
}

laws::NoiseCalibration calibrate_law(std::string_view law_name, const NamedText& given, const mpq_class& epsilon,
                                     const mpq_class& delta) {
  const laws::Law& law = law_with(law_name, laws::Capability::kCalibrate, "calibration");
  return law.calibrate({epsilon, delta, std::nullopt}, law.parse(given, laws::Use::kCalibrate));
}

}  // namespace exactdp::internal
