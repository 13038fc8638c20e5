// ddg_privacy.h — the distributed discrete Gaussian's privacy maps (accounting/law_privacy.h): the
// sum Z of m surviving clients' shares N_Z(0, sigma2) on each of `dim` coordinates, added to an
// integer vector query whose neighbouring values differ by Delta in Z^dim with ||Delta||_2 <= D2
// and ||Delta||_1 <= D1 (D1 given, else min(sqrt(dim) D2, D2^2): an integer vector has
// |x| <= x^2 in each coordinate). m is the fewest survivors the dropout allows (ddg_law.h).
//
// RDP (every parameter in range): Kairouz, Liu and Steinke ("The Distributed Discrete Gaussian
// Mechanism for Federated Learning with Secure Aggregation", ICML 2021, Proposition 14, Eq. 17):
// with s2 = m sigma2 and tau = 10 sum_{k=1}^{m-1} exp(-2 pi^2 sigma2 k / (k + 1)),
//   eps(alpha) = min( alpha D2^2 / (2 s2) + tau dim,
//                     alpha / 2 (D2^2 / s2 + 2 D1 tau / sqrt(s2) + tau^2 dim),
//                     alpha / 2 (D2 / sqrt(s2) + tau sqrt(dim))^2 ),
// for m >= 2 at sigma2 >= 1/4 (their range; a smaller sigma2 with two or more survivors is
// refused by the law); m = 1 gives tau = 0, CKS20's discrete Gaussian. tau is summed exactly for
// k <= 4096; beyond, its terms decrease in k and lie in [exp(-2 pi^2 sigma2), term_4096].
// zCDP: the third branch is alpha rho with rho = (D2 / sqrt(s2) + tau sqrt(dim))^2 / 2 (rho()
// returns a rational upper bound, its enclosure's upper end).
// Profile: exact for dim = 1 within the cost limit (ddg_pmf.h: m sigma2 <= 250, m <= 10^4):
// delta(eps) of Z against Z + floor(D2) (an integer shift of a scalar query is at most D2 in
// absolute value), both orders equal (Z is symmetric); a smaller shift gives a smaller delta (the
// sum of discrete Gaussians is log-concave, Hoggar 1974, so the shifts have a monotone
// likelihood ratio, as in skellam_privacy.h). Elsewhere delta_at() is the RDP bound converted at
// a fixed grid of orders (accounting/rdp_law_bounds.h): an upper bound; where both exist the
// exact profile is the smaller.
// Poisson-subsampled rounds: the general bound of Zhu and Wang over this RDP curve
// (accounting/rdp_law_bounds.h), integer orders 2..256, with the unsampled eps(alpha) as a cap.
// No pure epsilon, no PLD atoms.
#pragma once

#include <gmpxx.h>

#include <memory>
#include <mutex>
#include <optional>

#include <exactdp/accounting/law_privacy.h>
#include <exactdp/laws/distributed_discrete_gaussian/ddg_pmf.h>

namespace exactdp::laws {

struct DdgPrivacyParameters {
  mpq_class sigma2;                 // per client
  mpz_class survivors;              // m >= 1
  mpq_class sensitivity;            // D2 > 0
  std::optional<mpq_class> l1;      // D1, when given
  mpz_class dim = 1;
};

class DistributedDiscreteGaussianPrivacy final : public accounting::LawPrivacy {
 public:
  explicit DistributedDiscreteGaussianPrivacy(DdgPrivacyParameters p);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] Interval rdp(const mpq_class& alpha, mpfr_prec_t precision) const override;
  [[nodiscard]] std::optional<mpq_class> rho() const override { return rho_; }
  [[nodiscard]] bool has_profile() const override { return true; }
  // Whether delta_at() is the exact profile (dim = 1 within the cost limit).
  [[nodiscard]] bool exact_profile() const;
  [[nodiscard]] Interval rdp_delta_bound(const mpq_class& epsilon, mpfr_prec_t precision) const;
  [[nodiscard]] Interval delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const override;
  [[nodiscard]] bool has_atoms() const override { return false; }
  [[nodiscard]] bool symmetric_pair() const override { return true; }
  [[nodiscard]] bool supports_subsampled_order(const mpq_class& alpha) const override;
  [[nodiscard]] Interval subsampled_rdp(const mpq_class& q, const mpq_class& alpha,
                                        mpfr_prec_t precision) const override;
  // KLS21's tau at m survivors, enclosed.
  [[nodiscard]] Interval tau(mpfr_prec_t precision) const;

 private:
  [[nodiscard]] std::shared_ptr<const DistributedDiscreteGaussianPmf> masses(mpfr_prec_t precision) const;
  DdgPrivacyParameters p_;
  mpq_class rho_;
  mutable std::mutex cache_mutex_;  // the last table and tau built (Ziv asks at rising precisions)
  mutable std::shared_ptr<const DistributedDiscreteGaussianPmf> cache_;
  mutable std::optional<Interval> tau_cache_;
};

}  // namespace exactdp::laws
