#include "accounting/gaussian_profile.h"

#include <stdexcept>
#include <string>

#include "accounting/normal.h"
#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::accounting {

void require_nonnegative(const char* name, const mpq_class& value) {
  if (sgn(value) < 0) {
    throw ParameterError::out_of_range(name, abbreviate(to_string(value)),
                                       std::string(name) + " >= 0");
  }
}

void require_positive(const char* name, const mpq_class& value) {
  if (sgn(value) <= 0) {
    throw ParameterError::out_of_range(name, abbreviate(to_string(value)),
                                       std::string(name) + " > 0");
  }
}

Interval gdp_delta_at(const mpq_class& epsilon, const mpq_class& mu, mpfr_prec_t precision) {
  require_nonnegative("epsilon", epsilon);
  require_positive("mu", mu);
  // Balle & Wang 2018, Theorem 8 with Delta / sigma = mu: both arguments exact rationals.
  const mpq_class half_mu = mu / 2;
  const mpq_class eps_over_mu = epsilon / mu;
  const mpq_class a = half_mu - eps_over_mu;
  const mpq_class b = -half_mu - eps_over_mu;
  const Interval first = normal_cdf(a, precision);
  const Interval second = exp(Interval(epsilon, precision)) * normal_cdf(b, precision);
  // delta is a probability difference in [0, 1]: clamping the rounding noise is sound.
  return clamp(first - second, mpq_class(0), mpq_class(1));
}

Interval gdp_delta_at(const Interval& epsilon, const Interval& mu, mpfr_prec_t precision) {
  if (mpfr_sgn(epsilon.lower()) < 0) {
    throw std::domain_error("gdp_delta_at: epsilon interval reaches below 0");
  }
  if (mpfr_sgn(mu.upper()) <= 0) throw std::domain_error("gdp_delta_at: mu interval <= 0");
  Interval r(precision);
  // Lower end: largest eps, smallest mu (delta decreasing in eps, increasing in mu).
  if (mpfr_sgn(mu.lower()) <= 0 || mpfr_inf_p(epsilon.upper())) {
    mpfr_set_zero(r.lower(), 1);
  } else {
    const Interval lo = gdp_delta_at(to_mpq(epsilon.upper()), to_mpq(mu.lower()), precision);
    mpfr_set(r.lower(), lo.lower(), MPFR_RNDD);
  }
  if (mpfr_inf_p(mu.upper())) {
    mpfr_set_ui(r.upper(), 1, MPFR_RNDU);
  } else {
    const Interval hi = gdp_delta_at(to_mpq(epsilon.lower()), to_mpq(mu.upper()), precision);
    mpfr_set(r.upper(), hi.upper(), MPFR_RNDU);
  }
  return r;
}

Certified gdp_delta(const mpq_class& epsilon, const mpq_class& mu, const ZivOptions& options) {
  require_nonnegative("epsilon", epsilon);
  require_positive("mu", mu);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return gdp_delta_at(epsilon, mu, p); }, options);
}

Interval gaussian_delta_at(const mpq_class& epsilon, const mpq_class& sigma,
                           const mpq_class& sensitivity, mpfr_prec_t precision) {
  require_positive("sigma", sigma);
  require_positive("sensitivity", sensitivity);
  return gdp_delta_at(epsilon, mpq_class(sensitivity / sigma), precision);
}

Certified gaussian_delta(const mpq_class& epsilon, const mpq_class& sigma,
                         const mpq_class& sensitivity, const ZivOptions& options) {
  require_nonnegative("epsilon", epsilon);
  require_positive("sigma", sigma);
  require_positive("sensitivity", sensitivity);
  const mpq_class mu = sensitivity / sigma;
  return evaluate_to_tolerance([&](mpfr_prec_t p) { return gdp_delta_at(epsilon, mu, p); },
                               options);
}

}  // namespace exactdp::accounting
