#include <exactdp/laws/skellam/skellam_reference.h>

#include <stdexcept>

#include <exactdp/core/rational.h>

namespace exactdp::laws {

SkellamReferenceLaw::SkellamReferenceLaw(const mpq_class& mu, const mpz_class& mean, mpfr_prec_t precision)
    : ReferenceLaw(mean, precision), pmf_(mu, precision) {}

std::string SkellamReferenceLaw::describe() const {
  return "skellam mu=" + to_string(pmf_.mu()) + " mean=" + to_string(center());
}

std::unique_ptr<verification::ReferenceLaw> SkellamReferenceLaw::at_precision(mpfr_prec_t precision) const {
  return std::make_unique<SkellamReferenceLaw>(pmf_.mu(), center(), precision);
}

mpz_class SkellamReferenceLaw::spread() const {
  const mpq_class variance = 2 * pmf_.mu();
  const mpz_class s = sqrt(mpz_class(variance.get_num() / variance.get_den()));
  return s < 1 ? mpz_class(1) : s;
}

Interval SkellamReferenceLaw::centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const {
  const mpz_class end(pmf_.table_end());
  if (a > end) return pmf_.tail_from(a);
  if (b && *b <= end) return pmf_.mass_between(a.get_si(), b->get_si());
  return pmf_.mass_between(a.get_si(), -1);  // b beyond the table: the whole tail from a is an upper bound
}

Interval SkellamReferenceLaw::central_moment(int m) const {
  const mpq_class& mu = pmf_.mu();
  if (m == 1) return Interval(precision());
  if (m == 2) return exact(2 * mu);
  if (m == 4) return exact(2 * mu + 12 * mu * mu);
  throw std::logic_error("SkellamReferenceLaw::central_moment: m must be 1, 2 or 4");
}

Interval SkellamReferenceLaw::even_mass() const {
  return (exp(Interval(mpq_class(-4 * pmf_.mu()), precision())) + mpq_class(1)) / mpq_class(2);
}

}  // namespace exactdp::laws
