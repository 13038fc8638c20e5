#include "accounting/analytic_gaussian.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "accounting/gaussian_profile.h"
#include "accounting/normal.h"
#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::accounting {
namespace {

enum class Side { kMeets, kMisses, kUndecided };

// The scale-free problem: s = sigma / sensitivity, delta(s) = gdp_delta(eps, mu = 1/s),
// decreasing in s. For targets up to 1/2 the monitored quantity is g(s) = delta(s), compared
// with the target. Above 1/2 it is g(s) = 1 - delta(s) (increasing in s), compared with
// 1 - target: gdp_delta_complement_at has relative accuracy 2^-p however close delta is to 1,
// while delta itself would need -log2(1 - target) extra bits just to differ from 1 (delta =
// 1 - 10^-29 took 50 s that way; 1 - 10^-5000 would not finish).
class Problem {
 public:
  Problem(mpq_class epsilon, const mpq_class& target, mpfr_prec_t cap)
      : epsilon_(std::move(epsilon)),
        complement_(target > mpq_class(1, 2)),
        level_(complement_ ? mpq_class(1 - target) : target),
        cap_(cap) {}

  // g(s) at working precision p.
  [[nodiscard]] Interval value_at(const mpq_class& s, mpfr_prec_t p) const {
    const mpq_class mu(1 / s);
    return complement_ ? gdp_delta_complement_at(epsilon_, mu, p) : gdp_delta_at(epsilon_, mu, p);
  }

  // kMeets: g(s) certified on the private side of the level (delta(s) <= target);
  // kMisses: certified on the other side (delta(s) > target, s is too small).
  [[nodiscard]] Side side_of(const Interval& g) const {
    if (complement_) {
      if (mpfr_cmp_q(g.lower(), level_.get_mpq_t()) >= 0) return Side::kMeets;
      if (mpfr_cmp_q(g.upper(), level_.get_mpq_t()) < 0) return Side::kMisses;
    } else {
      if (upper_at_most(g, level_)) return Side::kMeets;
      if (lower_above(g, level_)) return Side::kMisses;
    }
    return Side::kUndecided;
  }

  // Certified comparison of delta(s) with the target, raising the precision until decided
  // or the cap is reached. `out` receives the last interval of g(s).
  Side decide(const mpq_class& s, mpfr_prec_t p, Interval& out) const {
    for (;;) {
      out = value_at(s, p);
      const Side side = side_of(out);
      if (side != Side::kUndecided) return side;
      if (p >= cap_) return Side::kUndecided;
      p = (2 * p > cap_) ? cap_ : 2 * p;
    }
  }

  // delta(s) as an interval from g(s). For the complement, 1 - g is formed with enough bits
  // to be exact (g's precision plus -log2(1 - target)), so a certified g >= 1 - target shows
  // as upper(delta) <= target.
  [[nodiscard]] Interval delta_from(const Interval& g) const {
    if (!complement_) return g;
    const long below_one = static_cast<long>(mpz_sizeinbase(level_.get_den_mpz_t(), 2)) -
                           static_cast<long>(mpz_sizeinbase(level_.get_num_mpz_t(), 2)) + 1;
    const mpfr_prec_t w = g.precision() + static_cast<mpfr_prec_t>(below_one > 0 ? below_one : 0) + 8;
    return clamp(Interval(1L, w) - g, mpq_class(0), mpq_class(1));
  }

  // The calibration from a certified bracket lo_s < s* <= hi_s and g at its ends.
  [[nodiscard]] GaussianCalibration result(const mpq_class& lo_s, const Interval& g_lo,
                                           const mpq_class& hi_s, const Interval& g_hi,
                                           const mpq_class& sensitivity,
                                           const mpq_class& tolerance) const {
    GaussianCalibration out;
    out.sigma = hi_s * sensitivity;
    out.sigma_lower = lo_s * sensitivity;
    out.delta_at_sigma = delta_from(g_hi);
    out.delta_at_sigma_lower = delta_from(g_lo);
    out.tolerance_met = (hi_s - lo_s) / lo_s <= tolerance;
    return out;
  }

  [[nodiscard]] const mpq_class& epsilon() const { return epsilon_; }
  // The level g is compared with: target, or 1 - target for targets above 1/2.
  [[nodiscard]] const mpq_class& level() const { return level_; }
  // Whether g increases with s (the complement) or decreases (delta).
  [[nodiscard]] bool increasing() const { return complement_; }

