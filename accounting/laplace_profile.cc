#include <exactdp/accounting/laplace_profile.h>

#include <exactdp/accounting/gaussian_profile.h>

namespace exactdp::accounting {

Interval laplace_delta_at(const mpq_class& epsilon, const mpq_class& scale,
                          const mpq_class& sensitivity, mpfr_prec_t precision) {
  require_nonnegative("epsilon", epsilon);
  require_positive("scale", scale);
  require_positive("sensitivity", sensitivity);
  const mpq_class a = sensitivity / scale;  // the pure-DP epsilon of the mechanism
  if (epsilon >= a) return Interval(precision);  // exactly 0
  const mpq_class half_gap = (epsilon - a) / 2;  // < 0, exact
  return clamp(-expm1(Interval(half_gap, precision)), mpq_class(0), mpq_class(1));
}

Certified laplace_delta(const mpq_class& epsilon, const mpq_class& scale,
                        const mpq_class& sensitivity, const ZivOptions& options) {
  require_nonnegative("epsilon", epsilon);
  require_positive("scale", scale);
  require_positive("sensitivity", sensitivity);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return laplace_delta_at(epsilon, scale, sensitivity, p); }, options);
}

}  // namespace exactdp::accounting
