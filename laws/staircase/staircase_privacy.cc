#include <exactdp/laws/staircase/staircase_privacy.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {

std::string StaircasePrivacy::describe() const {
  return "staircase(gamma=" + abbreviate(to_string(shape_.gamma())) + ", sensitivity=" +
         abbreviate(to_string(shape_.sensitivity())) + ", r=" + abbreviate(to_string(shape_.r())) + ")";
}

Interval StaircasePrivacy::excess_mass(mpfr_prec_t p) const {
  const mpz_class& d = shape_.sensitivity();
  const mpz_class half = d / 2;
  // the window {-half, ..., d - 1 - half}; inside, |k| < r has weight 1, the rest weight b
  const mpz_class r1 = shape_.r() - 1;
  const mpz_class hi = (d - 1 - half) < r1 ? mpz_class(d - 1 - half) : r1;
  const mpz_class lo = half < r1 ? half : r1;
  const mpz_class inside = hi + lo + 1;
  const Interval window = (shape_.b(p) * mpq_class(d - inside) + mpq_class(inside)) / shape_.normaliser(p);
  return window / expm1(Interval(shape_.gamma(), p));  // u = TV / (e^gamma - 1)
}

Interval StaircasePrivacy::delta_at(const mpq_class& epsilon, mpfr_prec_t p) const {
  if (sgn(epsilon) < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
  if (epsilon >= shape_.gamma()) return Interval(0L, p);
  const Interval gap = exp(Interval(shape_.gamma(), p)) - exp(Interval(epsilon, p));
  return max(excess_mass(p) * gap, Interval(0L, p));
}

Interval StaircasePrivacy::rdp(const mpq_class& alpha, mpfr_prec_t p) const {
  if (alpha <= 1) throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)), "order > 1");
  const Interval u = excess_mass(p);
  const Interval eg = exp(Interval(shape_.gamma(), p));
  const Interval m0 = mpq_class(1) - u * (eg + mpq_class(1));
  const Interval sum = u * exp(Interval(mpq_class(alpha * shape_.gamma()), p)) + max(m0, Interval(0L, p)) +
                       u * exp(Interval(mpq_class((1 - alpha) * shape_.gamma()), p));
  const Interval value = log(sum) / mpq_class(alpha - 1);
  return min(value, Interval(shape_.gamma(), p));  // an eps-DP pair's divergence is at most eps
}

std::vector<accounting::LawAtom> StaircasePrivacy::base_atoms(mpfr_prec_t p) const {
  const Interval u = excess_mass(p);
  const Interval eg = exp(Interval(shape_.gamma(), p));
  const Interval v = u * eg;
  const Interval m0 = max(mpq_class(1) - (u + v), Interval(0L, p));
  const Interval one(1L, p);
  return {{u, v, eg}, {m0, m0, one}, {v, u, one / eg}};
}

}  // namespace exactdp::laws
