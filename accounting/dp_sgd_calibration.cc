#include <exactdp/accounting/dp_sgd_calibration.h>

#include <exactdp/accounting/composition_limits.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

DpSgdAnswer calibrate_dp_sgd_request(const DpSgdRequest& r) {
  check_dp_sgd_limits(r.q, r.epsilon, r.delta);  // cost limits first (composition_limits.h)
  DpSgdAnswer a;
  a.calibration = calibrate_dp_sgd(r.q, r.steps, r.epsilon, r.delta);
  a.route = "rdp (MTZ19 sampled Gaussian at integer orders and one fractional order, Balle et al. 2020 Thm 21)";
  return a;
}

mpfr_prec_t dp_sgd_print_precision(const DpSgdCalibration& c, int digits) {
  return 64 + 4 * static_cast<mpfr_prec_t>(digits) +
         static_cast<mpfr_prec_t>(mpz_sizeinbase(c.sigma_upper.get_den_mpz_t(), 2)) +
         static_cast<mpfr_prec_t>(mpz_sizeinbase(c.sigma_lower.get_den_mpz_t(), 2));
}

std::string dp_sgd_sigma_to_use(const DpSgdCalibration& c, int digits) {
  const Interval upper(c.sigma_upper, dp_sgd_print_precision(c, digits));
  return decimal_upper(upper.upper(), digits < 8 ? digits : 8);
}

}  // namespace exactdp::accounting
