#include <exactdp/c_api/internal/law_calls.h>

#include <string>

#include <exactdp/accounting/event_profile.h>
#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>

namespace exactdp::internal {
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