 private:
  mpq_class epsilon_;
  bool complement_;
  mpq_class level_;
  mpfr_prec_t cap_;
};

// exp(y) as an exact rational (any rounding: a search value).
mpq_class exp_rational(mpfr_srcptr y, mpfr_prec_t p) {
  const Interval e = exp(Interval::point(y, p));
  return to_mpq(e.lower());
}

// A point approximation of an interval: its lower end if finite, else its upper end.
void approx(mpfr_ptr out, const Interval& x) {
  if (mpfr_number_p(x.lower())) {
    mpfr_set(out, x.lower(), MPFR_RNDD);
  } else {
    mpfr_set(out, x.upper(), MPFR_RNDU);
  }
}

// Newton's method on h(y) = log g(e^y) - log level, y = log s, safeguarded by bisection once a
// bracket is known. Returns an approximation of y* = log s*. Only a search: the caller
// certifies the result.
// With `shortcut`, a full-precision Newton step of size <= 2^-(stop_bits/2 + 8) is taken as the
// last one (quadratic convergence squares the error); the caller certifies and, if that fails,
// calls again without the shortcut.
void newton_log_sigma(const Problem& pr, mpfr_ptr y, long stop_bits, mpfr_prec_t p,
                      bool shortcut) {
  // Precision schedule: Newton at 96 bits until ~72 bits are right, then at p (quadratic
  // convergence needs only one or two of the expensive iterations).
  mpfr_prec_t q = p > 96 ? 96 : p;
  Interval log_level = log(Interval(pr.level(), q));
  Real ylo(p), yhi(p), h(p), dh(p), step(p), ynew(p), limit(p), coarse(p);
  bool have_lo = false, have_hi = false;
  mpfr_set_si_2exp(limit.get(), 1, -stop_bits, MPFR_RNDD);
  mpfr_set_si_2exp(coarse.get(), 1, -(q - 24), MPFR_RNDD);
  Real quadratic(p);
  mpfr_set_si_2exp(quadratic.get(), 1, -(stop_bits / 2 + 8), MPFR_RNDD);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    const mpq_class s = exp_rational(y, q);
    const Interval d = pr.value_at(s, q);
    bool newton_ok = mpfr_sgn(d.upper()) > 0;
    if (newton_ok) {
      const Interval hv = log(d) - log_level;
      approx(h.get(), hv);
      // d log delta / d log s = -phi(a) / (s delta), a = 1/(2s) - eps s; for the complement,
      // d log(1 - delta) / d log s = +phi(a) / (s (1 - delta)).
      const mpq_class a = 1 / (2 * s) - pr.epsilon() * s;
      if (mpfr_sgn(d.lower()) > 0) {
        Interval slope = normal_pdf(Interval(a, q)) / (d * s);
        if (!pr.increasing()) slope = -slope;
        approx(dh.get(), slope);
        newton_ok = mpfr_number_p(dh.get()) && mpfr_number_p(h.get()) &&
                    (pr.increasing() ? mpfr_sgn(dh.get()) > 0 : mpfr_sgn(dh.get()) < 0);
      } else {
        newton_ok = false;
      }
    }
    // Side of the root: delta(s) > target means s is too small (delta decreases in s).
    const Side side = pr.side_of(d);
    const bool too_small =
        side == Side::kMisses ||
        (side == Side::kUndecided && newton_ok &&
         (pr.increasing() ? mpfr_sgn(h.get()) < 0 : mpfr_sgn(h.get()) > 0));
    if (too_small) {
      mpfr_set(ylo.get(), y, MPFR_RNDD);
      have_lo = true;
    } else {
      mpfr_set(yhi.get(), y, MPFR_RNDU);
      have_hi = true;
    }
    if (newton_ok) {
      mpfr_div(step.get(), h.get(), dh.get(), MPFR_RNDD);  // search value: any rounding
      mpfr_neg(step.get(), step.get(), MPFR_RNDD);
      // Converged: the Newton correction itself is below the target resolution (checked before
      // the safeguard, which cannot tell a step below one ulp of y from no progress).
      if (q == p) {
        Real magnitude(p);
        mpfr_abs(magnitude.get(), step.get(), MPFR_RNDU);
        if (mpfr_lessequal_p(magnitude.get(), limit.get()) ||
            (shortcut && mpfr_lessequal_p(magnitude.get(), quadratic.get()))) {
          mpfr_add(y, y, step.get(), MPFR_RNDD);
          return;
        }
      }
      // Without a bracket, move at most a factor e^8 at a time.
      if (mpfr_cmp_si(step.get(), 8) > 0) mpfr_set_si(step.get(), 8, MPFR_RNDD);
      if (mpfr_cmp_si(step.get(), -8) < 0) mpfr_set_si(step.get(), -8, MPFR_RNDD);
    } else {
      mpfr_set_si(step.get(), too_small ? 1 : -1, MPFR_RNDD);
    }
    mpfr_add(ynew.get(), y, step.get(), MPFR_RNDD);
    if (have_lo && have_hi) {
      const bool inside = mpfr_greater_p(ynew.get(), ylo.get()) && mpfr_less_p(ynew.get(), yhi.get());
      if (!inside || !newton_ok) {
        mpfr_add(ynew.get(), ylo.get(), yhi.get(), MPFR_RNDD);
        mpfr_div_2ui(ynew.get(), ynew.get(), 1, MPFR_RNDD);
      }
    }
    mpfr_sub(step.get(), ynew.get(), y, MPFR_RNDD);
    mpfr_abs(step.get(), step.get(), MPFR_RNDD);
    mpfr_set(y, ynew.get(), MPFR_RNDD);
    if (q < p) {
      // Switch when Newton has converged at the coarse precision, or when bisection has (the
      // profile can jump from ~0 to ~1 within a relative change of s far below 2^-96, e.g. for
      // eps = 10^400, where Newton's slope underflows and only bisection makes progress).
      bool converged = newton_ok && mpfr_lessequal_p(step.get(), coarse.get());
      if (!converged && have_lo && have_hi) {
        Real width(p);
        mpfr_sub(width.get(), yhi.get(), ylo.get(), MPFR_RNDU);
        converged = mpfr_lessequal_p(width.get(), coarse.get());
      }
      if (converged) {
        q = p;  // switch to full precision; the bracket from the coarse phase is kept only
        have_lo = have_hi = false;  // as long as it is confirmed at the new precision
        log_level = log(Interval(pr.level(), q));
      }
      continue;
    }
    if (newton_ok && mpfr_lessequal_p(step.get(), limit.get())) return;
    if (have_lo && have_hi) {
      mpfr_sub(step.get(), yhi.get(), ylo.get(), MPFR_RNDU);
      if (mpfr_lessequal_p(step.get(), limit.get())) return;
    }
  }
}

}  // namespace

