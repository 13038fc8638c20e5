// dp_sgd_calibration.h — the certified noise multiplier of DP-SGD: what `exactdp calibrate
// dp-sgd` and exactdp.calibrate("dp-sgd", ...) compute (both call calibrate_dp_sgd_request; the
// CLI only reads its options and prints the answer). docs/ACCOUNTING_SUBSAMPLED.md, "Calibrating
// DP-SGD".
//
// DP-SGD: noise N(0, sigma^2 C^2) on a sum of per-example gradients clipped to norm C, Poisson
// sampling with rate q, `steps` steps, add/remove-one neighbouring: a poisson-gaussian event with
// sensitivity 1, composed `steps` times.
//
// Routes:
//   pld (default)  sigma is the smallest multiple of the resolution r found by the search whose
//                  certified pld epsilon (pld/pld_accountant.h) has upper end <= target, and
//                  sigma - r has upper end > target (the route does not certify the target one
//                  step lower). r = 10^(floor(log10 s) - 3) for the rdp route's answer s (four
//                  significant digits). The search: the rdp route's sigma (width 10^-3) rounded up
//                  to the grid, a walk down by 10 % steps to a sigma that misses, then secant and
//                  bisection steps on the grid of multiples of r. Every evaluation uses one pld
//                  grid (dp_sgd_pld_steps_per_unit), chosen so that the cost model (pld_cost.h,
//                  or pld_wide_route.h's for long runs at small delta) estimates at most 1 s and
//                  128 MiB per evaluation (the route's own refusal
//                  limit is 10 s and 1 GiB). Where that grid is coarser than 1/1000 (10^6 steps
//                  at small delta: 1/250, whose upper end is about 9 % high, so sigma was about
//                  3 % above the optimum), the search is first made on the finest grid of at most
//                  1.5 s per evaluation near the rdp sigma, with at most 5 evaluations:
//                  from the rdp sigma, a step by the measured epsilon assuming epsilon ~ sigma^-2,
//                  then secant and bisection steps; when that brackets sigma to r, its grid and
//                  bracket are the answer, else the search above runs. Where the pld LOWER end at sigma - r is > target too,
//                  no sigma <= sigma - r meets the target at all (proven: optimal_within_resolution).
//                  The pld upper end is a proven bound but need not be exactly monotone in sigma
//                  at a fixed grid: "smallest" is the search's, certified at sigma and sigma - r.
//   rdp            the rdp route (rdp_accountant.h, calibrate_dp_sgd): a bracket of relative width
//                  10^-6 of the route's own optimum, both sides proven for the route.
//
// Errors: the cost limits of composition_limits.h (check_dp_sgd_limits: LimitError naming q,
// epsilon or delta), then the ranges of the route (ParameterError naming the parameter:
// 0 < q <= 1, 1 <= steps <= 10^9, 0 < epsilon <= 10^4, 0 < delta < 1); LimitError naming
// "epsilon" for a target no searched sigma reaches (or that the smallest already meets), or
// naming "steps" when no pld grid fits the cost model.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <string>

#include <exactdp/accounting/rdp_accountant.h>

namespace exactdp::accounting {

enum class DpSgdRoute { kPld, kRdp };

struct DpSgdRequest {
  mpq_class q;
  unsigned long steps = 1;
  mpq_class epsilon;
  mpq_class delta;
  DpSgdRoute route = DpSgdRoute::kPld;
};

// How the pld route found its answer.
struct DpSgdPldSearch {
  mpq_class resolution;                    // r: sigma is a multiple of it
  mpq_class rdp_sigma;                     // the rdp route's sigma that started the search
  unsigned long steps_per_unit = 0;        // the pld grid: loss step 1/steps_per_unit
  std::string grid;                        // the pld route's description of its grid
  std::size_t evaluations = 0;             // pld evaluations made
  bool optimal_within_resolution = false;  // pld lower end at sigma - r > target
};

struct DpSgdAnswer {
  // sigma_upper: the sigma to use (epsilon_at_upper.upper() <= target, proven);
  // sigma_lower: rdp: misses on the route; pld: sigma_upper - resolution, epsilon_at_lower its pld
  // interval (upper end > target). order_at_upper: rdp only (0 for pld).
  DpSgdCalibration calibration;
  DpSgdRoute route = DpSgdRoute::kPld;
  std::string route_text;                 // the route that answered, as printed
  std::optional<DpSgdPldSearch> pld;      // route pld only
};

// The calibration by the request's route, after the cost limits.
[[nodiscard]] DpSgdAnswer calibrate_dp_sgd_request(const DpSgdRequest& request);

// "pld" / "rdp" to the route (ParameterError naming "route" for another name).
[[nodiscard]] DpSgdRoute parse_dp_sgd_route(const std::string& name);

// The finest pld grid (steps per unit of loss, among 5000, 2500, 2000, 1000, 750, 500, 250, 100)
// whose cost estimate for `steps` copies of poisson-gaussian(sigma, q) at `delta` is at most
// `seconds` (default 1 s) and 128 MiB (the wide-mass route's estimate where it applies,
// pld/pld_wide_route.h, else pld_cost.h's); LimitError naming "steps" when none is.
[[nodiscard]] unsigned long dp_sgd_pld_steps_per_unit(const mpq_class& q, unsigned long steps, const mpq_class& sigma,
                                                      const mpq_class& delta, double seconds = 1.0);

// The sigma to print: pld: sigma_upper exactly (a decimal); rdp: sigma_upper rounded UP to
// min(digits, 8) significant digits (the bracket is 10^-6 wide; a larger sigma only lowers every
// order's RDP, so it still meets the target). digits >= 1.
[[nodiscard]] std::string dp_sgd_sigma_to_use(const DpSgdAnswer& answer, int digits);

// The rdp route's sigma that started the pld search, rounded UP to 8 significant digits.
[[nodiscard]] std::string dp_sgd_rdp_sigma_text(const DpSgdPldSearch& search);

// The working precision that holds sigma_lower and sigma_upper with `digits` decimal digits to
// spare (for printing the bracket as an Interval).
[[nodiscard]] mpfr_prec_t dp_sgd_print_precision(const DpSgdCalibration& c, int digits);

}  // namespace exactdp::accounting
