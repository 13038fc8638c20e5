#include "verification/reference_law.h"

#include <stdexcept>

#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::verification {
namespace {

// sigma2 above this: Euler-Maclaurin partial sums (relative error < 0.06 / sigma2).
const mpq_class kDirectSigma2Limit(1'000'000);
// sigma2 at or above this: Poisson summation for the normaliser and the moments.
const mpq_class kPoissonSigma2(8);

void set_zero(Bounds& b) {
  mpfr_set_zero(b.lower(), 1);
  mpfr_set_zero(b.upper(), 1);
}

// Adds [0, e] (e an upper bound of a non-negative error) to b.
Bounds widen_up(const Bounds& b, mpfr_srcptr e) {
  Bounds out = b;
  mpfr_add(out.upper(), out.upper(), e, MPFR_RNDU);
  return out;
}

// b +- e.
Bounds widen(const Bounds& b, mpfr_srcptr e) {
  Bounds out = b;
  mpfr_sub(out.lower(), out.lower(), e, MPFR_RNDD);
  mpfr_add(out.upper(), out.upper(), e, MPFR_RNDU);
  return out;
}

mpz_class isqrt_floor(const mpq_class& q) {
  mpz_class whole = q.get_num() / q.get_den();  // floor for q >= 0
  mpz_class root;
  mpz_sqrt(root.get_mpz_t(), whole.get_mpz_t());
  return root;
}

}  // namespace

// ---- ReferenceLaw ----------------------------------------------------------------------------

Bounds ReferenceLaw::mass(const std::optional<mpz_class>& a, const std::optional<mpz_class>& b) const {
  if (a && b && *a > *b) return Bounds();
  if (!symmetric()) return mass_general(a, b);
  // Centre: k = x - c. Split the range at 0 and mirror the negative part.
  std::optional<mpz_class> ka, kb;
  if (a) ka = *a - center_;
  if (b) kb = *b - center_;
  if (kb && sgn(*kb) < 0) {  // entirely below: mirror to [-kb, -ka]
    std::optional<mpz_class> hi;
    if (ka) hi = -*ka;
    return clamp(centered_mass(-*kb, hi), 0, 1);
  }
  if (ka && sgn(*ka) > 0) return clamp(centered_mass(*ka, kb), 0, 1);
  // ka <= 0 <= kb: [0, kb] plus the mirror of [ka, -1] = [1, -ka].
  Bounds out = centered_mass(0, kb);
  if (!ka) {
    out = add(out, centered_mass(1, std::nullopt));
  } else if (sgn(*ka) < 0) {
    out = add(out, centered_mass(1, mpz_class(-*ka)));
  }
  return clamp(out, 0, 1);
}

Bounds ReferenceLaw::mass_general(const std::optional<mpz_class>&, const std::optional<mpz_class>&) const {
  throw std::logic_error("ReferenceLaw::mass_general not implemented for this law");
}

Bounds ReferenceLaw::outside_mass(const mpz_class& threshold) const {
  const Bounds below = mass(std::nullopt, mpz_class(center_ - threshold - 1));
  const Bounds above = mass(mpz_class(center_ + threshold + 1), std::nullopt);
  return clamp(add(below, above), 0, 1);
}

Bounds ReferenceLaw::variance() const {
  const Bounds m1 = central_moment(1);
  Bounds v = sub(central_moment(2), square(m1));
  if (mpfr_sgn(v.lower()) < 0) mpfr_set_zero(v.lower(), 1);
  return v;
}

// ---- DiscreteGaussianLaw --------------------------------------------------------------------

DiscreteGaussianLaw::DiscreteGaussianLaw(const mpq_class& sigma2, const mpz_class& mean)
    : ReferenceLaw(mean), sigma2_(sigma2) {
  sigma2_.canonicalize();
  if (sgn(sigma2_) <= 0) {
    throw ParameterError::out_of_range("sigma2", abbreviate(to_string(sigma2_)), "sigma2 > 0");
  }
  if (sigma2_ < kPoissonSigma2) {
    // Z = 1 + 2 S(1, inf).
    Bounds tail = partial_sum(1, std::nullopt);
    z_ = add(Bounds::of(1L), mul(tail, mpz_class(2)));
  } else {
    Bounds base = sqrt_of(mul(mul(pi_bounds(), Bounds::of(sigma2_)), mpz_class(2)));
    Bounds factor = Bounds::of(1L);
    factor = widen_up(factor, poisson_error().upper());
    z_ = mul(base, factor);
  }
}

