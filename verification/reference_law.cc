#include <exactdp/verification/reference_law.h>

#include <stdexcept>

#include <exactdp/accounting/normal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::verification {
namespace {

// sigma2 above this: Euler-Maclaurin partial sums (relative error < 0.06 / sigma2).
const mpq_class kDirectSigma2Limit(1'000'000);
// sigma2 at or above this: Poisson summation for the normaliser and the moments.
const mpq_class kPoissonSigma2(8);

using exactdp::Real;

const mpq_class kZero(0), kOne(1);

// Adds [0, e] (e an upper bound of a non-negative error) to b.
Interval widen_up(const Interval& b, mpfr_srcptr e) {
  Interval out = b;
  mpfr_add(out.upper(), out.upper(), e, MPFR_RNDU);
  return out;
}

// b +- e.
Interval widen(const Interval& b, mpfr_srcptr e) {
  Interval out = b;
  mpfr_sub(out.lower(), out.lower(), e, MPFR_RNDD);
  mpfr_add(out.upper(), out.upper(), e, MPFR_RNDU);
  return out;
}

// A quantity known to be >= 0 whose lower end rounding took below 0.
void clamp_lower_at_zero(Interval& b) {
  if (mpfr_sgn(b.lower()) < 0) mpfr_set_zero(b.lower(), 1);
}

Interval probability(const Interval& b) { return exactdp::clamp(b, kZero, kOne); }

mpz_class isqrt_floor(const mpq_class& q) {
  mpz_class whole = q.get_num() / q.get_den();  // floor for q >= 0
  mpz_class root;
  mpz_sqrt(root.get_mpz_t(), whole.get_mpz_t());
  return root;
}

// num / q for q > 0, left uncanonicalised: the same value (mpfr_set_q and mpfr_mul_q round the
// quotient itself, so every bound is the same bit for bit), without GMP's gcd, which costs about
// 10 ms a quotient at 10^5 digits (a Euler-Maclaurin mass takes a dozen such quotients).
mpq_class over(const mpz_class& num, const mpq_class& q) {
  return mpq_class(mpz_class(num * q.get_den()), q.get_num());
}

}  // namespace

// ---- ReferenceLaw ----------------------------------------------------------------------------

Interval ReferenceLaw::mass(const std::optional<mpz_class>& a, const std::optional<mpz_class>& b) const {
  if (a && b && *a > *b) return Interval(precision_);
  if (!symmetric()) return mass_general(a, b);
  // Centre: k = x - c. Split the range at 0 and mirror the negative part.
  std::optional<mpz_class> ka, kb;
  if (a) ka = *a - center_;
  if (b) kb = *b - center_;
  if (kb && sgn(*kb) < 0) {  // entirely below: mirror to [-kb, -ka]
    std::optional<mpz_class> hi;
    if (ka) hi = -*ka;
    return probability(centered_mass(-*kb, hi));
  }
  if (ka && sgn(*ka) > 0) return probability(centered_mass(*ka, kb));
  // ka <= 0 <= kb: [0, kb] plus the mirror of [ka, -1] = [1, -ka].
  Interval out = centered_mass(0, kb);
  if (!ka) {
    out = out + centered_mass(1, std::nullopt);
  } else if (sgn(*ka) < 0) {
    out = out + centered_mass(1, mpz_class(-*ka));
  }
  return probability(out);
}

Interval ReferenceLaw::mass_general(const std::optional<mpz_class>&, const std::optional<mpz_class>&) const {
  throw std::logic_error("ReferenceLaw::mass_general not implemented for this law");
}

Interval ReferenceLaw::outside_mass(const mpz_class& threshold) const {
  const Interval below = mass(std::nullopt, mpz_class(center_ - threshold - 1));
  const Interval above = mass(mpz_class(center_ + threshold + 1), std::nullopt);
  return probability(below + above);
}

Interval ReferenceLaw::variance() const {
  const Interval m1 = central_moment(1);
  Interval v = central_moment(2) - square(m1);
  clamp_lower_at_zero(v);
  return v;
}

// ---- DiscreteGaussianLaw --------------------------------------------------------------------

DiscreteGaussianLaw::DiscreteGaussianLaw(const mpq_class& sigma2, const mpz_class& mean, mpfr_prec_t precision)
    : ReferenceLaw(mean, precision), sigma2_(sigma2), z_(precision) {
  sigma2_.canonicalize();
  if (sgn(sigma2_) <= 0) {
    throw ParameterError::out_of_range("sigma2", abbreviate(to_string(sigma2_)), "sigma2 > 0");
  }
  if (sigma2_ < kPoissonSigma2) {
    // Z = 1 + 2 S(1, inf).
    z_ = partial_sum(1, std::nullopt) * mpq_class(2) + kOne;
  } else {
    const Interval base = sqrt(exactdp::pi_interval(precision) * mpq_class(2 * sigma2_));
    z_ = base * widen_up(exact(kOne), poisson_error().upper());
  }
}