GaussianCalibration calibrate_gaussian(const mpq_class& epsilon, const mpq_class& delta,
                                       const mpq_class& sensitivity, const ZivOptions& options) {
  require_nonnegative("epsilon", epsilon);
  if (sgn(delta) <= 0 || delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(delta)), "0 < delta < 1");
  }
  require_positive("sensitivity", sensitivity);
  options.validate();

  // Bracket half-width 2^-k relative, so the bracket's relative width is <= tolerance / 2.
  const long k = std::max(1L, tolerance_bits(options.tolerance)) + 2;
  mpfr_prec_t p = starting_precision(options);
  if (p < k + 64) p = static_cast<mpfr_prec_t>(k + 64);
  if (p > options.max_precision) p = options.max_precision;
  const Problem pr(epsilon, delta, options.max_precision);

  // Starting point. With beta = eps s and a = 1/(2s) (so a beta = eps/2), delta is about
  // Q(beta - a); taking beta - a = z = sqrt(2 ln(1.25/delta)) (the classical tail bound) gives
  // beta = (z + sqrt(z^2 + 2 eps)) / 2 and s0 = beta / eps: the classical z/eps for small eps and
  // 1/sqrt(2 eps) for huge eps (eps = 10^400 is a legal input). For eps = 0
  // (delta = 2 Phi(mu/2) - 1 ~ mu / sqrt(2 pi)) we start at 1 / (2.5 delta).
  Real y(p);
  {
    Interval s0(p);
    if (pr.increasing()) {
      // Target above 1/2: 1 - delta is about Phi(x1) = Q(a - beta); taking a - beta = z =
      // sqrt(2 ln(1 / (1 - delta))) gives s0 = 1 / (z + sqrt(z^2 + 2 eps)) (also for eps = 0).
      const Interval z = sqrt(mul_2si(log(Interval(mpq_class(1 / pr.level()), 64)), 1));
      s0 = Interval(1L, 64) / (z + sqrt(square(z) + Interval(mpq_class(2 * epsilon), 64)));
    } else if (sgn(epsilon) > 0) {
      const Interval z = sqrt(mul_2si(log(Interval(mpq_class(mpq_class(5, 4) / delta), 64)), 1));
      const Interval beta = mul_2si(z + sqrt(square(z) + Interval(mpq_class(2 * epsilon), 64)), -1);
      s0 = beta / epsilon;
      // delta decreases in eps, so s*(eps) <= s*(0) ~ 1 / (sqrt(2 pi) delta): never start above
      // that (for eps = 10^-5000 the tail guess would be 10^4996 times too large).
      const Interval cap0(mpq_class(mpq_class(2, 5) / delta), 64);
      if (certainly_less(cap0, s0)) s0 = cap0;
    } else {
      s0 = Interval(mpq_class(mpq_class(2, 5) / delta), 64);
    }
    const Interval y0 = log(s0);
    mpfr_set(y.get(), y0.lower(), MPFR_RNDD);
  }
  newton_log_sigma(pr, y.get(), k + 8, p, true);
  mpq_class s_star = exp_rational(y.get(), p);

  Interval d_hi(p), d_lo(p);
  mpq_class offset = power_of_two(-k);
  for (int attempt = 0; attempt < 40; ++attempt) {
    const mpq_class s_hi = s_star * (1 + offset);
    const mpq_class s_lo = s_star * (1 - offset);
    const Side hi = pr.decide(s_hi, p, d_hi);
    const Side lo = pr.decide(s_lo, p, d_lo);
    if (hi == Side::kMeets && lo == Side::kMisses) {
      return pr.result(s_lo, d_lo, s_hi, d_hi, sensitivity, options.tolerance);
    }
    if (attempt == 0) {
      // The quadratic shortcut was too optimistic: finish Newton properly and retry at the
      // same offset.
      newton_log_sigma(pr, y.get(), k + 8, p, false);
      s_star = exp_rational(y.get(), p);
      continue;
    }
    // The approximation is off (or a comparison could not be decided under the cap): move the
    // centre towards the side that failed and widen.
    if (hi == Side::kMisses) s_star = s_hi;
    if (lo == Side::kMeets) s_star = s_lo;
    offset *= 8;
    if (offset >= mpq_class(1, 2)) break;
  }

  // Last resort: a certified bracket found by exponential search from s_star (the factor
  // 2^1, 2^2, 2^4, ... so even a search that ended 2^-100000 off needs ~17 steps), then
  // certified bisection: on the exponent while the ends are more than a factor 4 apart, then
  // arithmetic. An undecided comparison (delta equal to the target within the precision cap)
  // ends the bisection: the bracket is still certified, only wider than the tolerance.
  mpq_class lo_s = s_star, hi_s = s_star;
  constexpr long kMaxJump = 1L << 24;  // 2^(2^24): far beyond any s a legal input can need
  for (long jump = 1; pr.decide(hi_s, p, d_hi) != Side::kMeets; jump *= 2) {
    if (jump > kMaxJump) throw std::runtime_error("calibrate_gaussian: no certified upper end");
    hi_s *= power_of_two(jump);
  }
  for (long jump = 1; pr.decide(lo_s, p, d_lo) != Side::kMisses; jump *= 2) {
    if (jump > kMaxJump) throw std::runtime_error("calibrate_gaussian: no certified lower end");
    lo_s *= power_of_two(-jump);
  }
  for (int i = 0; i < 4 * k + 256 && (hi_s - lo_s) / lo_s > options.tolerance / 2; ++i) {
    mpq_class mid;
    const mpq_class ratio = hi_s / lo_s;
    if (ratio > 4) {
      // log2 of the ratio, to within one: the geometric midpoint up to a factor 2.
      const long bits = static_cast<long>(mpz_sizeinbase(ratio.get_num_mpz_t(), 2)) -
                        static_cast<long>(mpz_sizeinbase(ratio.get_den_mpz_t(), 2));
      mid = lo_s * power_of_two(bits / 2 > 1 ? bits / 2 : 1);
    } else {
      mid = (lo_s + hi_s) / 2;
    }
    Interval d_mid(p);
    const Side side = pr.decide(mid, p, d_mid);
    if (side == Side::kMeets) {
      hi_s = mid;
      d_hi = d_mid;
    } else if (side == Side::kMisses) {
      lo_s = mid;
      d_lo = d_mid;
    } else {
      break;  // delta(mid) equals the target within the cap's precision: stop, still certified
    }
  }
  return pr.result(lo_s, d_lo, hi_s, d_hi, sensitivity, options.tolerance);
}

