#include <exactdp/accounting/event_profile.h>

#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

[[noreturn]] void no_profile(const PrivacyEvent& e) {
  throw ParameterError("event", e.describe() + " has no certified profile delta(epsilon): zCDP bounds a profile "
                                               "but is not one (convert it with the zcdp conversion)");
}

}  // namespace

bool has_profile(const PrivacyEvent& event) { return event.maps().has_profile(); }

ProfileFunction event_profile(const PrivacyEvent& e) {
  if (!has_profile(e)) no_profile(e);
  return [maps = e.shared_maps()](const mpq_class& eps, mpfr_prec_t p) { return maps->delta_at(eps, p); };
}

Certified event_delta(const PrivacyEvent& e, const mpq_class& eps, const ZivOptions& o) {
  if (!has_profile(e)) no_profile(e);
  return e.maps().delta(eps, o);
}

}  // namespace exactdp::accounting