std::unique_ptr<ReferenceLaw> DiscreteGaussianLaw::at_precision(mpfr_prec_t precision) const {
  return std::make_unique<DiscreteGaussianLaw>(sigma2_, center(), precision);
}

std::string DiscreteGaussianLaw::describe() const {
  return "discrete-gaussian sigma2=" + to_string(sigma2_) + " mean=" + to_string(center());
}

mpz_class DiscreteGaussianLaw::spread() const {
  mpz_class s = isqrt_floor(sigma2_);
  return s < 1 ? mpz_class(1) : s;
}

Interval DiscreteGaussianLaw::poisson_error() const {
  // 3 exp(-pi^2 s) rounded up: exponent upper bound uses the lower bound of pi.
  Interval out(precision());
  Real e(precision());
  mpfr_const_pi(e.get(), MPFR_RNDD);
  mpfr_sqr(e.get(), e.get(), MPFR_RNDD);
  mpfr_mul_q(e.get(), e.get(), sigma2_.get_mpq_t(), MPFR_RNDD);
  mpfr_neg(e.get(), e.get(), MPFR_RNDU);  // exact
  mpfr_exp(out.upper(), e.get(), MPFR_RNDU);
  mpfr_mul_ui(out.upper(), out.upper(), 3, MPFR_RNDU);
  return out;
}

Interval DiscreteGaussianLaw::partial_sum(const mpz_class& a, const std::optional<mpz_class>& b) const {
  if (b && *b < a) return Interval(precision());
  if (sigma2_ <= kDirectSigma2Limit) return direct_sum(a, b);
  // Euler-Maclaurin on the pieces where f' is monotone: [0, m] and [m + 1, inf), m = floor(sqrt s).
  const mpz_class m = isqrt_floor(sigma2_);
  Interval out(precision());
  if (a <= m) {
    const mpz_class v = (b && *b < m) ? *b : m;
    out = out + euler_maclaurin_piece(a, v);
  }
  if (!b || *b > m) {
    const mpz_class u = a > m ? a : mpz_class(m + 1);
    out = out + euler_maclaurin_piece(u, b);
  }
  clamp_lower_at_zero(out);
  return out;
}

Interval DiscreteGaussianLaw::direct_sum(const mpz_class& a, const std::optional<mpz_class>& b) const {
  // f(a), r_a = exp(-(2a + 1)/(2s)), c = exp(-1/s) as two chains (lower, upper).
  const mpq_class two_s = 2 * sigma2_;
  const Interval f0 = exp(exact(-mpq_class(a * a) / two_s));
  const Interval r0 = exp(exact(-mpq_class(2 * a + 1) / two_s));
  const Interval c = exp(exact(-1 / sigma2_));
  const mpfr_prec_t p = precision();
  Real fl(p), fu(p), rl(p), ru(p), sl(p), su(p), t(p);
  mpfr_set(fl.get(), f0.lower(), MPFR_RNDD);
  mpfr_set(fu.get(), f0.upper(), MPFR_RNDU);
  mpfr_set(rl.get(), r0.lower(), MPFR_RNDD);
  mpfr_set(ru.get(), r0.upper(), MPFR_RNDU);
  mpfr_set_zero(sl.get(), 1);
  mpfr_set_zero(su.get(), 1);
  // The number of terms to add when b is finite (capped: the rest is bounded geometrically).
  std::optional<unsigned long> remaining;
  if (b) {
    const mpz_class count = *b - a + 1;
    if (mpz_fits_ulong_p(count.get_mpz_t())) remaining = mpz_get_ui(count.get_mpz_t());
  }
  for (unsigned long k = 0;; ++k) {
    if (remaining && k == *remaining) break;
    mpfr_add(sl.get(), sl.get(), fl.get(), MPFR_RNDD);
    mpfr_add(su.get(), su.get(), fu.get(), MPFR_RNDU);
    mpfr_mul(fl.get(), fl.get(), rl.get(), MPFR_RNDD);  // next term
    mpfr_mul(fu.get(), fu.get(), ru.get(), MPFR_RNDU);
    mpfr_mul(rl.get(), rl.get(), c.lower(), MPFR_RNDD);
    mpfr_mul(ru.get(), ru.get(), c.upper(), MPFR_RNDU);
    if ((k & 15) == 15 || mpfr_zero_p(fl.get())) {
      // Rest <= f_next / (1 - r_next) (ratios decrease). Stop when it is below 2^-(p + 44) of the
      // sum (2^-300 at the default 256 bits), so a law built at more bits sums further.
      mpfr_ui_sub(t.get(), 1, ru.get(), MPFR_RNDD);
      if (mpfr_sgn(t.get()) > 0) {
        mpfr_div(t.get(), fu.get(), t.get(), MPFR_RNDU);
        // Or when it is below 2^-1000000 in absolute terms (the lower chain may have underflowed
        // to 0; masses that small are far below anything a test can resolve, and the enclosure
        // [sl, su + rest] stays valid).
        const bool relative = !mpfr_zero_p(sl.get()) && mpfr_cmp(t.get(), sl.get()) <= 0 &&
                              mpfr_get_exp(t.get()) + static_cast<long>(p) + 44 < mpfr_get_exp(sl.get());
        if (relative || mpfr_zero_p(t.get()) || mpfr_get_exp(t.get()) < -1'000'000) {
          mpfr_add(su.get(), su.get(), t.get(), MPFR_RNDU);
          break;
        }
      }
      if (k > 100'000'000UL) throw std::runtime_error("discrete Gaussian direct sum did not converge");
    }
  }
  return Interval::from_ends(sl.get(), su.get(), p);
}

