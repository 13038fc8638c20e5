// p_values.h — certified p-values for the goodness-of-fit tests: each returned exactdp::Interval
// contains the exact p-value of the test as defined here, and has the precision of its argument
// (every MPFR call rounds in a stated direction).
//
//  chi_square_sf(df, x)        P[chi2_df >= x] = Q(df/2, x/2), the upper regularised incomplete
//                              gamma function, from MPFR's mpfr_gamma_inc and mpfr_gamma (both
//                              correctly rounded, so the directed roundings make a certified
//                              quotient). For x/2 > df/2 + 12 sqrt(df/2) + 40 (where mpfr_gamma_inc
//                              becomes slow) the Chernoff bound
//                                Q(a, y) <= exp(a - y + a ln(y/a))   (y > a)
//                              is used as the upper end and 0 as the lower end: such p-values are
//                              below 1e-20, far below any threshold, and stay certified.
//  normal_two_sided(z)         2 (1 - Phi(|z|)) = erfc(|z| / sqrt 2) (accounting/normal.h); the p-value of a z-test under
//                              the normal approximation (the approximation itself is NOT certified:
//                              only its evaluation is; see docs/AUDIT.md).
//  binomial_upper_tail(n,m,p)  P[Bin(n, p) >= m], exact: the sum of the pmf terms from m upward with
//                              directed rounding, the rest bounded by a geometric series (the term
//                              ratios decrease); monotone in p, so the ends of p's interval give
//                              the ends of the result.
//  binomial_lower_tail(n,m,p)  P[Bin(n, p) <= m], likewise.
//  binomial_two_sided(n,m,p)   min(1, 2 P_side) with side = upper when m > n lower(p), else lower:
//                              for either tail P[2 P_tail <= alpha] <= alpha/2, so the test has
//                              level alpha whatever the side rule.
//  clopper_pearson_upper/lower One-sided exact (Clopper-Pearson) confidence bounds for a binomial
//                              proportion at level 1 - beta, by bisection on the certified tails;
//                              the returned value is on the safe side (>= the exact upper bound,
//                              <= the exact lower bound).
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <exactdp/core/interval.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp::verification {

[[nodiscard]] Interval chi_square_sf(unsigned long df, const Interval& x);
[[nodiscard]] Interval normal_two_sided(const Interval& z);
[[nodiscard]] Interval binomial_upper_tail(unsigned long long n, unsigned long long m, const Interval& p);
[[nodiscard]] Interval binomial_lower_tail(unsigned long long n, unsigned long long m, const Interval& p);
[[nodiscard]] Interval binomial_two_sided(unsigned long long n, unsigned long long m, const Interval& p);
// Upper / lower confidence bound for p after k successes in n trials, each side at level
// 1 - beta (beta in (0, 1)). Written into out (any precision; computed at max(its precision,
// kPrecision)).
void clopper_pearson_upper(mpfr_ptr out, unsigned long long n, unsigned long long k, const mpq_class& beta);
void clopper_pearson_lower(mpfr_ptr out, unsigned long long n, unsigned long long k, const mpq_class& beta);

}  // namespace exactdp::verification
