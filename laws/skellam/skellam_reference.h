// skellam_reference.h — the Skellam law Sk(mu) centred at an integer mean, for the audit
// (verification::ReferenceLaw): masses from skellam_pmf.h (certified series, Bessel recurrence
// and Chernoff tail), moments and parity in closed form from the cumulants kappa_n = mu (1 + (-1)^n):
//   E[(X - c)^2] = 2 mu,  E[(X - c)^4] = 2 mu + 12 mu^2,  P[X - c even] = (1 + exp(-4 mu)) / 2
// (E[(-1)^X] = exp(mu (e^(i pi) + e^(-i pi) - 2)) = exp(-4 mu)). Independent of the sampler, which
// never evaluates a Skellam or Bessel mass. For 0 < mu <= 10^6 (LimitError naming "mu" beyond).
#pragma once

#include <memory>

#include <exactdp/laws/skellam/skellam_pmf.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp::laws {

class SkellamReferenceLaw final : public verification::ReferenceLaw {
 public:
  SkellamReferenceLaw(const mpq_class& mu, const mpz_class& mean, mpfr_prec_t precision = verification::kPrecision);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::unique_ptr<verification::ReferenceLaw> at_precision(mpfr_prec_t precision) const override;
  [[nodiscard]] mpz_class spread() const override;
  [[nodiscard]] Interval central_moment(int m) const override;
  [[nodiscard]] Interval even_mass() const override;

 private:
  [[nodiscard]] Interval centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const override;
  SkellamPmf pmf_;
};

}  // namespace exactdp::laws