Interval DiscreteGaussianLaw::euler_maclaurin_piece(const mpz_class& u, const std::optional<mpz_class>& v) const {
  // S(u, v) = int_u^v f + (f(u) + f(v))/2 + E, |E| <= max(|f'(u)|, |f'(v)|) / 8, f' monotone here.
  const mpq_class two_s = 2 * sigma2_;
  // erfc(x / sqrt(2s)) with (x / sqrt(2s)) = sqrt(x^2 / (2s)).
  auto erfc_at = [&](const mpz_class& x) { return accounting::erfc(sqrt(exact(over(x * x, two_s)))); };
  Interval diff = erfc_at(u);
  const Interval fu = exp(exact(over(-(u * u), two_s)));
  Interval ends = fu;
  // |f'(x)| = x/s f(x)
  Interval deriv = fu * over(u, sigma2_);
  if (v) {
    diff = diff - erfc_at(*v);
    const Interval fv = exp(exact(over(-(*v * *v), two_s)));
    ends = ends + fv;
    Interval dv = fv * over(*v, sigma2_);
    if (mpfr_cmp(dv.upper(), deriv.upper()) > 0) deriv = std::move(dv);
  }
  clamp_lower_at_zero(diff);
  const Interval scale = sqrt(exactdp::pi_interval(precision()) * mpq_class(sigma2_ / 2));
  Real e(precision());
  mpfr_div_ui(e.get(), deriv.upper(), 8, MPFR_RNDU);
  return widen(scale * diff + ends / mpq_class(2), e.get());
}

Interval DiscreteGaussianLaw::centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const {
  return partial_sum(a, b) / z_;
}

Interval DiscreteGaussianLaw::even_mass() const {
  const DiscreteGaussianLaw quarter(mpq_class(sigma2_ / 4), 0, precision());
  return probability(quarter.normaliser() / z_);
}

Interval DiscreteGaussianLaw::central_moment(int m) const {
  if (m == 1) return Interval(precision());  // symmetric about the mean
  if (m != 2 && m != 4) throw ParameterError::out_of_range("m", std::to_string(m), "m in {1, 2, 4} (central_moment)");
  if (sigma2_ >= kPoissonSigma2) {
    // (c_m + e_m) / (1 + e_0), c_2 = s, c_4 = 3 s^2, |e_m| <= eps, 0 <= e_0 <= eps.
    const mpq_class cm = m == 2 ? sigma2_ : mpq_class(3 * sigma2_ * sigma2_);
    const Interval eps = poisson_error();
    return widen(exact(cm), eps.upper()) / widen_up(exact(kOne), eps.upper());
  }
  // sigma2 < 8: direct sum over k = 1..400; for k >= 401 the ratio of consecutive terms k^m f(k)
  // is at most (402/401)^4 exp(-803/16) < 1/2, so the rest is at most 2 * term(401).
  const mpq_class two_s = 2 * sigma2_;
  auto term = [&](long k) {
    mpz_class km;
    mpz_ui_pow_ui(km.get_mpz_t(), static_cast<unsigned long>(k), static_cast<unsigned long>(m));
    return exp(exact(-mpq_class(k * k) / two_s)) * mpq_class(km);
  };
  Interval sum(precision());
  for (long k = 1; k <= 400; ++k) sum = sum + term(k);
  Real e(precision());
  mpfr_mul_ui(e.get(), term(401).upper(), 2, MPFR_RNDU);
  return widen_up(sum, e.get()) * mpq_class(2) / z_;
}

