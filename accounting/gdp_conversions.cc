#include "accounting/gdp_conversions.h"

#include <functional>
#include <stdexcept>

#include "accounting/gaussian_profile.h"
#include "accounting/normal.h"
#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::accounting {
namespace {

const mpq_class kMaxParameter(1'000'000);
constexpr int kMaxDoublings = 200;

void validate_mu(const mpq_class& mu) {
  if (mu <= 0 || mu > kMaxParameter) {
    throw ParameterError::out_of_range("mu", abbreviate(to_string(mu)), "0 < mu <= 10^6");
  }
}
void validate_epsilon(const mpq_class& epsilon) {
  if (epsilon < 0 || epsilon > kMaxParameter) {
    throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)),
                                       "0 <= epsilon <= 10^6");
  }
}
void validate_delta(const mpq_class& delta) {
  if (delta <= 0 || delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(delta)), "0 < delta < 1");
  }
}

// Where x lies relative to the root x* of a monotone problem, as PROVEN by an interval
// evaluation: kAbove means x >= x*, kBelow means x <= x*, kUnknown means neither is proven.
enum class Side { kBelow, kAbove, kUnknown };
using SideFn = std::function<Side(const Real& x)>;

// Certified bisection: given x* in [lo, hi], halves the bracket while the side of the midpoint
// is proven, at most precision + 200 times, until hi - lo <= 2^-(precision - 24) * hi.
// Points are held at precision + 16 bits; the midpoint's rounding direction is irrelevant
// (any point strictly inside the bracket will do), we use RNDD.
Interval bisect(const SideFn& side, Real lo, Real hi, mpfr_prec_t precision) {
  const mpfr_prec_t pp = precision + 16;
  mpfr_prec_round(lo.get(), pp, MPFR_RNDD);  // lo only moves down: still <= x*
  mpfr_prec_round(hi.get(), pp, MPFR_RNDU);  // hi only moves up: still >= x*
  Real mid(pp), gap(pp), scale(pp);
  for (long step = 0; step < static_cast<long>(precision) + 200; ++step) {
    mpfr_sub(gap.get(), hi.get(), lo.get(), MPFR_RNDU);
    mpfr_mul_2si(scale.get(), hi.get(), -(static_cast<long>(precision) - 24), MPFR_RNDD);
    if (mpfr_cmp(gap.get(), scale.get()) <= 0) break;
    mpfr_add(mid.get(), lo.get(), hi.get(), MPFR_RNDD);
    mpfr_div_2ui(mid.get(), mid.get(), 1, MPFR_RNDD);
    if (mpfr_cmp(mid.get(), lo.get()) <= 0 || mpfr_cmp(mid.get(), hi.get()) >= 0) break;
    const Side s = side(mid);
    if (s == Side::kAbove) {
      hi = mid;
    } else if (s == Side::kBelow) {
      lo = mid;
    } else {
      break;  // not provable at this precision: the Ziv driver raises it
    }
  }
  return Interval::from_ends(lo.get(), hi.get(), pp);
}

Real real_from(mpfr_srcptr x, mpfr_prec_t precision, mpfr_rnd_t rnd) {
  Real r(precision);
  mpfr_set(r.get(), x, rnd);
  return r;
}

// Doubles hi (at most kMaxDoublings times) until side(hi) == kAbove is proven.
Real find_upper(const SideFn& side, Real hi, const char* what) {
  for (int i = 0; i < kMaxDoublings; ++i) {
    if (side(hi) == Side::kAbove) return hi;
    mpfr_mul_2ui(hi.get(), hi.get(), 1, MPFR_RNDU);
  }
  // The answer lies beyond 2^200 times the starting guess (no legal input is known to get here
  // since delta near 1 is compared on 1 - delta). Refuse it as a limit (exit 2), never as an
  // internal error.
  throw LimitError("delta", std::string("delta: no certified ") + what +
                                " below 2^200 times the first guess (beyond what this conversion "
                                "supports; allowed: 0 < delta < 1 with an answer below that bound)");
}

// delta_mu(eps) with eps a point and mu an interval (the rational form when mu is a point).
Interval delta_at(mpfr_srcptr eps, const Interval& mu, mpfr_prec_t precision) {
  if (mu.is_point()) return gdp_delta_at(to_mpq(eps), to_mpq(mu.lower()), precision);
  return gdp_delta_at(Interval::point(eps, precision), mu, precision);
}

}  // namespace