Interval sigma_bracket(const GaussianCalibration& c, mpfr_prec_t precision) {
  return hull(Interval(c.sigma_lower, precision), Interval(c.sigma, precision));
}

Interval classical_gaussian_sigma(const mpq_class& epsilon, const mpq_class& delta,
                                  const mpq_class& sensitivity, mpfr_prec_t precision) {
  if (sgn(epsilon) <= 0 || epsilon >= 1) {
    throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)),
                                       "0 < epsilon < 1 for the classical Gaussian mechanism");
  }
  if (sgn(delta) <= 0 || delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(delta)), "0 < delta < 1");
  }
  require_positive("sensitivity", sensitivity);
  const mpq_class ratio = mpq_class(5, 4) / delta;  // 1.25 / delta, exact
  return sqrt(mul_2si(log(Interval(ratio, precision)), 1)) * mpq_class(sensitivity / epsilon);
}

Interval gaussian_variance_ratio(const GaussianCalibration& c, const mpq_class& epsilon,
                                 const mpq_class& delta, const mpq_class& sensitivity,
                                 mpfr_prec_t precision) {
  const Interval classical = classical_gaussian_sigma(epsilon, delta, sensitivity, precision);
  return square(sigma_bracket(c, precision)) / square(classical);
}

}  // namespace exactdp::accounting
