// analytic_gaussian.h — certified calibration of the Gaussian mechanism (Balle & Wang 2018's
// "analytic Gaussian mechanism"), and the classical Dwork–Roth sigma for comparison.
//
// calibrate_gaussian(eps, delta, Delta) returns the smallest sigma for which N(0, sigma^2) noise
// on a query of L2 sensitivity Delta is (eps, delta)-DP, as a certified bracket:
//   sigma_lower < sigma* <= sigma_upper,
//   delta(eps; sigma_upper) <= delta  CERTIFIED (delta_at_sigma.upper <= target),
//   delta(eps; sigma_lower) >  delta  CERTIFIED (delta_at_sigma_lower.lower > target),
// where delta(eps; sigma) is the exact profile of gaussian_profile.h (decreasing in sigma), so
// sigma* is the unique crossing. USE sigma (= sigma_upper): it is private whatever the rounding.
// The bracket's relative width is <= options.tolerance (default 2^-100) unless the precision
// cap stops the certification first (then tolerance_met = false and the bracket is wider but
// still certified on both sides).
//
// mu-GDP: with sensitivity 1, sigma* = 1 / mu*, where mu* is the largest mu whose GDP profile
// meets (eps, delta): mu* lies in [1 / sigma_upper, 1 / sigma_lower].
//
// Method: Newton's method on log delta as a function of log sigma (d delta / d sigma =
// -(Delta / sigma^2) phi(Delta/(2 sigma) - eps sigma / Delta)), safeguarded by bisection, on
// interval evaluations; then the two bracket ends sigma*(1 -+ 2^-(k)) are certified with
// outward-rounded evaluations, raising the precision until each comparison is decided. If a
// check fails, the offset grows and, as a last resort, a certified bisection runs. Any search
// value is acceptable: only the final certified comparisons carry the guarantee.
// Targets above 1/2 are handled on the complement: the comparisons are 1 - delta(eps; sigma)
// (gdp_delta_complement_at, relatively accurate however close delta is to 1) against the exact
// 1 - target, and delta_at_sigma is then formed as 1 - that with enough bits to be exact, so
// delta = 1 - 10^-5000 costs what delta = 10^-5000 does (milliseconds).
// Time: a few milliseconds at the default tolerance for every legal input measured (eps from 0
// to 10^400, delta from 10^-100000 to 1 - 10^-5000); the fallback search is exponential, then
// bisects the exponent, so a bad start costs O(log log) extra comparisons, not a linear walk.
//
// Errors: ParameterError for eps < 0, delta outside (0, 1), sensitivity <= 0, bad options.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

// The parameter checks of calibrate_gaussian alone (epsilon >= 0, 0 < delta < 1,
// sensitivity > 0), for callers that report a bad parameter before doing anything else.
void validate_gaussian_calibration(const mpq_class& epsilon, const mpq_class& delta,
                                   const mpq_class& sensitivity);

struct GaussianCalibration {
  mpq_class sigma;              // = sigma_upper: the value to use (exact dyadic rational)
  mpq_class sigma_lower;        // certified to miss the target
  Interval delta_at_sigma;      // certified; upper <= target delta
  Interval delta_at_sigma_lower;  // certified; lower > target delta
  bool tolerance_met = false;   // (sigma - sigma_lower) / sigma_lower <= tolerance
};

[[nodiscard]] GaussianCalibration calibrate_gaussian(const mpq_class& epsilon,
                                                     const mpq_class& delta,
                                                     const mpq_class& sensitivity,
                                                     const ZivOptions& options = {});

// The bracket [sigma_lower, sigma] as an Interval at the given precision (rounded outward).
[[nodiscard]] Interval sigma_bracket(const GaussianCalibration& c, mpfr_prec_t precision);

// The classical Gaussian mechanism (Dwork & Roth 2014, Theorem A.1):
//   sigma = sqrt(2 ln(1.25 / delta)) * sensitivity / eps,  valid for 0 < eps < 1.
// ParameterError for eps outside (0, 1), delta outside (0, 1), sensitivity <= 0.
[[nodiscard]] Interval classical_gaussian_sigma(const mpq_class& epsilon, const mpq_class& delta,
                                                const mpq_class& sensitivity,
                                                mpfr_prec_t precision);

// (sigma_analytic / sigma_classical)^2 as an interval, from a calibration's bracket: the share
// of the classical variance the analytic mechanism keeps (Balle & Wang report it removes at
// least a third, i.e. ratio <= 2/3, in their experiments).
[[nodiscard]] Interval gaussian_variance_ratio(const GaussianCalibration& c,
                                               const mpq_class& epsilon, const mpq_class& delta,
                                               const mpq_class& sensitivity,
                                               mpfr_prec_t precision);

}  // namespace exactdp::accounting