namespace internal {

Interval gdp_epsilon_at(const Interval& mu, const mpq_class& delta, mpfr_prec_t precision) {
  const SideFn side = [&](const Real& x) {
    const Interval d = delta_at(x.get(), mu, precision);
    if (upper_at_most(d, delta)) return Side::kAbove;  // feasible: eps* <= x
    if (lower_above(d, delta)) return Side::kBelow;    // infeasible: eps* > x
    return Side::kUnknown;
  };
  Real zero(precision);
  mpfr_set_zero(zero.get(), 1);
  if (side(zero) == Side::kAbove) return Interval(0L, precision);
  // eps = mu^2/2 + mu sqrt(2 ln(1/delta)) is feasible (Gaussian tail bound); verified below.
  const Interval mu_up = Interval::point(mu.upper(), precision);
  const Interval guess =
      square(mu_up) / mpq_class(2) + mu_up * sqrt(-log(Interval(delta, precision)) * mpq_class(2));
  Real hi = find_upper(side, real_from(guess.upper(), precision, MPFR_RNDU), "epsilon");
  return bisect(side, zero, hi, precision);
}

Interval gdp_mu_for_at(const mpq_class& epsilon, const mpq_class& delta, mpfr_prec_t precision) {
  // For delta above 1/2 the comparison is made on 1 - delta (gdp_delta_complement_at: relative
  // accuracy however close delta is to 1), against the exact 1 - delta; comparing delta itself
  // would need -log2(1 - delta) extra bits to tell it from 1.
  const bool complement = delta > mpq_class(1, 2);
  const mpq_class level = complement ? mpq_class(1 - delta) : delta;
  const SideFn side = [&](const Real& m) {
    const mpq_class mu = to_mpq(m.get());
    if (complement) {
      const Interval c = gdp_delta_complement_at(epsilon, mu, precision);
      if (mpfr_cmp_q(c.lower(), level.get_mpq_t()) >= 0) return Side::kBelow;  // delta_m <= delta
      if (mpfr_cmp_q(c.upper(), level.get_mpq_t()) < 0) return Side::kAbove;   // delta_m > delta
      return Side::kUnknown;
    }
    const Interval d = gdp_delta_at(epsilon, mu, precision);
    if (upper_at_most(d, level)) return Side::kBelow;  // delta_m(eps) <= delta: m <= mu*
    if (lower_above(d, level)) return Side::kAbove;    // m > mu*
    return Side::kUnknown;
  };
  Real lo(precision), hi(precision);
  mpfr_set_zero(lo.get(), 1);  // mu* > 0 trivially
  mpfr_set_ui(hi.get(), 1, MPFR_RNDU);
  hi = find_upper(side, hi, "mu");
  return bisect(side, lo, hi, precision);
}

Interval gdp_mu_of_pure_dp_at(const mpq_class& epsilon, mpfr_prec_t precision) {
  if (epsilon == 0) return Interval(0L, precision);
  const Interval eps(epsilon, precision);
  if (epsilon < 1) {
    // Small eps: Phi(-m) and 1/(1 + e^eps) are both near 1/2, so compare their distances from
    // 1/2 instead (no cancellation however small eps is): 1/2 - Phi(-m) = erf(m/sqrt 2)/2 and
    // 1/2 - 1/(1 + e^eps) = tanh(eps/2)/2 = -expm1(-eps) / (2 (1 + e^-eps)).
    const Interval th = -expm1(-eps) / (exp(-eps) + mpq_class(1));
    const Interval inv_sqrt2 = inv_sqrt2_interval(precision);
    const SideFn side = [&](const Real& m) {
      const Interval e = erf(Interval::point(m.get(), precision) * inv_sqrt2);
      if (certainly_less_equal(th, e)) return Side::kAbove;  // m >= m*
      if (certainly_less(e, th)) return Side::kBelow;        // m < m*
      return Side::kUnknown;
    };
    // m* = sqrt 2 erfinv(tanh(eps/2)) lies in [eps/4, eps] for 0 < eps < 1 (it is ~0.63 eps);
    // both ends are verified, else the bracket falls back to [0, doubling].
    Real lo(precision), hi(precision);
    mpfr_set_q(hi.get(), epsilon.get_mpq_t(), MPFR_RNDU);
    mpfr_div_2ui(lo.get(), hi.get(), 2, MPFR_RNDD);
    if (side(lo) != Side::kBelow) mpfr_set_zero(lo.get(), 1);
    hi = find_upper(side, hi, "mu");
    return mul_2si(bisect(side, lo, hi, precision), 1);
  }
  // m* = mu*/2 solves Phi(-m) = q = 1 / (1 + e^eps); compare logs: log q = -log1p(e^eps).
  const Interval log_q = -log1p(exp(eps));
  const SideFn side = [&](const Real& m) {
    const Interval lp = log_normal_cdf(-Interval::point(m.get(), precision));
    if (certainly_less_equal(lp, log_q)) return Side::kAbove;  // Phi(-m) <= q: m >= m*
    if (certainly_less(log_q, lp)) return Side::kBelow;         // Phi(-m) > q: m < m*
    return Side::kUnknown;
  };
  // m* >= m(1) > 1/4 for eps >= 1 (increasing in eps); m = sqrt(2 log(1 + e^eps)) = sqrt(-2 log q)
  // satisfies Phi(-m) <= e^(-m^2/2)/2 < q.
  Real lo(precision);
  mpfr_set_ui(lo.get(), 1, MPFR_RNDD);
  mpfr_div_2ui(lo.get(), lo.get(), 2, MPFR_RNDD);  // 1/4, exact
  if (side(lo) != Side::kBelow) mpfr_set_zero(lo.get(), 1);
  const Interval guess = sqrt(-log_q * mpq_class(2));
  Real hi = find_upper(side, real_from(guess.upper(), precision, MPFR_RNDU), "mu");
  return mul_2si(bisect(side, lo, hi, precision), 1);
}

}  // namespace internal

