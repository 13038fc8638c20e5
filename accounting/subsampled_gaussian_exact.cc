#include <exactdp/accounting/subsampled_gaussian_exact.h>

#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/profile_inversion.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

void check(const mpq_class& mu, const mpq_class& q) {
  require_positive("mu", mu);
  if (sgn(q) <= 0 || q > 1) throw ParameterError::out_of_range("q", abbreviate(to_string(q)), "0 < q <= 1");
}

// The threshold (ln(a / q) + mu^2/2) / mu for a > 0 enclosed.
Interval threshold(const Interval& a, const mpq_class& mu, const mpq_class& q) {
  return (log(a / q) + mpq_class(mu * mu / 2)) / mu;
}

// Remove order: q Phi^c(x1 - mu) - (c - 1 + q) Phi^c(x1), c - 1 + q = expm1(eps) + q.
Interval remove_order(const mpq_class& mu, const mpq_class& q, const Interval& eps) {
  const Interval a = expm1(eps) + q;
  const Interval x1 = threshold(a, mu, q);
  return normal_sf(x1 - mu) * q - a * normal_sf(x1);
}

// Add order: c (q + expm1(-eps)) Phi(x2) - c q Phi(x2 - mu) when q + expm1(-eps) > 0, else 0;
// [0, 1] while the sign is not decided at this precision (a Ziv loop then raises it: the sign is
// never 0, as e^-eps = 1 - q has no rational solution with eps > 0 and q > 0 but eps = 0, q = 0).
Interval add_order(const mpq_class& mu, const mpq_class& q, const Interval& eps, mpfr_prec_t p) {
  const Interval a = expm1(-eps) + q;
  if (mpfr_sgn(a.upper()) <= 0) return Interval(0L, p);
  if (mpfr_sgn(a.lower()) <= 0) return hull(Interval(0L, p), Interval(1L, p));
  const Interval x2 = threshold(a, mu, q);
  return exp(eps) * (a * normal_cdf(x2) - normal_cdf(x2 - mu) * q);
}

}  // namespace

Interval subsampled_gaussian_delta(const mpq_class& mu, const mpq_class& q, const mpq_class& epsilon,
                                   mpfr_prec_t precision) {
  check(mu, q);
  require_nonnegative("epsilon", epsilon);
  const Interval eps(epsilon, precision);
  const Interval d = max(remove_order(mu, q, eps), add_order(mu, q, eps, precision));
  return clamp(d, mpq_class(0), mpq_class(1));
}

Certified subsampled_gaussian_delta(const mpq_class& mu, const mpq_class& q, const mpq_class& epsilon,
                                    const ZivOptions& options) {
  check(mu, q);
  require_nonnegative("epsilon", epsilon);
  return evaluate_to_tolerance([&](mpfr_prec_t p) { return subsampled_gaussian_delta(mu, q, epsilon, p); }, options);
}

std::optional<Certified> subsampled_gaussian_epsilon(const mpq_class& mu, const mpq_class& q, const mpq_class& delta,
                                                     const ZivOptions& options) {
  check(mu, q);
  return profile_epsilon([&](const mpq_class& e, mpfr_prec_t p) { return subsampled_gaussian_delta(mu, q, e, p); },
                         delta, options);
}

}  // namespace exactdp::accounting
