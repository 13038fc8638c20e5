// ddg_pmf.h — the law of the sum of m independent discrete Gaussians N_Z(0, sigma2) (the
// surviving clients' noise shares of the distributed discrete Gaussian, ddg_law.h) as certified
// numbers at a working precision p, and its exact privacy profile against the sum shifted by an
// integer D. For the exact-profile range only (ddg_exact_profile_feasible(): m sigma2 <= 250,
// m <= 10^4).
//
// The representation: the true masses P_k = A_k + R_k with A_k >= 0 enclosed for |k| <= K (the
// window) and R_k >= 0 of total mass at most b (residual()), A_k = 0 beyond the window.
//  * one client: f(x) = exp(-x^2 / (2 sigma2)) for |x| <= K_1 and the normaliser
//    N = sum_Z f in [S, S + 2 T], S the window's sum and T >= sum_{x > K_1} f(x) by the ratio
//    bound T = f(K_1 + 1) / (1 - exp(-(2 K_1 + 3) / (2 sigma2))) (the ratios f(x+1)/f(x) decrease
//    for x >= 0); A_x = f(x) / N and b = 2 T / S;
//  * the sum of two parts (A + R) * (B + R') = A * B + residual of mass <= b_A + b_B (every law
//    has mass <= 1): A * B is summed exactly (all terms >= 0: lower ends rounded down, upper
//    ends up), then trimmed to the window of its client count c, K_c = isqrt(2 c sigma2
//    (p + 40) 7/10) + 2 (the sub-Gaussian tail 2 exp(-K^2 / (2 c sigma2)) is ~2^-(p + 40); the
//    choice needs no proof: the upper ends of the trimmed masses are added to b);
//  * m clients by binary powering (about 2 log2 m such sums).
// The profile: delta(eps) = sum_k max(0, P_k - e^eps P_(k-D)) lies in [S - e^eps b, S + b] with
// S = sum_k max(0, A_k - e^eps A_(k-D)) (R >= 0 only adds at most b to the positive parts and
// takes at most e^eps b from them).
// Precision: the working precision is min(p, 320) bits (as skellam_pmf.h). Cost: about
// 2000 m sigma2 interval products per sum at 320 bits (m sigma2 = 250: about 0.3 s).
// Errors: LimitError naming "clients" outside the range. Immutable after construction.
#pragma once

#include <gmpxx.h>

#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::laws {

// Whether the exact profile of m clients at sigma2 is within its cost limit.
[[nodiscard]] bool ddg_exact_profile_feasible(const mpq_class& sigma2, const mpz_class& survivors);

class DistributedDiscreteGaussianPmf {
 public:
  DistributedDiscreteGaussianPmf(const mpq_class& sigma2, long survivors, mpfr_prec_t precision);
  [[nodiscard]] mpfr_prec_t precision() const noexcept { return precision_; }
  [[nodiscard]] long half_width() const noexcept { return static_cast<long>(lower_.size() / 2); }
  // An enclosure of P[Z = k] (the window's part plus [0, residual()]).
  [[nodiscard]] Interval mass(long k) const;
  // An enclosure of sum_{k=a}^{b} A_k, the window's part only (the rest is at most residual()).
  [[nodiscard]] Interval window_sum(long a, long b) const;
  // An upper bound on the total mass that the window's enclosures leave out.
  [[nodiscard]] const Real& residual() const noexcept { return residual_; }
  // delta(eps) of Z against Z + shift (eps >= 0, shift >= 1), within [0, 1].
  [[nodiscard]] Interval delta_at(const mpq_class& epsilon, long shift) const;

 private:
  mpfr_prec_t precision_;
  std::vector<Real> lower_, upper_;  // A_k for k = -K..K
  Real residual_;
};

}  // namespace exactdp::laws
