// normal.h — certified bounds for the standard normal distribution: Phi, its complement,
// log Phi, the density, and erfc, for interval arguments.
//
// Each function is monotone (or built from monotone pieces), so it is evaluated at the interval
// ends with the rounding direction that keeps containment: for an increasing f,
// f([l, u]) = [f(l) rounded down, f(u) rounded up]. MPFR's erfc is correctly rounded, so
// each end costs one rounding plus the outward-rounded scaling by 1/sqrt(2).
//
// Far tails. With the widest exponent range (interval.h), Phi(-40000) ~ 10^-347_000_000 and
// Phi(-10^6) ~ 10^-2.2e11 are ordinary MPFR numbers. Phi(x) itself underflows only for
// |x| > ~2.5e9 (then the lower end is 0 and the upper end the smallest positive MPFR number:
// still certified). log_normal_cdf never underflows: for x <= -6 it is log phi(x) + log R(-x)
// with R the Mills ratio, bounded by consecutive convergents of Laplace's continued fraction
// (proof at the function in normal.cc). The continued fraction is also the fast path for
// Q(t), t >= 6, where MPFR's erfc is slow (~1-10 ms at 200 bits).
//
// Narrow intervals (e.g. a rational rounded outward) cost ONE evaluation: the other end follows
// from a proven bound on the slope (|Q'| = phi, and the hazard phi/Q <= t + 2).
//
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// erfc(x) = 1 - erf(x) = (2/sqrt(pi)) int_x^inf e^(-t^2) dt; decreasing.
[[nodiscard]] Interval erfc(const Interval& x);
// erf(x); increasing.
[[nodiscard]] Interval erf(const Interval& x);

// Phi(x) = P[N(0,1) <= x] = erfc(-x / sqrt(2)) / 2; increasing.
[[nodiscard]] Interval normal_cdf(const Interval& x);
[[nodiscard]] Interval normal_cdf(const mpq_class& x, mpfr_prec_t precision);

// 1 - Phi(x) = Phi(-x) = P[N(0,1) > x] = erfc(x / sqrt(2)) / 2; decreasing. No cancellation
// for large x.
[[nodiscard]] Interval normal_sf(const Interval& x);
[[nodiscard]] Interval normal_sf(const mpq_class& x, mpfr_prec_t precision);

// log Phi(x); increasing; finite for every finite x (no underflow however negative x is).
[[nodiscard]] Interval log_normal_cdf(const Interval& x);
[[nodiscard]] Interval log_normal_cdf(const mpq_class& x, mpfr_prec_t precision);
// log(1 - Phi(x)) = log Phi(-x); decreasing.
[[nodiscard]] Interval log_normal_sf(const Interval& x);

// The Mills ratio R(x) = (1 - Phi(x)) / phi(x), for every real x; decreasing, 0 < R(x) < 1/x
// for x > 0. Laplace's continued fraction for x >= 6, Q / phi below. It never underflows where
// Q does (R(10^9) ~ 10^-9), which lets the Gaussian profile avoid e^eps (gaussian_profile.cc).
[[nodiscard]] Interval mills_ratio(const Interval& x);
[[nodiscard]] Interval mills_ratio(const mpq_class& x, mpfr_prec_t precision);

// phi(x) = exp(-x^2 / 2) / sqrt(2 pi): the standard normal density.
[[nodiscard]] Interval normal_pdf(const Interval& x);

// 1 / sqrt(2) and sqrt(2 pi) as intervals.
[[nodiscard]] Interval inv_sqrt2_interval(mpfr_prec_t precision);
[[nodiscard]] Interval sqrt_2pi_interval(mpfr_prec_t precision);

}  // namespace exactdp::accounting
