#include <exactdp/laws/staircase/staircase_reference.h>

#include <stdexcept>

#include <exactdp/core/rational.h>

namespace exactdp::laws {

StaircaseReferenceLaw::StaircaseReferenceLaw(const StaircaseShape& shape, const mpz_class& mean, mpfr_prec_t precision)
    : ReferenceLaw(mean, precision), shape_(shape), z_(shape.normaliser(precision)) {}

std::string StaircaseReferenceLaw::describe() const {
  return "staircase gamma=" + to_string(shape_.gamma()) + " sensitivity=" + to_string(shape_.sensitivity()) +
         " r=" + to_string(shape_.r()) + " mean=" + to_string(center());
}

std::unique_ptr<verification::ReferenceLaw> StaircaseReferenceLaw::at_precision(mpfr_prec_t precision) const {
  return std::make_unique<StaircaseReferenceLaw>(shape_, center(), precision);
}

mpz_class StaircaseReferenceLaw::spread() const {
  // floor(sqrt(Var)) from the variance's lower end, at least 1
  const Interval v = central_moment(2);
  mpz_class s;
  mpfr_t root;
  mpfr_init2(root, precision());
  mpfr_sqrt(root, v.lower(), MPFR_RNDD);  // any integer near one standard deviation will do
  mpfr_get_z(s.get_mpz_t(), root, MPFR_RNDD);
  mpfr_clear(root);
  return s < 1 ? mpz_class(1) : s;
}

Interval StaircaseReferenceLaw::centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const {
  Interval out = shape_.tail_from(a, precision());
  if (b) out = out - shape_.tail_from(*b + 1, precision());
  return out / z_;
}

Interval StaircaseReferenceLaw::even_mass() const {
  // two-sided: 2 sum_{m >= 0 even} w(m) - w(0), w(0) = 1
  return (shape_.one_sided_even(precision()) * mpq_class(2) - mpq_class(1)) / z_;
}

Interval StaircaseReferenceLaw::central_moment(int m) const {
  if (m == 1) return Interval(precision());  // symmetric: 0
  if (m == 2 || m == 4) return shape_.one_sided_moment(m, precision()) * mpq_class(2) / z_;
  throw std::logic_error("StaircaseReferenceLaw::central_moment: m must be 1, 2 or 4");
}

}  // namespace exactdp::laws