Certified gdp_epsilon(const mpq_class& mu, const mpq_class& delta, const ZivOptions& options) {
  validate_mu(mu);
  validate_delta(delta);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return internal::gdp_epsilon_at(Interval(mu, p), delta, p); },
      options);
}

Certified gdp_epsilon(const Interval& mu, const mpq_class& delta, const ZivOptions& options) {
  if (!mu.is_valid() || mpfr_sgn(mu.lower()) <= 0 || !mu.is_finite()) {
    throw ParameterError::out_of_range("mu", mu.debug_string(), "0 < mu <= 10^6");
  }
  validate_mu(to_mpq(mu.upper()));
  validate_delta(delta);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) {
        Interval m = mu;
        m.set_precision(p);
        return internal::gdp_epsilon_at(m, delta, p);
      },
      options);
}

Certified gdp_mu_for(const mpq_class& epsilon, const mpq_class& delta,
                     const ZivOptions& options) {
  validate_epsilon(epsilon);
  validate_delta(delta);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return internal::gdp_mu_for_at(epsilon, delta, p); }, options);
}

Certified gdp_mu_of_pure_dp(const mpq_class& epsilon, const ZivOptions& options) {
  validate_epsilon(epsilon);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return internal::gdp_mu_of_pure_dp_at(epsilon, p); }, options);
}

Interval gdp_compose(std::span<const Interval> mus) {
  if (mus.empty()) return Interval(0L, kDefaultPrecision);
  Interval sum(mus.front().precision());
  for (const Interval& mu : mus) {
    if (!mu.is_valid() || !mu.is_nonnegative()) {
      throw ParameterError::out_of_range("mu", mu.debug_string(), "mu >= 0");
    }
    sum = sum + square(mu);
  }
  return sqrt(sum);
}

Interval gdp_compose_counted(std::span<const std::pair<Interval, unsigned long>> mus) {
  if (mus.empty()) return Interval(0L, kDefaultPrecision);
  Interval sum(mus.front().first.precision());
  for (const auto& [mu, count] : mus) {
    if (!mu.is_valid() || !mu.is_nonnegative()) {
      throw ParameterError::out_of_range("mu", mu.debug_string(), "mu >= 0");
    }
    sum = sum + square(mu) * mpq_class(mpz_class(count));
  }
  return sqrt(sum);
}

}  // namespace exactdp::accounting