std::string DiscreteGaussianLaw::describe() const {
  return "discrete-gaussian sigma2=" + to_string(sigma2_) + " mean=" + to_string(center());
}

mpz_class DiscreteGaussianLaw::spread() const {
  mpz_class s = isqrt_floor(sigma2_);
  return s < 1 ? mpz_class(1) : s;
}

Bounds DiscreteGaussianLaw::poisson_error() const {
  // 3 exp(-pi^2 s) rounded up: exponent upper bound uses the lower bound of pi.
  Bounds out;
  mpfr_t e;
  mpfr_init2(e, kPrecision);
  mpfr_const_pi(e, MPFR_RNDD);
  mpfr_sqr(e, e, MPFR_RNDD);
  mpfr_mul_q(e, e, sigma2_.get_mpq_t(), MPFR_RNDD);
  mpfr_neg(e, e, MPFR_RNDU);  // exact
  mpfr_exp(out.upper(), e, MPFR_RNDU);
  mpfr_mul_ui(out.upper(), out.upper(), 3, MPFR_RNDU);
  mpfr_clear(e);
  return out;
}

Bounds DiscreteGaussianLaw::partial_sum(const mpz_class& a, const std::optional<mpz_class>& b) const {
  if (b && *b < a) return Bounds();
  if (sigma2_ <= kDirectSigma2Limit) return direct_sum(a, b);
  // Euler-Maclaurin on the pieces where f' is monotone: [0, m] and [m + 1, inf), m = floor(sqrt s).
  const mpz_class m = isqrt_floor(sigma2_);
  Bounds out;
  if (a <= m) {
    const mpz_class v = (b && *b < m) ? *b : m;
    out = add(out, euler_maclaurin_piece(a, v));
  }
  if (!b || *b > m) {
    const mpz_class u = a > m ? a : mpz_class(m + 1);
    out = add(out, euler_maclaurin_piece(u, b));
  }
  if (mpfr_sgn(out.lower()) < 0) mpfr_set_zero(out.lower(), 1);
  return out;
}

Bounds DiscreteGaussianLaw::direct_sum(const mpz_class& a, const std::optional<mpz_class>& b) const {
  // f(a), r_a = exp(-(2a + 1)/(2s)), c = exp(-1/s) as two chains (lower, upper).
  const mpq_class two_s = 2 * sigma2_;
  const Bounds f0 = exp_of(mpq_class(-mpq_class(a * a) / two_s));
  const Bounds r0 = exp_of(mpq_class(-mpq_class(2 * a + 1) / two_s));
  const Bounds c = exp_of(mpq_class(-1 / sigma2_));
  mpfr_t fl, fu, rl, ru, sl, su, t;
  mpfr_inits2(kPrecision, fl, fu, rl, ru, sl, su, t, static_cast<mpfr_ptr>(nullptr));
  mpfr_set(fl, f0.lower(), MPFR_RNDD);
  mpfr_set(fu, f0.upper(), MPFR_RNDU);
  mpfr_set(rl, r0.lower(), MPFR_RNDD);
  mpfr_set(ru, r0.upper(), MPFR_RNDU);
  mpfr_set_zero(sl, 1);
  mpfr_set_zero(su, 1);
  // The number of terms to add when b is finite (capped: the rest is bounded geometrically).
  std::optional<unsigned long> remaining;
  if (b) {
    const mpz_class count = *b - a + 1;
    if (mpz_fits_ulong_p(count.get_mpz_t())) remaining = mpz_get_ui(count.get_mpz_t());
  }
  bool truncated = false;
  for (unsigned long k = 0;; ++k) {
    if (remaining && k == *remaining) break;
    mpfr_add(sl, sl, fl, MPFR_RNDD);
    mpfr_add(su, su, fu, MPFR_RNDU);
    mpfr_mul(fl, fl, rl, MPFR_RNDD);  // next term
    mpfr_mul(fu, fu, ru, MPFR_RNDU);
    mpfr_mul(rl, rl, c.lower(), MPFR_RNDD);
    mpfr_mul(ru, ru, c.upper(), MPFR_RNDU);
    if ((k & 15) == 15 || mpfr_zero_p(fl)) {
      // Rest <= f_next / (1 - r_next) (ratios decrease). Stop when it is below 2^-300 of the sum.
      mpfr_ui_sub(t, 1, ru, MPFR_RNDD);
      if (mpfr_sgn(t) > 0) {
        mpfr_div(t, fu, t, MPFR_RNDU);
        // Or when it is below 2^-1000000 in absolute terms (the lower chain may have underflowed
        // to 0; masses that small are far below anything a test can resolve, and the enclosure
        // [sl, su + rest] stays valid).
        const bool relative = !mpfr_zero_p(sl) && mpfr_cmp(t, sl) <= 0 && mpfr_get_exp(t) + 300 < mpfr_get_exp(sl);
        if (relative || mpfr_zero_p(t) || mpfr_get_exp(t) < -1'000'000) {
          mpfr_add(su, su, t, MPFR_RNDU);
          truncated = true;
          break;
        }
      }
      if (k > 100'000'000UL) throw std::runtime_error("discrete Gaussian direct sum did not converge");
    }
  }
  (void)truncated;
  Bounds out = Bounds::between(sl, su);
  mpfr_clears(fl, fu, rl, ru, sl, su, t, static_cast<mpfr_ptr>(nullptr));
  return out;
}

