// gdp_conversions.h — mu-GDP (Dong, Roth & Su 2021) to and from (epsilon, delta), pure DP to
// mu-GDP, and GDP composition; every result a certified interval with a named safe side.
//
// The mu-GDP privacy profile is delta_mu(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)
// (DRS Corollary 2.13; accounting/gaussian_profile.h evaluates it). It is decreasing in eps and
// increasing in mu, so both inverses are found by certified bisection: a midpoint is moved to a
// side only when the interval evaluation PROVES which side it is on, so the bracket always
// contains the true value. Bisection runs at a working precision p until the bracket's relative
// width is about 2^-(p - 24) or no comparison can be proven; the Ziv driver (ziv.h) doubles p
// until the requested tolerance is met.
//
//   gdp_epsilon(mu, delta): the smallest eps >= 0 with delta_mu(eps) <= delta. UPPER end safe:
//     delta_mu(upper) <= delta is proven.
//     When delta agrees with delta_mu(0) to n digits, eps* is ~10^-n and the direct comparison
//     would need ~3.3 n bits at every step; below that precision the comparison is made
//     between G = delta_mu(0) - delta (evaluated once, precisely) and an enclosure of
//     delta_mu(0) - delta_mu(x) = int_0^x e^t Phi(-mu/2 - t/mu) dt (relatively accurate at any
//     precision). Worst case under the 10,000-digit limit: ~1 s.
//     For delta > 1/2 both inverses compare 1 - delta_mu(x) (gdp_delta_complement_at, relative
//     accuracy however close delta is to 1) with the exact 1 - delta.
//   gdp_mu_for(eps, delta): the mu* with delta_mu*(eps) = delta, i.e. the largest mu such that
//     mu-GDP implies (eps, delta)-DP. LOWER end safe: delta_lower(eps) <= delta is proven.
//   gdp_mu_of_pure_dp(eps): eps-DP implies mu-GDP for mu = 2 Phi^-1(e^eps / (1 + e^eps))
//     (DRS Section 2.4; gdp_bridge Theorem 5.1), the smallest such mu. UPPER end safe: every
//     eps-DP mechanism is upper-GDP. Found by bracketing m = mu/2: for eps >= 1 with
//     log Phi(-m) against log(1/(1 + e^eps)) (log space: no underflow for eps up to 10^6), for
//     eps < 1 with erf(m/sqrt 2) against tanh(eps/2) (no cancellation for eps = 10^-99999).
//   gdp_compose(mus): sqrt(sum mu_i^2) (DRS Corollary 3.3), outward rounded; count-weighted form
//     sqrt(sum n_i mu_i^2) for repeated mechanisms.
//
// Limits: 0 < mu <= 10^6, 0 <= eps <= 10^6, 0 < delta < 1; every bisection is bounded by
// p + 200 steps; every bracket search is on the binary exponent (at most 2^22 octaves below its
// first guess, 256 above; ~2 log2(octaves) evaluations). Errors: ParameterError naming mu,
// epsilon or delta. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <span>
#include <utility>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

[[nodiscard]] Certified gdp_epsilon(const mpq_class& mu, const mpq_class& delta,
                                    const ZivOptions& options = {});
// mu known only as an interval (e.g. from gdp_compose): contains the eps* of every mu in it;
// the upper end is safe for mu.upper.
[[nodiscard]] Certified gdp_epsilon(const Interval& mu, const mpq_class& delta,
                                    const ZivOptions& options = {});

[[nodiscard]] Certified gdp_mu_for(const mpq_class& epsilon, const mpq_class& delta,
                                   const ZivOptions& options = {});

[[nodiscard]] Certified gdp_mu_of_pure_dp(const mpq_class& epsilon,
                                          const ZivOptions& options = {});

// The epsilon at delta of k compositions of an eps-DP mechanism through GDP: mu = sqrt(k) mu_1
// with mu_1 = gdp_mu_of_pure_dp(eps), then gdp_epsilon(mu, delta), in ONE Ziv loop (mu_1 is
// refined at each working precision, so the width of mu does not cap the result's).
// UPPER end of `epsilon` safe; `mu` is the composed mu of the last precision (upper end safe).
struct ComposedGdp {
  Certified epsilon;
  Interval mu{kDefaultPrecision};
};
[[nodiscard]] ComposedGdp gdp_epsilon_of_composed_pure_dp(const mpq_class& epsilon, unsigned long k,
                                                          const mpq_class& delta,
                                                          const ZivOptions& options = {});

// sqrt(sum mu_i^2); each mu_i >= 0.
[[nodiscard]] Interval gdp_compose(std::span<const Interval> mus);
// sqrt(sum count_i * mu_i^2).
[[nodiscard]] Interval gdp_compose_counted(std::span<const std::pair<Interval, unsigned long>> mus);

}  // namespace exactdp::accounting
