#include <exactdp/accounting/rdp_law_bounds.h>

#include <stdexcept>
#include <string>

#include <exactdp/accounting/rdp_accountant.h>

namespace exactdp::accounting {

Interval poisson_subsampled_rdp_bound(const mpq_class& q, unsigned long alpha, const RdpCurve& eps,
                                      mpfr_prec_t precision) {
  if (alpha < 2 || alpha > kMaxGeneralSubsampledOrder || sgn(q) <= 0 || q >= 1) {
    throw std::logic_error("poisson_subsampled_rdp_bound: needs 0 < q < 1 and 2 <= alpha <= 256");
  }
  // In logarithms: q may be a rational of many digits, and its exact powers would be huge.
  const Interval rate(q, precision);
  const Interval log_q = log(rate);
  const Interval log_keep = log1p(-rate);
  const mpq_class a(alpha);
  Interval sum = exp(log_keep * mpq_class(a - 1)) * (rate * mpq_class(a - 1) + mpq_class(1));
  mpz_class binomial;
  for (unsigned long l = 2; l <= alpha; ++l) {
    mpz_bin_uiui(binomial.get_mpz_t(), alpha, l);
    const Interval exponent = log(Interval(binomial, precision)) + log_keep * mpq_class(alpha - l) +
                              log_q * mpq_class(l) + eps(mpq_class(l), precision) * mpq_class(l - 1);
    sum = sum + exp(exponent) * mpq_class(l == 2 ? 1 : 3);
  }
  return log(sum) / mpq_class(a - 1);
}

Interval rdp_delta_over_orders(const RdpCurve& eps, const mpq_class& epsilon, mpfr_prec_t precision) {
  Interval best(1L, precision);
  for (int i = -12; i <= 16; ++i) {
    const mpq_class power = i >= 0 ? mpq_class(mpz_class(1) << i) : mpq_class(mpz_class(1), mpz_class(1) << -i);
    for (const mpq_class& step : {power, mpq_class(power * mpq_class(3, 2))}) {
      const mpq_class alpha = 1 + step;
      best = min(best, rdp_to_delta(eps(alpha, precision), alpha, epsilon));
    }
  }
  return best;
}

bool is_general_subsampled_order(const mpq_class& alpha) {
  return alpha.get_den() == 1 && alpha >= 2 && alpha <= kMaxGeneralSubsampledOrder;
}

Interval subsampled_rdp_of_curve(const mpq_class& q, const mpq_class& alpha, const RdpCurve& eps,
                                 mpfr_prec_t precision, const char* law) {
  if (!is_general_subsampled_order(alpha)) {
    throw std::logic_error(std::string(law) + "::subsampled_rdp: order not supported");
  }
  return min(poisson_subsampled_rdp_bound(q, alpha.get_num().get_ui(), eps, precision), eps(alpha, precision));
}

}  // namespace exactdp::accounting