Bounds DiscreteGaussianLaw::euler_maclaurin_piece(const mpz_class& u, const std::optional<mpz_class>& v) const {
  // S(u, v) = int_u^v f + (f(u) + f(v))/2 + E, |E| <= max(|f'(u)|, |f'(v)|) / 8, f' monotone here.
  const mpq_class two_s = 2 * sigma2_;
  // erfc(x / sqrt(2s)) with (x / sqrt(2s)) = sqrt(x^2 / (2s)).
  auto erfc_at = [&](const mpz_class& x) { return erfc_of(sqrt_of(Bounds::of(mpq_class(mpq_class(x * x) / two_s)))); };
  Bounds diff = erfc_at(u);
  Bounds fu = exp_of(mpq_class(-mpq_class(u * u) / two_s));
  Bounds ends = fu;
  // |f'(x)| = x/s f(x)
  Bounds deriv = mul(fu, Bounds::of(mpq_class(mpq_class(u) / sigma2_)));
  if (v) {
    diff = sub(diff, erfc_at(*v));
    const Bounds fv = exp_of(mpq_class(-mpq_class(*v * *v) / two_s));
    ends = add(ends, fv);
    const Bounds dv = mul(fv, Bounds::of(mpq_class(mpq_class(*v) / sigma2_)));
    if (mpfr_cmp(dv.upper(), deriv.upper()) > 0) deriv = dv;
  }
  if (mpfr_sgn(diff.lower()) < 0) mpfr_set_zero(diff.lower(), 1);
  const Bounds scale = sqrt_of(div(mul(pi_bounds(), Bounds::of(sigma2_)), Bounds::of(2L)));
  Bounds out = add(mul(scale, diff), div(ends, Bounds::of(2L)));
  mpfr_t e;
  mpfr_init2(e, kPrecision);
  mpfr_div_ui(e, deriv.upper(), 8, MPFR_RNDU);
  out = widen(out, e);
  mpfr_clear(e);
  return out;
}

Bounds DiscreteGaussianLaw::centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const {
  return div(partial_sum(a, b), z_);
}

Bounds DiscreteGaussianLaw::even_mass() const {
  const DiscreteGaussianLaw quarter(mpq_class(sigma2_ / 4), 0);
  return clamp(div(quarter.normaliser(), z_), 0, 1);
}

Bounds DiscreteGaussianLaw::central_moment(int m) const {
  if (m == 1) return Bounds();  // symmetric about the mean
  if (m != 2 && m != 4) throw std::invalid_argument("central_moment: m must be 1, 2 or 4");
  if (sigma2_ >= kPoissonSigma2) {
    // (c_m + e_m) / (1 + e_0), c_2 = s, c_4 = 3 s^2, |e_m| <= eps, 0 <= e_0 <= eps.
    const mpq_class cm = m == 2 ? sigma2_ : mpq_class(3 * sigma2_ * sigma2_);
    const Bounds eps = poisson_error();
    Bounds num = widen(Bounds::of(cm), eps.upper());
    Bounds den = widen_up(Bounds::of(1L), eps.upper());
    return div(num, den);
  }
  // sigma2 < 8: direct sum over k = 1..400; for k >= 401 the ratio of consecutive terms k^m f(k)
  // is at most (402/401)^4 exp(-803/16) < 1/2, so the rest is at most 2 * term(401).
  const mpq_class two_s = 2 * sigma2_;
  Bounds sum;
  for (long k = 1; k <= 400; ++k) {
    mpz_class km;
    mpz_ui_pow_ui(km.get_mpz_t(), static_cast<unsigned long>(k), static_cast<unsigned long>(m));
    sum = add(sum, mul(exp_of(mpq_class(-mpq_class(k * k) / two_s)), km));
  }
  mpz_class km;
  mpz_ui_pow_ui(km.get_mpz_t(), 401UL, static_cast<unsigned long>(m));
  const Bounds last = mul(exp_of(mpq_class(-mpq_class(401 * 401) / two_s)), km);
  mpfr_t e;
  mpfr_init2(e, kPrecision);
  mpfr_mul_ui(e, last.upper(), 2, MPFR_RNDU);
  sum = widen_up(sum, e);
  mpfr_clear(e);
  return div(mul(sum, mpz_class(2)), z_);
}

