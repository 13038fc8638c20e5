// vector_grid_privacy.h — the privacy maps (accounting/law_privacy.h) of real vectors noised on a
// grid: each of `dim` coordinates is rounded to the nearest multiple of the granularity g (a power
// of two) and integer noise is added in units of g. The pair, the lemmas and the theorems:
// accounting/grid_noise.h and docs/REAL_VALUED_ACCOUNTING.md.
//
// VectorDiscreteGaussianPrivacy: N_Z(0, s2) on each coordinate, s2 = (sigma/g)^2; the real query
// has L2 sensitivity Delta; D2 = the integer bound on ||v||^2 (grid_l2_sensitivity_squared).
//   rho = D2 / (2 s2) (zCDP);  rdp(a) = a rho (a bound);
//   delta_at(eps): the smallest of CKS20 Corollary 13 at rho (its searched order) and Theorem 3
//     at each smoothing width t^2 of smoothing_candidates(s2), the choice made at 64 bits (so it
//     does not depend on the precision asked for) and then evaluated: an upper bound's value;
//   subsampled_rdp(q, a): Theorem 4 at one smoothing width (fixed per law, chosen at 64 bits):
//     the sampled Gaussian's RDP (rdp.h, MTZ19) at mu_t rounded up, plus (2a-1)/(a-1) d ln r;
//     integer orders while mu_t <= 1000, fractional orders (<= 256) while mu_t <= 16;
//   no pure epsilon, no atoms (the pld route refuses: no proven dominating pair is implemented);
//   gaussian_smoothing() = {mu_t rounded up, t^2, d} at the subsampling width: the smoothed-pld
//     route of `compose` (Theorem 5, accounting/smoothed_pld.h).
// VectorDiscreteLaplacePrivacy: discrete Laplace of scale t = scale/g on each coordinate, L1
// sensitivity Delta; L = floor(Delta/g) + d bounds ||v||_1, so the product pair's log-ratio is at
// most eps0 = L / t everywhere: eps0-DP (pure). Its maps are those of randomised response at
// eps0, which dominates every eps0-DP pair (Kairouz, Oh and Viswanath), plain or subsampled:
//   delta(eps) = (e^eps0 - e^eps)/(1 + e^eps0) for eps < eps0 (a bound), rdp(a) = min(eps0,
//   a eps0^2/2) (a bound), atoms (p, 1-p, e^-eps0), (1-p, p, e^eps0), p = e^eps0/(1 + e^eps0).
// Thread-safety: immutable.
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/law_privacy.h>

namespace exactdp::laws {

struct GridParameters {
  mpq_class noise;        // sigma or scale, in output units
  mpq_class sensitivity;  // L2 (Gaussian) or L1 (Laplace), of the real query before rounding
  mpz_class dim;
  mpq_class granularity;  // g = 2^k
};

class VectorDiscreteGaussianPrivacy final : public accounting::LawPrivacy {
 public:
  explicit VectorDiscreteGaussianPrivacy(GridParameters p);
  // The maps for an integer query with ||v||^2 <= d2 given directly (instead of Lemma 1's bound;
  // tests use it to show that a bound without the rounding term fails against brute force).
  VectorDiscreteGaussianPrivacy(GridParameters p, mpz_class d2);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::optional<mpq_class> pure_epsilon() const override { return std::nullopt; }
  [[nodiscard]] bool has_profile() const override { return true; }
  [[nodiscard]] Interval delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const override;
  [[nodiscard]] Interval rdp(const mpq_class& alpha, mpfr_prec_t precision) const override;
  [[nodiscard]] std::vector<accounting::LawAtom> base_atoms(mpfr_prec_t precision) const override;
  [[nodiscard]] std::optional<mpq_class> rho() const override { return rho_; }
  [[nodiscard]] bool has_atoms() const override { return false; }
  // {subsampling_mu(), subsampling_width(), dim} (Lemma 2 / Theorem 5), when a width exists.
  [[nodiscard]] std::optional<accounting::GaussianSmoothing> gaussian_smoothing() const override;
  [[nodiscard]] bool supports_subsampled_order(const mpq_class& alpha) const override;
  [[nodiscard]] Interval subsampled_rdp(const mpq_class& q, const mpq_class& alpha,
                                        mpfr_prec_t precision) const override;

  [[nodiscard]] const mpz_class& integer_sensitivity_squared() const { return d2_; }
  [[nodiscard]] const mpq_class& integer_sigma2() const { return sigma_int2_; }
  // The smoothing width of subsampled_rdp (nullopt: s2 < 1/4, no subsampled bound) and its mu.
  [[nodiscard]] const std::optional<mpq_class>& subsampling_width() const { return t2_; }
  [[nodiscard]] const mpq_class& subsampling_mu() const { return mu_; }
  [[nodiscard]] const mpz_class& dimension() const { return p_.dim; }

 private:
  GridParameters p_;
  mpq_class sigma_int2_;
  mpz_class d2_;
  mpq_class rho_;
  std::optional<mpq_class> t2_;
  mpq_class mu_;
};

class VectorDiscreteLaplacePrivacy final : public accounting::LawPrivacy {
 public:
  explicit VectorDiscreteLaplacePrivacy(GridParameters p);
  // The maps for an integer query with ||v||_1 <= l1 given directly (tests).
  VectorDiscreteLaplacePrivacy(GridParameters p, mpz_class l1);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::optional<mpq_class> pure_epsilon() const override { return eps0_; }
  [[nodiscard]] bool has_profile() const override { return true; }
  [[nodiscard]] Interval delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const override;
  [[nodiscard]] Interval rdp(const mpq_class& alpha, mpfr_prec_t precision) const override;
  [[nodiscard]] std::vector<accounting::LawAtom> base_atoms(mpfr_prec_t precision) const override;
  [[nodiscard]] bool has_atoms() const override { return true; }
  [[nodiscard]] const mpz_class& integer_sensitivity() const { return l1_; }

 private:
  GridParameters p_;
  mpz_class l1_;
  mpq_class eps0_;
};

}  // namespace exactdp::laws
