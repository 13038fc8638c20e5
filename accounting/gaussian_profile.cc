#include <exactdp/accounting/gaussian_profile.h>

#include <stdexcept>
#include <string>

#include <exactdp/accounting/normal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {

namespace {

// x1 = eps/mu - mu/2 and x2 = eps/mu + mu/2, exact, after validating eps >= 0 and mu > 0.
struct ProfileArguments {
  mpq_class x1;
  mpq_class x2;
};

ProfileArguments profile_arguments(const mpq_class& epsilon, const mpq_class& mu) {
  require_nonnegative("epsilon", epsilon);
  require_positive("mu", mu);
  const mpq_class eps_over_mu = epsilon / mu;
  const mpq_class half_mu = mu / 2;
  return {eps_over_mu - half_mu, eps_over_mu + half_mu};
}

}  // namespace

Interval gdp_delta_at(const mpq_class& epsilon, const mpq_class& mu, mpfr_prec_t precision) {
  const auto [x1, x2] = profile_arguments(epsilon, mu);
  // Balle & Wang 2018, Theorem 8 with Delta / sigma = mu, written without e^eps:
  //   delta = Phi(-x1) - e^eps Phi(-x2),  x1 = eps/mu - mu/2,  x2 = eps/mu + mu/2 (exact).
  // Since x2^2 - x1^2 = 2 eps, e^eps phi(x2) = phi(x1), so with the Mills ratio R = Q / phi,
  //   e^eps Phi(-x2) = e^eps phi(x2) R(x2) = phi(x1) R(x2),   Phi(-x1) = phi(x1) R(x1),
  //   delta = phi(x1) [R(x1) - R(x2)].
  // No overflow for eps = 10^400, no underflow of the second term. The difference cancels when
  // mu is small; the mean value theorem gives a second enclosure that does not: R' = tR - 1
  // and 1 - tR(t) is decreasing (its derivative is t - (1 + t^2) R(t) < 0: trivially for t <= 0,
  // by Gordon's inequality R(t) > t/(1 + t^2) for t > 0), so
  //   R(x1) - R(x2) in mu * [1 - x2 R(x2), 1 - x1 R(x1)],
  // whose relative width is O(mu) at any precision. We intersect the two.
  const mpfr_prec_t w = precision + 16;
  Interval delta(w);
  if (x1 < -40) {
    // Deep in the body (mu >> 1): delta ~ 1; no cancellation, and phi(x1) R(x1) = Q(x1) is
    // taken directly (R(x1) itself would be ~e^(x1^2/2)).
    const Interval phi1 = normal_pdf(Interval(x1, w + 64));
    delta = normal_sf(x1, w) - phi1 * mills_ratio(x2, w);
  } else {
    const Interval phi1 = normal_pdf(Interval(x1, w + 64));
    const Interval r1 = mills_ratio(x1, w);
    const Interval r2 = mills_ratio(x2, w);
    Interval difference = r1 - r2;
    const Interval one(1L, w);
    const Interval a = one - Interval(x2, w) * r2;  // 1 - x2 R(x2): the lower end is used
    const Interval b = one - Interval(x1, w) * r1;  // 1 - x1 R(x1): the upper end is used
    Interval mvt(w);
    mpfr_set(mvt.lower(), a.lower(), MPFR_RNDD);
    mpfr_set(mvt.upper(), b.upper(), MPFR_RNDU);
    if (mpfr_lessequal_p(mvt.lower(), mvt.upper())) {
      difference = intersect(difference, mvt * mu);
    }
    delta = phi1 * difference;
  }
  // delta is a probability difference in [0, 1]: clamping the rounding noise is sound.
  delta = clamp(delta, mpq_class(0), mpq_class(1));
  delta.set_precision(precision);
  return delta;
}

Interval gdp_delta_complement_at(const mpq_class& epsilon, const mpq_class& mu,
                                 mpfr_prec_t precision) {
  const auto [x1, x2] = profile_arguments(epsilon, mu);
  // 1 - delta = [1 - Phi(-x1)] + e^eps Phi(-x2) = Phi(x1) + phi(x1) R(x2), using
  // e^eps phi(x2) = phi(x1) as in gdp_delta_at. Both terms are positive.
  const mpfr_prec_t w = precision + 16;
  const Interval phi1 = normal_pdf(Interval(x1, w + 64));
  Interval complement = normal_cdf(x1, w) + phi1 * mills_ratio(x2, w);
  complement = clamp(complement, mpq_class(0), mpq_class(1));
  complement.set_precision(precision);
  return complement;
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