// ---- DiscreteLaplaceLaw ---------------------------------------------------------------------

DiscreteLaplaceLaw::DiscreteLaplaceLaw(const mpq_class& scale, const mpz_class& mean)
    : ReferenceLaw(mean), scale_(scale) {
  scale_.canonicalize();
  if (sgn(scale_) <= 0) {
    throw ParameterError::out_of_range("scale", abbreviate(to_string(scale_)), "scale > 0");
  }
  const mpq_class e = -1 / scale_;
  r_ = exp_of(e);
  one_minus_r_ = neg_expm1_of(e);
}

std::string DiscreteLaplaceLaw::describe() const {
  return "discrete-laplace scale=" + to_string(scale_) + " mean=" + to_string(center());
}

mpz_class DiscreteLaplaceLaw::spread() const {
  // about sqrt(2) * scale, the standard deviation for large scales
  mpz_class s = isqrt_floor(mpq_class(2 * scale_ * scale_));
  return s < 1 ? mpz_class(1) : s;
}

Bounds DiscreteLaplaceLaw::centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const {
  // exp(-a/t) (1 - exp(-(b - a + 1)/t)) / (1 + r); the tail (b infinite) drops the middle factor.
  Bounds out = exp_of(mpq_class(-mpq_class(a) / scale_));
  if (b) out = mul(out, neg_expm1_of(mpq_class(-mpq_class(*b - a + 1) / scale_)));
  return div(out, add(Bounds::of(1L), r_));
}

Bounds DiscreteLaplaceLaw::even_mass() const {
  const Bounds one = Bounds::of(1L);
  return clamp(div(add(one, square(r_)), square(add(one, r_))), 0, 1);
}

Bounds DiscreteLaplaceLaw::central_moment(int m) const {
  if (m == 1) return Bounds();
  const Bounds one = Bounds::of(1L);
  if (m == 2) return div(mul(r_, mpz_class(2)), square(one_minus_r_));
  if (m == 4) {
    const Bounds r2 = square(r_);
    const Bounds r3 = mul(r2, r_);
    Bounds poly = add(add(one, mul(r_, mpz_class(11))), add(mul(r2, mpz_class(11)), r3));
    Bounds num = mul(mul(r_, mpz_class(2)), poly);
    Bounds om2 = square(one_minus_r_);
    Bounds den = mul(square(om2), add(one, r_));
    return div(num, den);
  }
  throw std::invalid_argument("central_moment: m must be 1, 2 or 4");
}

// ---- BernoulliExpLaw ------------------------------------------------------------------------

BernoulliExpLaw::BernoulliExpLaw(const mpq_class& gamma) : ReferenceLaw(0), gamma_(gamma) {
  gamma_.canonicalize();
  if (sgn(gamma_) < 0) {
    throw ParameterError::out_of_range("gamma", abbreviate(to_string(gamma_)), "gamma >= 0");
  }
  p_ = exp_of(mpq_class(-gamma_));
  q_ = neg_expm1_of(mpq_class(-gamma_));
  if (sgn(gamma_) == 0) set_zero(q_);  // exactly 0 (no rounding slack): X = 0 is impossible
}

std::string BernoulliExpLaw::describe() const { return "bernoulli-exp gamma=" + to_string(gamma_); }

Bounds BernoulliExpLaw::central_moment(int m) const {
  if (m == 1 || m == 2 || m == 4) return p_;
  throw std::invalid_argument("central_moment: m must be 1, 2 or 4");
}

Bounds BernoulliExpLaw::mass_general(const std::optional<mpz_class>& a, const std::optional<mpz_class>& b) const {
  auto contains = [&](long x) { return (!a || *a <= x) && (!b || *b >= x); };
  Bounds out;
  if (contains(0)) out = add(out, q_);
  if (contains(1)) out = add(out, p_);
  return clamp(out, 0, 1);
}

}  // namespace exactdp::verification
