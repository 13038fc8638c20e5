// staircase_reference.h — the discrete staircase's exact law for the audit
// (verification::ReferenceLaw): certified masses, moments and parity from the closed forms of
// staircase_shape.h. Independent of the sampler: it shares the shape's parameters, not its code
// path (the sampler never evaluates exp(-gamma)).
#pragma once

#include <memory>

#include <exactdp/laws/staircase/staircase_shape.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp::laws {

class StaircaseReferenceLaw final : public verification::ReferenceLaw {
 public:
  StaircaseReferenceLaw(const StaircaseShape& shape, const mpz_class& mean,
                        mpfr_prec_t precision = verification::kPrecision);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::unique_ptr<verification::ReferenceLaw> at_precision(mpfr_prec_t precision) const override;
  [[nodiscard]] mpz_class spread() const override;
  [[nodiscard]] Interval central_moment(int m) const override;
  [[nodiscard]] Interval even_mass() const override;

 private:
  [[nodiscard]] Interval centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const override;
  StaircaseShape shape_;
  Interval z_;  // the normaliser
};

}  // namespace exactdp::laws
