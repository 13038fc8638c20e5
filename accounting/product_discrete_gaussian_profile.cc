#include <exactdp/accounting/product_discrete_gaussian_profile.h>

#include <algorithm>
#include <string>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

using internal::gaussian_normaliser;
using internal::gaussian_tail_sum;

void validate(const std::vector<GaussianCoordinate>& coords, const mpq_class& epsilon) {
  if (coords.empty()) throw ParameterError("sigma2", "sigma2: a product of no discrete Gaussians");
  for (const auto& c : coords) validate_discrete_gaussian(epsilon, c.sigma2, c.shift);
}

// The index of the widest coordinate (largest sigma2): summed out by its 1-D profile.
std::size_t widest(const std::vector<GaussianCoordinate>& coords) {
  std::size_t best = 0;
  for (std::size_t j = 1; j < coords.size(); ++j) {
    if (coords[j].sigma2 > coords[best].sigma2) best = j;
  }
  return best;
}

// R with P[|Z| > R] about eta / m: ceil(sigma sqrt(2 ln(2 m / eta))) from 64-bit estimates (any R
// is valid: the charge below is certified; R only sizes the truncation).
mpz_class truncation_radius(const mpq_class& sigma2, const mpq_class& delta, std::size_t m) {
  const Interval log_ratio = log(Interval(mpq_class(2 * static_cast<long>(m) * 65536) / delta, 64));
  const Interval r = sqrt(Interval(sigma2, 64) * log_ratio * mpq_class(2));
  mpz_class out;
  mpfr_get_z(out.get_mpz_t(), r.upper(), MPFR_RNDU);
  return out + 1;
}

// delta_last(eps') of one coordinate for any rational eps' (negative: by the reflection above).
Interval signed_delta(const mpq_class& eps, const GaussianCoordinate& c, mpfr_prec_t p) {
  if (sgn(eps) >= 0) return discrete_gaussian_delta_at(eps, c.sigma2, c.shift, p);
  const Interval g = exp(Interval(mpq_class(eps), p));  // e^eps' < 1
  const Interval complement = discrete_gaussian_delta_complement_at(mpq_class(-eps), c.sigma2, c.shift, p);
  return Interval(1L, p) - g * complement;
}

struct Outer {
  std::vector<GaussianCoordinate> coords;  // without the widest
  std::vector<mpz_class> radius;
  std::vector<Interval> normaliser;
};

// sum over x_j in [-R_j, R_j] for j >= index of prod p_j(x_j) delta_last(eps - sum L_j(x_j)).
Interval outer_sum(const Outer& o, std::size_t index, const mpq_class& eps, const GaussianCoordinate& last,
                   mpfr_prec_t p) {
  if (index == o.coords.size()) return signed_delta(eps, last, p);
  const GaussianCoordinate& c = o.coords[index];
  const mpq_class b(c.shift);
  Interval total(0L, p);
  for (mpz_class x = -o.radius[index]; x <= o.radius[index]; ++x) {
    const mpq_class loss = (b * b - 2 * b * mpq_class(x)) / (2 * c.sigma2);  // L_j(x), exact
    const Interval weight = exp(Interval(mpq_class(-mpq_class(x * x) / (2 * c.sigma2)), p)) / o.normaliser[index];
    total = total + weight * outer_sum(o, index + 1, mpq_class(eps - loss), last, p);
  }
  return total;
}

}  // namespace

unsigned long product_profile_points(const std::vector<GaussianCoordinate>& coords, const mpq_class& delta) {
  if (coords.size() <= 1) return 0;
  const std::size_t last = widest(coords);
  mpz_class points = 1;
  for (std::size_t j = 0; j < coords.size(); ++j) {
    if (j == last) continue;
    points *= 2 * truncation_radius(coords[j].sigma2, delta, coords.size()) + 1;
    if (points > kMaxProductProfilePoints) return kMaxProductProfilePoints + 1;
  }
  return points.get_ui();
}

Interval product_discrete_gaussian_delta_at(const std::vector<GaussianCoordinate>& coords, const mpq_class& epsilon,
                                            const mpq_class& delta, mpfr_prec_t precision) {
  validate(coords, epsilon);
  if (product_profile_points(coords, delta) > kMaxProductProfilePoints) {
    throw LimitError("delta", "delta: the product profile of " + std::to_string(coords.size()) +
                                  " discrete Gaussians needs more than " +
                                  std::to_string(kMaxProductProfilePoints) + " outer points");
  }
  const mpfr_prec_t p = precision + 16;
  const std::size_t last = widest(coords);
  Outer o;
  Interval tail(0L, p);
  for (std::size_t j = 0; j < coords.size(); ++j) {
    if (j == last) continue;
    o.coords.push_back(coords[j]);
    o.radius.push_back(truncation_radius(coords[j].sigma2, delta, coords.size()));
    o.normaliser.push_back(gaussian_normaliser(coords[j].sigma2, p, GaussianSumMethod::kAuto));
    // P[|Z_j| > R_j] = 2 S_j(R_j + 1) / N_j (symmetric law).
    tail = tail + gaussian_tail_sum(o.radius.back() + 1, coords[j].sigma2, p, GaussianSumMethod::kAuto) *
                      mpq_class(2) / o.normaliser.back();
  }
  const Interval inside = outer_sum(o, 0, epsilon, coords[last], p);
  Interval out(precision);
  mpfr_set(out.lower(), inside.lower(), MPFR_RNDD);
  if (mpfr_sgn(out.lower()) < 0) mpfr_set_zero(out.lower(), 1);
  const Interval upper = inside + tail;
  mpfr_set(out.upper(), upper.upper(), MPFR_RNDU);
  if (mpfr_cmp_ui(out.upper(), 1) > 0) mpfr_set_ui(out.upper(), 1, MPFR_RNDU);
  return out;
}

}  // namespace exactdp::accounting
