#include <exactdp/accounting/subsampled_discrete_gaussian_exact.h>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/profile_inversion.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

using internal::gaussian_normaliser;
using internal::gaussian_range_sum;
using internal::gaussian_tail_sum;
constexpr auto kAuto = GaussianSumMethod::kAuto;
constexpr long kMaxCandidates = 16;

void check(const mpq_class& sigma2, const mpz_class& sensitivity, const mpq_class& q, const mpq_class& epsilon) {
  validate_discrete_gaussian(epsilon, sigma2, sensitivity);
  if (sgn(q) <= 0 || q > 1) throw ParameterError::out_of_range("q", abbreviate(to_string(q)), "0 < q <= 1");
}

// floor(x) for both ends of x: the integers a threshold enclosure allows.
mpz_class floor_of(mpfr_srcptr x) {
  mpz_class z;
  mpfr_get_z(z.get_mpz_t(), x, MPFR_RNDD);
  return z;
}

// (sigma2/Delta) log1p(u) + Delta/2, enclosed (u > -1).
Interval threshold(const Interval& u, const mpq_class& sigma2, const mpz_class& delta) {
  return log1p(u) * mpq_class(sigma2 / delta) + mpq_class(delta, 2);
}

// [0, 1]: an undecided value at this precision (the Ziv loop raises it).
Interval undecided(mpfr_prec_t p) { return hull(Interval(0L, p), Interval(1L, p)); }

// Remove order, N delta_1 = max over candidate first indices a of q R(a - Delta, a - 1) - expm1(eps) S(a).
Interval remove_order(const mpq_class& sigma2, const mpz_class& delta, const mpq_class& q, const Interval& em1) {
  const mpfr_prec_t p = em1.precision();
  const Interval t1 = threshold(em1 / q, sigma2, delta);
  if (!t1.is_finite()) return undecided(p);
  const mpz_class lo = floor_of(t1.lower()) + 1, hi = floor_of(t1.upper()) + 1;
  if (hi - lo >= kMaxCandidates) return undecided(p);
  Interval best(p);
  bool first = true;
  for (mpz_class a = lo; a <= hi; ++a) {
    const Interval v = gaussian_range_sum(a - delta, a - 1, sigma2, p, kAuto) * q - em1 * gaussian_tail_sum(a, sigma2, p, kAuto);
    best = first ? v : max(best, v);
    first = false;
  }
  return best;
}

// Add order, N delta_2 = max over candidate last indices b of e^eps q R(b - Delta + 1, b) - expm1(eps) S(-b),
// when q + expm1(-eps) > 0 (else 0).
Interval add_order(const mpq_class& sigma2, const mpz_class& delta, const mpq_class& q, const Interval& eps,
                   const Interval& em1) {
  const mpfr_prec_t p = eps.precision();
  const Interval u = expm1(-eps) / q;  // > -1 iff e^-eps > 1 - q
  if (mpfr_cmp_si(u.upper(), -1) <= 0) return Interval(0L, p);
  if (mpfr_cmp_si(u.lower(), -1) <= 0) return undecided(p);
  const Interval t2 = threshold(u, sigma2, delta);
  if (!t2.is_finite()) return undecided(p);
  // z < t2: the last such integer is ceil(t2) - 1, between floor(t2.lower) - 1 and floor(t2.upper).
  const mpz_class lo = floor_of(t2.lower()) - 1, hi = floor_of(t2.upper());
  if (hi - lo >= kMaxCandidates) return undecided(p);
  const Interval c = exp(eps);
  Interval best(p);
  for (mpz_class b = lo; b <= hi; ++b) {
    const Interval v = c * gaussian_range_sum(b - delta + 1, b, sigma2, p, kAuto) * q -
                       em1 * gaussian_tail_sum(mpz_class(-b), sigma2, p, kAuto);
    best = max(best, v);  // best starts at 0: a candidate below 0 is no better than the empty set
  }
  return best;
}

}  // namespace

Interval subsampled_discrete_gaussian_delta(const mpq_class& sigma2, const mpz_class& sensitivity, const mpq_class& q,
                                            const mpq_class& epsilon, mpfr_prec_t precision) {
  check(sigma2, sensitivity, q, epsilon);
  const mpfr_prec_t w = precision + 16;
  const Interval eps(epsilon, w);
  const Interval em1 = expm1(eps);
  const Interval n = gaussian_normaliser(sigma2, w, kAuto);
  Interval d = max(remove_order(sigma2, sensitivity, q, em1), add_order(sigma2, sensitivity, q, eps, em1)) / n;
  d = clamp(d, mpq_class(0), mpq_class(1));
  d.set_precision(precision);
  return d;
}

Certified subsampled_discrete_gaussian_delta(const mpq_class& sigma2, const mpz_class& sensitivity, const mpq_class& q,
                                             const mpq_class& epsilon, const ZivOptions& options) {
  check(sigma2, sensitivity, q, epsilon);
  check_range_sum_cost(sigma2, sensitivity, "sigma2");
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return subsampled_discrete_gaussian_delta(sigma2, sensitivity, q, epsilon, p); }, options);
}

std::optional<Certified> subsampled_discrete_gaussian_epsilon(const mpq_class& sigma2, const mpz_class& sensitivity,
                                                              const mpq_class& q, const mpq_class& delta,
                                                              const ZivOptions& options) {
  check(sigma2, sensitivity, q, mpq_class(0));
  check_range_sum_cost(sigma2, sensitivity, "sigma2");
  return profile_epsilon(
      [&](const mpq_class& e, mpfr_prec_t p) {
        return subsampled_discrete_gaussian_delta(sigma2, sensitivity, q, e, p);
      },
      delta, options);
}

}  // namespace exactdp::accounting
