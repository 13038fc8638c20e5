#include <exactdp/accounting/hardened_charge.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {

Interval hardened_delta_charge(const mpq_class& epsilon, const mpq_class& tau_upper,
                               mpfr_prec_t precision) {
  if (sgn(epsilon) < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
  if (sgn(tau_upper) < 0) throw ParameterError::out_of_range("tau", abbreviate(to_string(tau_upper)), "tau >= 0");
  return (exp(Interval(epsilon, precision)) + mpq_class(1)) * tau_upper;
}

Interval hardened_delta(const Interval& delta, const mpq_class& epsilon, const mpq_class& tau_upper) {
  return delta + hardened_delta_charge(epsilon, tau_upper, delta.precision());
}

}  // namespace exactdp::accounting
