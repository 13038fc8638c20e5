// discrete_laplace_exact.h — k identical discrete Laplace steps, plain or Poisson-subsampled,
// answered EXACTLY from their finite privacy-loss distribution (the "exact" route of `exactdp
// compose`; docs/ACCOUNTING_SUBSAMPLED.md "Discrete Laplace steps in closed form").
//
// The step adds discrete Laplace noise of scale t (P[z] ~ r^|z|, r = e^(-1/t)) to an integer query
// of sensitivity Delta, on a Poisson sample at rate q (q = 1: no sampling). Under add/remove the
// worst-case pair is P = (1 - q) D_0 + q D_Delta against Q = D_0 (D_s: the law centred at s), in
// both orders; a query that moves by exactly Delta attains it. The likelihood ratio depends on z
// only through j = clamp(z, 0, Delta):
//   P/Q (z) = 1 - q + q e^((2j - Delta)/t),   loss l_j = ln of that,
//   Q-masses: Q_0 = 1/(1+r), Q_j = (1-r) r^j/(1+r) for 0 < j < Delta, Q_Delta = r^Delta/(1+r);
//   D_Delta's masses are Q_(Delta - j) (symmetry), and P_j = (1 - q) Q_j + q Q_(Delta - j).
// So k steps have a loss taking one value per count vector c (c_0 + ... + c_Delta = k):
// L(c) = sum c_j l_j, with multinomial masses P^k(c), Q^k(c) = P^k(c) e^(-L(c)), and
//   remove order: delta_1(eps) = sum over L(c) > eps of  P^k(c) - e^eps Q^k(c),
//   add order:    delta_2(eps) = sum over L(c) < -eps of Q^k(c) - e^eps P^k(c),
//   delta(eps) = max(delta_1, delta_2): the exact profile of the composition (not a bound).
// Under replace-one only the plain step (q = 1) is answered: its pair is the same D_Delta against
// D_0 (Delta is then the replace-one sensitivity).
//
// Certification: every mass and loss is an outward-rounded interval (log-domain multinomials,
// ln n! by summation); a count vector whose loss enclosure contains eps contributes [0, its
// positive part], so the result contains the true delta at every precision. Terms are sorted once
// per precision and summed from suffix sums, so an epsilon search costs one table.
// Limits: C(k + Delta, Delta) <= kMaxDiscreteLaplaceExactTerms count vectors (k up to 10^5 steps
// at Delta = 1, 445 at Delta = 2); past it applies() is false (auto skips the route; a forced
// --route exact is refused naming "route"). The working precision is capped at count vectors x
// bits <= 5 * 10^7 (and 8192 bits), so one table costs at most ~0.1 s and ~40 MB; a tolerance not
// met under the cap is reported (tolerance_met false).
// Errors: ParameterError naming "scale" (> 0), "sensitivity" (>= 1), "q" (0 < q <= 1), "count"
// (>= 1), "epsilon" (>= 0), "delta" (0 < delta < 1). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <optional>

#include <exactdp/accounting/ziv.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

inline constexpr std::uint64_t kMaxDiscreteLaplaceExactTerms = 100'000;

struct DiscreteLaplaceSteps {
  mpq_class scale;        // t > 0
  mpz_class sensitivity;  // Delta >= 1
  mpq_class q = 1;        // Poisson rate, 0 < q <= 1 (1: not subsampled)
  std::uint64_t count = 1;  // k >= 1 identical steps
};

// Whether the count vectors fit the limit (after the parameter checks).
[[nodiscard]] bool discrete_laplace_exact_applies(const DiscreteLaplaceSteps& steps);

// delta(eps) enclosed at `precision` bits.
[[nodiscard]] Interval discrete_laplace_steps_delta(const DiscreteLaplaceSteps& steps, const mpq_class& epsilon,
                                                    mpfr_prec_t precision);
// The same to options.tolerance (Ziv loop).
[[nodiscard]] Certified discrete_laplace_steps_delta(const DiscreteLaplaceSteps& steps, const mpq_class& epsilon,
                                                     const ZivOptions& options = {});
// epsilon(delta) by certified bisection on the profile; nullopt when no eps <= 10^6 is proven.
[[nodiscard]] std::optional<Certified> discrete_laplace_steps_epsilon(const DiscreteLaplaceSteps& steps,
                                                                      const mpq_class& delta,
                                                                      const ZivOptions& options = {});

}  // namespace exactdp::accounting
