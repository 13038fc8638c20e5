// zcdp.h — zero-concentrated DP (Bun–Steinke 2016): rho of common mechanisms, composition, and
// certified conversion rho -> (epsilon, delta) by CKS20 Corollary 13 with a searched alpha.
//
// rho values are exact rationals:
//   Gaussian noise N(0, sigma^2), sensitivity Delta:        rho = Delta^2 / (2 sigma^2)  [BS16 Prop 1.6]
//   discrete Gaussian N_Z(0, sigma2), integer sensitivity:   rho = Delta^2 / (2 sigma2)   [CKS20 Thm 4]
//   any epsilon-DP mechanism:                                 rho = epsilon^2 / 2          [BS16 Prop 3.3]
//   mu-GDP (trade-off of N(0,1) vs N(mu,1); Renyi divergences bounded by that pair): rho = mu^2 / 2
//   composition: rho values add                                                          [BS16 Lemma 2.3]
//
// Conversion (CKS20 Corollary 13): a rho-zCDP mechanism is (epsilon, delta)-DP for every
// alpha > 1 with
//   delta = exp((alpha - 1)(alpha rho - epsilon)) / (alpha - 1) * (1 - 1/alpha)^alpha
//         = exp((alpha - 1)(alpha rho - epsilon) + (alpha - 1) log(1 - 1/alpha) - log alpha),
// equivalently, for a target delta,
//   epsilon = alpha rho + (log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log alpha) / (alpha - 1).
// ANY alpha > 1 gives a valid bound, so the search for alpha is not certified and need not be
// exact: it is a golden-section search over x = log2(alpha - 1) on evaluations at 64 bits (the
// function is unimodal in alpha, CKS20 Section 2.3). The alpha found is turned into an exact
// rational, and only then is the bound evaluated with outward rounding at the working
// precision: the returned interval contains the Corollary 13 value AT THAT alpha, and its upper
// end is the number to use (it rounds to the safe side). Minimising over alpha makes the result
// at least as tight as Corollary 13 with any alpha we could have picked by hand, and never
// looser than BS16's rho + 2 sqrt(rho log(1/delta)) (alpha = 1 + sqrt(log(1/delta)/rho) is in
// the search range; tests check both).
//
// Limits: 0 <= rho <= 10^9, 0 <= epsilon <= 10^9, 0 < delta < 1; 170 golden-section steps;
// alpha - 1 in [2^-300, 2^2000]. Errors: ParameterError naming rho, epsilon or delta.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <span>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

// Delta^2 / (2 sigma^2); throws ParameterError unless sigma > 0 and sensitivity > 0.
[[nodiscard]] mpq_class zcdp_rho_gaussian(const mpq_class& sigma, const mpq_class& sensitivity);
// Delta^2 / (2 sigma2); throws unless sigma2 > 0 and sensitivity >= 1.
[[nodiscard]] mpq_class zcdp_rho_discrete_gaussian(const mpq_class& sigma2,
                                                   const mpz_class& sensitivity);
// epsilon^2 / 2 for an epsilon-DP mechanism; throws unless epsilon >= 0.
[[nodiscard]] mpq_class zcdp_rho_pure_dp(const mpq_class& epsilon);
// Sum of the rhos (each must be >= 0).
[[nodiscard]] mpq_class zcdp_compose(std::span<const mpq_class> rhos);

// A conversion result: the certified interval and the alpha it was evaluated at.
struct ZcdpConversion {
  Certified bound;  // bound.value.upper is the safe number to use
  mpq_class alpha;  // > 1, exact
};

// Smallest delta (over the searched alpha) with rho-zCDP => (epsilon, delta)-DP; capped at 1.
[[nodiscard]] ZcdpConversion zcdp_delta(const mpq_class& rho, const mpq_class& epsilon,
                                        const ZivOptions& options = {});
// Smallest epsilon >= 0 (over the searched alpha) with rho-zCDP => (epsilon, delta)-DP.
[[nodiscard]] ZcdpConversion zcdp_epsilon(const mpq_class& rho, const mpq_class& delta,
                                          const ZivOptions& options = {});

// Corollary 13 at a given alpha > 1, outward rounded (exposed for tests and the search).
[[nodiscard]] Interval cks20_delta_at_alpha(const mpq_class& rho, const mpq_class& epsilon,
                                            const mpq_class& alpha, mpfr_prec_t precision);
[[nodiscard]] Interval cks20_epsilon_at_alpha(const mpq_class& rho, const mpq_class& delta,
                                              const mpq_class& alpha, mpfr_prec_t precision);

// Throws ParameterError unless 0 <= rho <= 10^9.
void validate_rho(const mpq_class& rho);

}  // namespace exactdp::accounting
