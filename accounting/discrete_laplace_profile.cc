#include <exactdp/accounting/discrete_laplace_profile.h>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

void validate(const mpq_class& epsilon, const mpq_class& scale, const mpz_class& sensitivity) {
  require_nonnegative("epsilon", epsilon);
  require_positive("scale", scale);
  require_integer_sensitivity(sensitivity);
}

mpz_class ceil_q(const mpq_class& q) {
  mpz_class r;
  mpz_cdiv_q(r.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return r;
}

}  // namespace

Interval discrete_laplace_delta_at(const mpq_class& epsilon, const mpq_class& scale,
                                   const mpz_class& sensitivity, mpfr_prec_t precision) {
  validate(epsilon, scale, sensitivity);
  const mpq_class delta_q(sensitivity);
  if (epsilon * scale >= delta_q) return Interval(precision);  // eps >= Delta/t: exactly 0
  const mpz_class m = ceil_q(mpq_class((delta_q - epsilon * scale) / 2)) - 1;  // 0 <= m < Delta
  const mpq_class inv_t = 1 / scale;
  const Interval r = exp(Interval(mpq_class(-inv_t), precision));
  const Interval first = -expm1(Interval(mpq_class(-mpq_class(m + 1) * inv_t), precision));
  const Interval second =
      r * expm1(Interval(mpq_class(epsilon - mpq_class(sensitivity - m - 1) * inv_t), precision));
  const Interval value = (first - second) / (Interval(1L, precision) + r);
  return clamp(value, mpq_class(0), mpq_class(1));
}

Certified discrete_laplace_delta(const mpq_class& epsilon, const mpq_class& scale,
                                 const mpz_class& sensitivity, const ZivOptions& options) {
  validate(epsilon, scale, sensitivity);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return discrete_laplace_delta_at(epsilon, scale, sensitivity, p); },
      options);
}

}  // namespace exactdp::accounting
