// ddg_reference.h — the law of the sum of m surviving clients' discrete Gaussians N_Z(0, sigma2),
// centred at an integer mean, for the audit (verification::ReferenceLaw): the masses from the
// certified convolution of ddg_pmf.h (the window's enclosures plus [0, residual] once per range),
// the moments and the parity from one client's (verification::DiscreteGaussianLaw) in closed form:
//   E[S^2] = m v,  E[S^4] = m k4 + 3 m (m - 1) v^2  (v = E[X^2], k4 = E[X^4]),
//   P[S even] = (1 + (2 e - 1)^m) / 2  (e = P[X even]: E[(-1)^S] = E[(-1)^X]^m).
// Independent of the sampler, which draws the m discrete Gaussians and adds them. Within the
// convolution's range only (m <= 10^4, m sigma2 <= 250: LimitError naming "clients" beyond).
#pragma once

#include <memory>

#include <exactdp/laws/distributed_discrete_gaussian/ddg_pmf.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp::laws {

class DistributedDiscreteGaussianReferenceLaw final : public verification::ReferenceLaw {
 public:
  DistributedDiscreteGaussianReferenceLaw(const mpq_class& sigma2, long survivors, const mpz_class& mean,
                                          mpfr_prec_t precision = verification::kPrecision);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::unique_ptr<verification::ReferenceLaw> at_precision(mpfr_prec_t precision) const override;
  [[nodiscard]] mpz_class spread() const override;
  [[nodiscard]] Interval central_moment(int m) const override;
  [[nodiscard]] Interval even_mass() const override;

 private:
  [[nodiscard]] Interval centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const override;
  mpq_class sigma2_;
  long survivors_;
  DistributedDiscreteGaussianPmf pmf_;
  verification::DiscreteGaussianLaw client_;
};

}  // namespace exactdp::laws
