// discrete_gaussian_calibration.h — certified calibration of the discrete Gaussian mechanism.
//
// calibrate_discrete_gaussian(eps, delta, Delta) finds sigma2, a CONVENIENT exact rational (3
// significant decimal digits, rounded up, e.g. 13.7 or 4.56e+7), whose certified profile
// (discrete_gaussian_profile.h, CKS20 Theorem 7) meets the target:
//   delta_at_sigma2.upper <= delta   (certified: USE sigma2),
// and it brackets the optimal sigma2* (the crossing of delta(eps; sigma2) with the target):
//   delta(optimum_lower) > delta certified,  delta(optimum_upper) <= delta certified,
// with (optimum_upper - optimum_lower) / optimum_lower <= bracket_tolerance (default 2^-32).
// sigma2 <= 1.01 * optimum_lower (more significant digits are used when 3 would exceed that;
// when even 12 do not, sigma2 = optimum_upper), so sigma2 is within 1% of the crossing point
// found. That this crossing is the global optimum is observed, not proven (below).
//
// Monotonicity. delta(eps; sigma2) is NOT monotone in sigma2 (tests/accounting pins an
// example): just above each crossing point c_n = (n + Delta/2) Delta / eps, where k1 changes,
// it rises by a few percent before falling again, so its local minima are the c_n. After the
// bisection we therefore check the nearest crossing point below the bracket and, while it meets
// the target, move to the falling branch left of it (for eps ~ 0.98, Delta = 1, delta = 0.192
// this moves the answer from 0.62 to 0.509). "Optimum" means the smallest feasible sigma2 found
// this way; it is the true minimum if delta is unimodal between consecutive crossing points and
// its minima decrease (both observed, not proven). The returned sigma2 does NOT rely on any of
// this: its delta is certified directly.
//
// Method: start from the continuous analytic-Gaussian sigma^2 (calibrate_gaussian), widen to a
// certified bracket, bisect with certified comparisons (precision raised until each is decided,
// up to the cap), check the crossing points just below, then round up to 3 significant digits
// and certify that value. For targets above 1/2 every comparison is made on 1 - delta
// (discrete_gaussian_delta_complement_at) against the exact 1 - target, and the reported delta
// intervals are 1 - that, formed with enough bits to be exact: delta = 1 - 10^-5000 costs what
// delta = 10^-5000 does.
//
// The search itself is internal/certified_search.h (shared with calibrate_gaussian).
//
// Errors: ParameterError for eps < 0, delta outside (0, 1), sensitivity not a positive integer,
// bracket_tolerance outside [2^-200, 1/100]; LimitError (a ParameterError) when no certified
// bracket is found within 20 widenings (a factor 2^(2^20)) of the continuous guess. Cost: ~40
// profile evaluations (well under a second for any sigma2, since each evaluation is
// Euler–Maclaurin/Poisson, not a sum over sigma terms).
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

struct DiscreteGaussianCalibration {
  mpq_class sigma2;                 // the value to use: few significant digits, certified
  Interval delta_at_sigma2;         // certified; upper <= target delta
  int significant_digits = 3;       // of sigma2 (3, more when 3 would be > 1% above optimum_lower;
                                    // 0 when sigma2 is optimum_upper itself)
  mpq_class optimum_lower;          // certified to miss the target
  mpq_class optimum_upper;          // certified to meet it
  Interval delta_at_optimum_lower;  // lower > target
  Interval delta_at_optimum_upper;  // upper <= target
  bool bracket_tolerance_met = false;
};

[[nodiscard]] mpq_class default_bracket_tolerance();  // 2^-32

// The parameter checks of calibrate_discrete_gaussian alone (epsilon >= 0, 0 < delta < 1, an
// integer sensitivity >= 1), for callers that report a bad parameter before anything else.
void validate_discrete_gaussian_calibration(const mpq_class& epsilon, const mpq_class& delta,
                                            const mpz_class& sensitivity);

[[nodiscard]] DiscreteGaussianCalibration calibrate_discrete_gaussian(
    const mpq_class& epsilon, const mpq_class& delta, const mpz_class& sensitivity,
    const mpq_class& bracket_tolerance = default_bracket_tolerance(),
    mpfr_prec_t max_precision = kMaxPrecision);

// The smallest number >= x with `digits` significant decimal digits (x > 0), exactly.
[[nodiscard]] mpq_class round_up_significant(const mpq_class& x, int digits);

}  // namespace exactdp::accounting
