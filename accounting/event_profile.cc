#include <exactdp/accounting/event_profile.h>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/laplace_profile.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

using Kind = PrivacyEvent::Kind;

mpz_class integer_sensitivity(const PrivacyEvent& e) { return e.sensitivity().get_num(); }

[[noreturn]] void no_profile(const PrivacyEvent& e) {
  throw ParameterError("event", e.describe() + " has no certified profile delta(epsilon): zCDP bounds a profile "
                                               "but is not one (convert it with the zcdp conversion)");
}

}  // namespace

bool has_profile(const PrivacyEvent& event) { return event.kind() != Kind::kZcdp; }

ProfileFunction event_profile(const PrivacyEvent& e) {
  const mpq_class noise = e.noise_parameter();
  const mpq_class sens = e.sensitivity();
  switch (e.kind()) {
    case Kind::kGaussian:
      return [=](const mpq_class& eps, mpfr_prec_t p) { return gaussian_delta_at(eps, noise, sens, p); };
    case Kind::kLaplace:
      return [=](const mpq_class& eps, mpfr_prec_t p) { return laplace_delta_at(eps, noise, sens, p); };
    case Kind::kDiscreteGaussian: {
      const mpz_class d = integer_sensitivity(e);
      return [=](const mpq_class& eps, mpfr_prec_t p) { return discrete_gaussian_delta_at(eps, noise, d, p); };
    }
    case Kind::kDiscreteLaplace: {
      const mpz_class d = integer_sensitivity(e);
      return [=](const mpq_class& eps, mpfr_prec_t p) { return discrete_laplace_delta_at(eps, noise, d, p); };
    }
    case Kind::kGdp: return gdp_profile(e.exact_mu());
    case Kind::kPureDp: return pure_dp_profile(e.pure_epsilon());
    case Kind::kLaw: return [e](const mpq_class& eps, mpfr_prec_t p) { return e.law_maps().delta_at(eps, p); };
    case Kind::kZcdp: break;
  }
  no_profile(e);
}

Certified event_delta(const PrivacyEvent& e, const mpq_class& eps, const ZivOptions& o) {
  switch (e.kind()) {
    case Kind::kGaussian: return gaussian_delta(eps, e.noise_parameter(), e.sensitivity(), o);
    case Kind::kLaplace: return laplace_delta(eps, e.noise_parameter(), e.sensitivity(), o);
    case Kind::kDiscreteGaussian: return discrete_gaussian_delta(eps, e.noise_parameter(), integer_sensitivity(e), o);
    case Kind::kDiscreteLaplace: return discrete_laplace_delta(eps, e.noise_parameter(), integer_sensitivity(e), o);
    case Kind::kGdp: return gdp_delta(eps, e.exact_mu(), o);
    case Kind::kPureDp:
    case Kind::kLaw: {
      const ProfileFunction f = event_profile(e);
      return evaluate_to_tolerance([&](mpfr_prec_t p) { return f(eps, p); }, o);
    }
    case Kind::kZcdp: break;
  }
  no_profile(e);
}

}  // namespace exactdp::accounting
