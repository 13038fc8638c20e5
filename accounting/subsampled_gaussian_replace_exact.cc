#include <exactdp/accounting/subsampled_gaussian_replace_exact.h>

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

}  // namespace

Interval subsampled_gaussian_replace_delta(const mpq_class& mu, const mpq_class& q, const mpq_class& epsilon,
                                           mpfr_prec_t precision) {
  check(mu, q);
  require_nonnegative("epsilon", epsilon);
  const Interval eps(epsilon, precision);
  const mpq_class a = 1 - q;
  const Interval k = exp(-Interval(mu * mu / 2, precision)) * q;
  const Interval t = expm1(eps) * a;  // a (e^eps - 1) >= 0: the root has no cancellation
  const Interval c = exp(eps);
  const Interval u = (t + sqrt(square(t) + square(k) * c * mpq_class(4))) / (k * mpq_class(2));
  const Interval x = log(u) / mu;  // x*, enclosed
  const Interval d = normal_sf(x - mu) * q - c * normal_sf(x + mu) * q - t * normal_sf(x);
  return clamp(d, mpq_class(0), mpq_class(1));
}

Certified subsampled_gaussian_replace_delta(const mpq_class& mu, const mpq_class& q, const mpq_class& epsilon,
                                            const ZivOptions& options) {
  check(mu, q);
  require_nonnegative("epsilon", epsilon);
  return evaluate_to_tolerance([&](mpfr_prec_t p) { return subsampled_gaussian_replace_delta(mu, q, epsilon, p); },
                               options);
}

std::optional<Certified> subsampled_gaussian_replace_epsilon(const mpq_class& mu, const mpq_class& q,
                                                             const mpq_class& delta, const ZivOptions& options) {
  check(mu, q);
  return profile_epsilon(
      [&](const mpq_class& e, mpfr_prec_t p) { return subsampled_gaussian_replace_delta(mu, q, e, p); }, delta,
      options);
}

}  // namespace exactdp::accounting
