// dp_sgd_calibration.h — the certified noise multiplier of DP-SGD: what `exactdp calibrate
// dp-sgd` and exactdp.calibrate("dp-sgd", ...) compute (both call calibrate_dp_sgd_request; the
// CLI only reads its options and prints the answer).
//
// DP-SGD: noise N(0, sigma^2 C^2) on a sum of per-example gradients clipped to norm C, Poisson
// sampling with rate q, `steps` steps, add/remove-one neighbouring: a poisson-gaussian event with
// sensitivity 1, composed `steps` times.
//
// Errors: the cost limits of composition_limits.h (check_dp_sgd_limits: LimitError naming q,
// epsilon or delta), then the ranges of the route (ParameterError naming the parameter).
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <string>

#include <exactdp/accounting/rdp_accountant.h>

namespace exactdp::accounting {

struct DpSgdRequest {
  mpq_class q;
  unsigned long steps = 1;
  mpq_class epsilon;
  mpq_class delta;
};

struct DpSgdAnswer {
  DpSgdCalibration calibration;  // the bracket [sigma_lower, sigma_upper] and its proofs
  std::string route;             // the route that answered, as printed
};

// The calibration by the rdp route (rdp_accountant.h, calibrate_dp_sgd), after the cost limits.
[[nodiscard]] DpSgdAnswer calibrate_dp_sgd_request(const DpSgdRequest& request);

// sigma_upper rounded UP to min(digits, 8) significant decimal digits (the bracket is 10^-6
// wide): a larger sigma only lowers every order's RDP, so it still meets the target. digits >= 1.
[[nodiscard]] std::string dp_sgd_sigma_to_use(const DpSgdCalibration& c, int digits);

// The working precision that holds sigma_lower and sigma_upper with `digits` decimal digits to
// spare (for printing the bracket as an Interval).
[[nodiscard]] mpfr_prec_t dp_sgd_print_precision(const DpSgdCalibration& c, int digits);

}  // namespace exactdp::accounting
