#include <exactdp/accounting/grid_noise.h>

#include <stdexcept>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/core/rational_rounding.h>

namespace exactdp::accounting {
namespace {

mpz_class isqrt(const mpz_class& x) {
  mpz_class out;
  mpz_sqrt(out.get_mpz_t(), x.get_mpz_t());
  return out;
}

// ceil(sqrt(x)) for an integer x >= 0.
mpz_class ceil_sqrt(const mpz_class& x) {
  mpz_class s = isqrt(x);
  if (s * s < x) ++s;
  return s;
}

}  // namespace

Interval at_most_one(const Interval& x) {
  if (lower_above(x, mpq_class(1))) return Interval(1L, x.precision());
  return clamp(x, mpq_class(0), mpq_class(1));
}

mpz_class grid_l2_sensitivity_squared(const mpq_class& sensitivity, const mpq_class& granularity, const mpz_class& dim) {
  const mpq_class ratio = sensitivity / granularity;
  const mpz_class f = floor_of(ratio * ratio);  // sum of floor(|b_i|)^2 is an integer <= (Delta/g)^2
  const mpz_class m = f < dim ? f : dim;         // coordinates with |b_i| >= 1: at most F and at most d
  return f + 2 * isqrt(m * f) + dim;             // sum of floor(|b_i|) <= sqrt(m F) (Cauchy-Schwarz)
}

mpz_class grid_l1_sensitivity(const mpq_class& sensitivity, const mpq_class& granularity, const mpz_class& dim) {
  return floor_of(sensitivity / granularity) + dim;
}

Interval lattice_eta(const mpq_class& t2, mpfr_prec_t precision) {
  const Interval c = square(pi_interval(precision)) * mpq_class(2 * t2);
  return Interval(mpq_class(2), precision) / expm1(c);
}

Interval lattice_log_ratio(const mpq_class& t2, const mpz_class& dim, mpfr_prec_t precision) {
  const Interval eta = lattice_eta(t2, precision);
  if (!upper_at_most(eta, mpq_class(1, 2))) throw std::logic_error("lattice_log_ratio: t^2 too small");
  return (log1p(eta) - log1p(-eta)) * mpq_class(dim);
}

std::vector<mpq_class> smoothing_candidates(const mpq_class& sigma_int2) {
  std::vector<mpq_class> out;
  for (mpq_class t2(1, 8); t2 <= 16; t2 *= 2) {
    if (t2 * 2 <= sigma_int2) out.push_back(t2);
  }
  return out;
}

bool smoothing_applies(const mpq_class& epsilon, const mpz_class& dim, const mpq_class& t2, mpfr_prec_t precision) {
  return (Interval(epsilon, precision) - mul_2si(lattice_log_ratio(t2, dim, precision), 1)).is_nonnegative();
}

Interval smoothed_gaussian_delta(const mpq_class& epsilon, const mpq_class& sigma_int2, const mpz_class& d2,
                                 const mpz_class& dim, const mpq_class& t2, mpfr_prec_t precision) {
  const Interval log_r = lattice_log_ratio(t2, dim, precision);
  // eps - 2 d ln r >= 0 is the caller's precondition (smoothing_applies): clamp the enclosure's
  // lower end at 0 (it still encloses the true, nonnegative value)
  Interval shifted = Interval(epsilon, precision) - mul_2si(log_r, 1);
  if (shifted.is_negative()) throw std::logic_error("smoothed_gaussian_delta: eps < 2 d ln r");
  shifted = max(shifted, Interval(0L, precision));
  const Interval mu = sqrt(Interval(mpq_class(mpq_class(d2) / (sigma_int2 - t2)), precision));
  const Interval bound = exp(log_r) * gdp_delta_at(shifted, mu, precision);
  return at_most_one(bound);
}

mpq_class smoothed_mu_upper(const mpz_class& d2, const mpq_class& sigma_int2, const mpq_class& t2) {
  const mpq_class mu2 = mpq_class(d2) / (sigma_int2 - t2);
  // ceil(sqrt(mu2 * 4^k)) / 2^k with k = 256 + (bits of the denominator): relative error < 2^-256.
  const unsigned long k = 256 + mpz_sizeinbase(mu2.get_den_mpz_t(), 2);
  mpz_class scaled_num = mu2.get_num() << (2 * k);
  mpz_class scaled;
  mpz_cdiv_q(scaled.get_mpz_t(), scaled_num.get_mpz_t(), mu2.get_den_mpz_t());
  mpq_class mu(ceil_sqrt(scaled), mpz_class(1) << k);
  mu.canonicalize();
  const mpq_class floor_mu(1, 1'000'000);
  return mu < floor_mu ? floor_mu : mu;
}

}  // namespace exactdp::accounting