// ---- DiscreteLaplaceLaw ---------------------------------------------------------------------

DiscreteLaplaceLaw::DiscreteLaplaceLaw(const mpq_class& scale, const mpz_class& mean, mpfr_prec_t precision)
    : ReferenceLaw(mean, precision), scale_(scale), r_(precision), one_minus_r_(precision) {
  scale_.canonicalize();
  if (sgn(scale_) <= 0) {
    throw ParameterError::out_of_range("scale", abbreviate(to_string(scale_)), "scale > 0");
  }
  const Interval e = exact(-1 / scale_);
  r_ = exp(e);
  one_minus_r_ = -expm1(e);
}

std::unique_ptr<ReferenceLaw> DiscreteLaplaceLaw::at_precision(mpfr_prec_t precision) const {
  return std::make_unique<DiscreteLaplaceLaw>(scale_, center(), precision);
}

std::string DiscreteLaplaceLaw::describe() const {
  return "discrete-laplace scale=" + to_string(scale_) + " mean=" + to_string(center());
}

mpz_class DiscreteLaplaceLaw::spread() const {
  // about sqrt(2) * scale, the standard deviation for large scales
  mpz_class s = isqrt_floor(mpq_class(2 * scale_ * scale_));
  return s < 1 ? mpz_class(1) : s;
}

Interval DiscreteLaplaceLaw::centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const {
  // exp(-a/t) (1 - exp(-(b - a + 1)/t)) / (1 + r); the tail (b infinite) drops the middle factor.
  Interval out = exp(exact(over(-a, scale_)));
  if (b) out = out * -expm1(exact(over(-(*b - a + 1), scale_)));
  return out / (r_ + kOne);
}

Interval DiscreteLaplaceLaw::even_mass() const {
  return probability((square(r_) + kOne) / square(r_ + kOne));
}

Interval DiscreteLaplaceLaw::central_moment(int m) const {
  if (m == 1) return Interval(precision());
  if (m == 2) return r_ * mpq_class(2) / square(one_minus_r_);
  if (m == 4) {
    const Interval r2 = square(r_);
    const Interval r3 = r2 * r_;
    const Interval poly = r_ * mpq_class(11) + kOne + (r2 * mpq_class(11) + r3);
    const Interval num = r_ * mpq_class(2) * poly;
    const Interval den = square(square(one_minus_r_)) * (r_ + kOne);
    return num / den;
  }
  throw ParameterError::out_of_range("m", std::to_string(m), "m in {1, 2, 4} (central_moment)");
}

// ---- BernoulliExpLaw ------------------------------------------------------------------------

BernoulliExpLaw::BernoulliExpLaw(const mpq_class& gamma, mpfr_prec_t precision)
    : ReferenceLaw(0, precision), gamma_(gamma), p_(precision), q_(precision) {
  gamma_.canonicalize();
  if (sgn(gamma_) < 0) {
    throw ParameterError::out_of_range("gamma", abbreviate(to_string(gamma_)), "gamma >= 0");
  }
  p_ = exp(exact(-gamma_));
  // q = 1 - p; exactly 0 (no rounding slack) at gamma = 0: X = 0 is impossible.
  if (sgn(gamma_) != 0) q_ = -expm1(exact(-gamma_));
}

std::unique_ptr<ReferenceLaw> BernoulliExpLaw::at_precision(mpfr_prec_t precision) const {
  return std::make_unique<BernoulliExpLaw>(gamma_, precision);
}

std::string BernoulliExpLaw::describe() const { return "bernoulli-exp gamma=" + to_string(gamma_); }

Interval BernoulliExpLaw::central_moment(int m) const {
  if (m == 1 || m == 2 || m == 4) return p_;
  throw ParameterError::out_of_range("m", std::to_string(m), "m in {1, 2, 4} (central_moment)");
}

Interval BernoulliExpLaw::mass_general(const std::optional<mpz_class>& a, const std::optional<mpz_class>& b) const {
  auto contains = [&](long x) { return (!a || *a <= x) && (!b || *b >= x); };
  Interval out(precision());
  if (contains(0)) out = out + q_;
  if (contains(1)) out = out + p_;
  return probability(out);
}

}  // namespace exactdp::verification
