#include <exactdp/accounting/rdp_law_bounds.h>

#include <stdexcept>

#include <exactdp/accounting/rdp_accountant.h>

namespace exactdp::accounting {

Interval poisson_subsampled_rdp_bound(const mpq_class& q, unsigned long alpha, const RdpCurve& eps,
                                      mpfr_prec_t precision) {
  if (alpha < 2 || alpha > kMaxGeneralSubsampledOrder || sgn(q) <= 0 || q >= 1) {
    throw std::logic_error("poisson_subsampled_rdp_bound: needs 0 < q < 1 and 2 <= alpha <= 256");
  }
  const mpq_class keep = 1 - q;
  auto power = [](const mpq_class& x, unsigned long k) {
    mpq_class r(1);
    for (unsigned long i = 0; i < k; ++i) r *= x;
    return r;
  };
  const mpq_class a(alpha);
  Interval sum(mpq_class(power(keep, alpha - 1) * (a * q - q + 1)), precision);
  mpz_class binomial;
  for (unsigned long l = 2; l <= alpha; ++l) {
    mpz_bin_uiui(binomial.get_mpz_t(), alpha, l);
    const mpq_class weight = mpq_class(binomial) * power(keep, alpha - l) * power(q, l) * (l == 2 ? 1 : 3);
    sum = sum + exp(eps(mpq_class(l), precision) * mpq_class(l - 1)) * weight;
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

}  // namespace exactdp::accounting
