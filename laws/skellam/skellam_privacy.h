// skellam_privacy.h — the Skellam law's privacy maps (accounting/law_privacy.h): Sk(mu) added to
// each coordinate of an integer query in Z^dim whose neighbouring outputs differ by a vector of L2
// norm at most D (`sensitivity`) and L1 norm at most D1 (`l1`; the scalar case dim = 1: D1 = D).
//
// RDP (every mu): the bound of Agarwal, Kairouz and Liu ("The Skellam Mechanism for
// Differentially Private Federated Learning", NeurIPS 2021, Theorem 3.5, the multidimensional
// Skellam mechanism):
//   eps(alpha) = alpha D^2 / (4 mu) + min(((2 alpha - 1) D^2 + 6 D1) / (16 mu^2), 3 D1 / (4 mu)),
// an exact rational (an upper bound on the Renyi divergence of either order, for every shift
// within the norms: the bound increases with D and D1). D1 is the rational upper bound
// min(l1, D^2, r D) with r = ceil(2^20 sqrt(dim)) / 2^20 >= sqrt(dim) (an integer vector has
// ||v||_1 <= ||v||_2^2 and ||v||_1 <= sqrt(dim) ||v||_2); with dim = 1 and no l1, D1 = D exactly.
// zCDP: the first branch of the min alone gives eps(alpha) <= alpha rho for every alpha > 1 with
//   rho = D^2 / (4 mu) + (2 D^2 + max(0, 6 D1 - D^2)) / (16 mu^2)
// (((2 alpha - 1) D^2 + 6 D1) / alpha = 2 D^2 + (6 D1 - D^2) / alpha is at most its limit at
// alpha -> 1 or alpha -> infinity), so the event is rho-zCDP (the accountant's zcdp route).
// Profile (mu <= 10^6, a scalar query: dim = 1, no l1, an integer D): delta(eps) of Sk(mu)
// against Sk(mu) + D, exactly as a certified sum over
// the support, sum_k max(0, s_k - e^eps s_(k - D)) over |k| <= K with the masses of skellam_pmf.h,
// plus [0, P[|X| > K]] (the terms beyond K are at most s_k). The pair is symmetric (k -> D - k
// swaps the two laws), so both orders give the same delta. For |d| < D the pair at D dominates:
// the Skellam masses are log-concave (Poisson masses are, and convolution keeps discrete
// log-concavity, Hoggar 1974), so the shifts form a family with a monotone likelihood ratio and,
// by Karlin-Rubin, the most powerful test of shift 0 against d has a power nondecreasing in |d|:
// the trade-off curve at D lies below every |d| < D's (a negative d by symmetry).
// Beyond mu = 10^6, and for a vector query, delta_at() is an upper bound instead: the RDP bound converted by CKS20
// Proposition 12 (accounting::rdp_to_delta), minimised over a fixed grid of orders
// (accounting/rdp_law_bounds.h). Where both exist the exact profile is the smaller (it is the profile
// itself; the conversion bounds it).
// Sums of clients: independent Sk(mu_i) add to Sk(sum mu_i), so n clients adding Sk(mu) each give
// the maps of Sk(n mu) (state mu = n mu_client in the event).
// Poisson-subsampled rounds (poisson-skellam): the general bound of Zhu and Wang over the AKL21
// curve (accounting/rdp_law_bounds.h), integer orders 2..256, capped by the unsampled eps(alpha).
// No pure epsilon, no PLD atoms.
#pragma once

#include <gmpxx.h>

#include <memory>
#include <mutex>
#include <optional>

#include <exactdp/accounting/law_privacy.h>
#include <exactdp/laws/skellam/skellam_pmf.h>

namespace exactdp::laws {

// The query's sensitivities: L2 (`sensitivity`), an optional L1, and the dimension.
struct SkellamSensitivity {
  mpq_class l2 = 1;
  std::optional<mpq_class> l1{};
  mpz_class dim = 1;
};

class SkellamPrivacy final : public accounting::LawPrivacy {
 public:
  SkellamPrivacy(mpq_class mu, SkellamSensitivity sensitivity);
  SkellamPrivacy(mpq_class mu, const mpz_class& sensitivity) : SkellamPrivacy(std::move(mu), SkellamSensitivity{mpq_class(sensitivity)}) {}
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] Interval rdp(const mpq_class& alpha, mpfr_prec_t precision) const override;
  // The AKL21 bound as an exact rational.
  [[nodiscard]] mpq_class rdp_bound(const mpq_class& alpha) const;
  [[nodiscard]] std::optional<mpq_class> rho() const override;
  [[nodiscard]] bool has_profile() const override;
  // D1, the L1 bound the RDP bound uses (the header's comment).
  [[nodiscard]] const mpq_class& l1_bound() const { return l1_bound_; }
  // Whether delta_at() is the exact profile (mu <= 10^6, a scalar query) or the RDP conversion's bound.
  [[nodiscard]] bool exact_profile() const;
  [[nodiscard]] Interval rdp_delta_bound(const mpq_class& epsilon, mpfr_prec_t precision) const;
  [[nodiscard]] Interval delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const override;
  [[nodiscard]] bool has_atoms() const override { return false; }
  [[nodiscard]] bool symmetric_pair() const override { return true; }
  [[nodiscard]] bool supports_subsampled_order(const mpq_class& alpha) const override;
  [[nodiscard]] Interval subsampled_rdp(const mpq_class& q, const mpq_class& alpha,
                                        mpfr_prec_t precision) const override;

 private:
  [[nodiscard]] std::shared_ptr<const SkellamPmf> masses(mpfr_prec_t precision) const;
  mpq_class mu_;
  SkellamSensitivity sensitivity_;
  mpq_class l1_bound_;
  mutable std::mutex cache_mutex_;  // the last table built (Ziv asks at rising precisions)
  mutable std::shared_ptr<const SkellamPmf> cache_;
};

// The registry's event: SkellamPrivacy's maps.
[[nodiscard]] std::shared_ptr<const accounting::LawPrivacy> skellam_privacy(const mpq_class& mu,
                                                                            const SkellamSensitivity& sensitivity);

}  // namespace exactdp::laws
