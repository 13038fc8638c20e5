#include <exactdp/accounting/analytic_gaussian.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/internal/certified_search.h>
#include <exactdp/accounting/normal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

using internal::RationalBracket;
using internal::Side;
using internal::TargetComparison;

// The scale-free problem: s = sigma / sensitivity, delta(s) = gdp_delta(eps, mu = 1/s),
// decreasing in s. The monitored quantity g(s) is delta(s), or 1 - delta(s) (increasing in s)
// for targets above 1/2 (internal/certified_search.h).
class Problem {
 public:
  Problem(mpq_class epsilon, const mpq_class& target, mpfr_prec_t cap)
      : epsilon_(std::move(epsilon)), target_(target), cap_(cap) {}

  // g(s) at working precision p.
  [[nodiscard]] Interval value_at(const mpq_class& s, mpfr_prec_t p) const {
    const mpq_class mu(1 / s);
    return target_.complement() ? gdp_delta_complement_at(epsilon_, mu, p) : gdp_delta_at(epsilon_, mu, p);
  }

  // kMeets: delta(s) <= target certified; kMisses: delta(s) > target certified (s too small).
  [[nodiscard]] Side side_of(const Interval& g) const { return target_.side_of(g); }

  // Certified comparison of delta(s) with the target from precision p up to the cap; `out`
  // receives the last interval of g(s).
  Side decide(const mpq_class& s, mpfr_prec_t p, Interval& out) const {
    return target_.decide([&](mpfr_prec_t q) { return value_at(s, q); }, p, cap_, out);
  }

  // The calibration from a certified bracket lo < s* <= hi of s and g at its ends.
  [[nodiscard]] GaussianCalibration result(const RationalBracket& b, const mpq_class& sensitivity,
                                           const mpq_class& tolerance) const {
    GaussianCalibration out;
    out.sigma = b.hi * sensitivity;
    out.sigma_lower = b.lo * sensitivity;
    out.delta_at_sigma = target_.delta_from(b.g_hi);
    out.delta_at_sigma_lower = target_.delta_from(b.g_lo);
    out.tolerance_met = b.relative_width() <= tolerance;
    return out;
  }

  [[nodiscard]] const mpq_class& epsilon() const { return epsilon_; }
  // The level g is compared with: target, or 1 - target for targets above 1/2.
  [[nodiscard]] const mpq_class& level() const { return target_.level(); }
  // Whether g increases with s (the complement) or decreases (delta).
  [[nodiscard]] bool increasing() const { return target_.complement(); }

 private:
  mpq_class epsilon_;
  TargetComparison target_;
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
// bracket is known. Leaves an approximation of y* = log s* in y. Only a search: the caller
// certifies the result.
// With `shortcut`, a full-precision Newton step of size <= 2^-(stop_bits/2 + 8) is taken as the
// last one (quadratic convergence squares the error); the caller certifies and, if that fails,
// calls again without the shortcut.
// Precision schedule: Newton at 96 bits until ~72 bits are right, then at p (quadratic
// convergence needs only one or two of the expensive iterations).
class LogSigmaNewton {
 public:
  LogSigmaNewton(const Problem& pr, mpfr_ptr y, long stop_bits, mpfr_prec_t p, bool shortcut)
      : pr_(pr), y_(y), p_(p), q_(p > 96 ? 96 : p), shortcut_(shortcut),
        log_level_(log(Interval(pr.level(), q_))),
        ylo_(p), yhi_(p), h_(p), dh_(p), step_(p), limit_(p), coarse_(p), quadratic_(p) {
    mpfr_set_si_2exp(limit_.get(), 1, -stop_bits, MPFR_RNDD);
    mpfr_set_si_2exp(coarse_.get(), 1, -(q_ - 24), MPFR_RNDD);
    mpfr_set_si_2exp(quadratic_.get(), 1, -(stop_bits / 2 + 8), MPFR_RNDD);
  }

  void run() {
    for (int iteration = 0; iteration < 2000; ++iteration) {
      const mpq_class s = exp_rational(y_, q_);
      const Interval d = pr_.value_at(s, q_);
      const bool newton_ok = newton_terms(s, d);
      // Side of the root: delta(s) > target means s is too small (delta decreases in s).
      const Side side = pr_.side_of(d);
      const bool too_small =
          side == Side::kMisses ||
          (side == Side::kUndecided && newton_ok &&
           (pr_.increasing() ? mpfr_sgn(h_.get()) < 0 : mpfr_sgn(h_.get()) > 0));
      record_side(too_small);
      if (newton_ok && take_final_step()) return;
      move(newton_ok, too_small);
      if (q_ < p_) {
        if (coarse_phase_converged(newton_ok)) switch_to_full_precision();
        continue;
      }
      if (converged(newton_ok)) return;
    }
  }

 private:
  // h = log g - log level and its derivative dh in log s at s (g = d); false when they do not
  // give a usable Newton step.
  bool newton_terms(const mpq_class& s, const Interval& d) {
    if (mpfr_sgn(d.upper()) <= 0) return false;
    approx(h_.get(), log(d) - log_level_);
    if (mpfr_sgn(d.lower()) <= 0) return false;
    // d log delta / d log s = -phi(a) / (s delta), a = 1/(2s) - eps s; for the complement,
    // d log(1 - delta) / d log s = +phi(a) / (s (1 - delta)).
    const mpq_class a = 1 / (2 * s) - pr_.epsilon() * s;
    Interval slope = normal_pdf(Interval(a, q_)) / (d * s);
    if (!pr_.increasing()) slope = -slope;
    approx(dh_.get(), slope);
    return mpfr_number_p(dh_.get()) && mpfr_number_p(h_.get()) &&
           (pr_.increasing() ? mpfr_sgn(dh_.get()) > 0 : mpfr_sgn(dh_.get()) < 0);
  }

  void record_side(bool too_small) {
    if (too_small) {
      mpfr_set(ylo_.get(), y_, MPFR_RNDD);
      have_lo_ = true;
    } else {
      mpfr_set(yhi_.get(), y_, MPFR_RNDU);
      have_hi_ = true;
    }
  }

  // The Newton correction -h/dh in step_; at full precision, when it is below the target
  // resolution (or, with the shortcut, below the quadratic threshold) it is applied and the
  // search ends (checked before the safeguard, which cannot tell a step below one ulp of y
  // from no progress).
  bool take_final_step() {
    mpfr_div(step_.get(), h_.get(), dh_.get(), MPFR_RNDD);  // search value: any rounding
    mpfr_neg(step_.get(), step_.get(), MPFR_RNDD);
    if (q_ != p_) return false;
    Real magnitude(p_);
    mpfr_abs(magnitude.get(), step_.get(), MPFR_RNDU);
    if (mpfr_lessequal_p(magnitude.get(), limit_.get()) ||
        (shortcut_ && mpfr_lessequal_p(magnitude.get(), quadratic_.get()))) {
      mpfr_add(y_, y_, step_.get(), MPFR_RNDD);
      return true;
    }
    return false;
  }

  // y += the Newton step (at most a factor e^8 without a bracket), or +-1 without one; inside a
  // bracket, its midpoint when Newton leaves it or failed. step_ becomes |y_new - y|.
  void move(bool newton_ok, bool too_small) {
    if (newton_ok) {
      if (mpfr_cmp_si(step_.get(), 8) > 0) mpfr_set_si(step_.get(), 8, MPFR_RNDD);
      if (mpfr_cmp_si(step_.get(), -8) < 0) mpfr_set_si(step_.get(), -8, MPFR_RNDD);
    } else {
      mpfr_set_si(step_.get(), too_small ? 1 : -1, MPFR_RNDD);
    }
    Real ynew(p_);
    mpfr_add(ynew.get(), y_, step_.get(), MPFR_RNDD);
    if (have_lo_ && have_hi_) {
      const bool inside = mpfr_greater_p(ynew.get(), ylo_.get()) && mpfr_less_p(ynew.get(), yhi_.get());
      if (!inside || !newton_ok) {
        mpfr_add(ynew.get(), ylo_.get(), yhi_.get(), MPFR_RNDD);
        mpfr_div_2ui(ynew.get(), ynew.get(), 1, MPFR_RNDD);
      }
    }
    mpfr_sub(step_.get(), ynew.get(), y_, MPFR_RNDD);
    mpfr_abs(step_.get(), step_.get(), MPFR_RNDD);
    mpfr_set(y_, ynew.get(), MPFR_RNDD);
  }

  // Whether the bracket's width is at most `bound`.
  bool bracket_within(const Real& bound) const {
    if (!have_lo_ || !have_hi_) return false;
    Real width(p_);
    mpfr_sub(width.get(), yhi_.get(), ylo_.get(), MPFR_RNDU);
    return mpfr_lessequal_p(width.get(), bound.get());
  }

  // Newton has converged at the coarse precision, or bisection has (the profile can jump from
  // ~0 to ~1 within a relative change of s far below 2^-96, e.g. for eps = 10^400, where
  // Newton's slope underflows and only bisection makes progress).
  bool coarse_phase_converged(bool newton_ok) const {
    return (newton_ok && mpfr_lessequal_p(step_.get(), coarse_.get())) || bracket_within(coarse_);
  }

  // The bracket from the coarse phase is kept only as long as it is confirmed at the new
  // precision.
  void switch_to_full_precision() {
    q_ = p_;
    have_lo_ = have_hi_ = false;
    log_level_ = log(Interval(pr_.level(), q_));
  }

  bool converged(bool newton_ok) const {
    return (newton_ok && mpfr_lessequal_p(step_.get(), limit_.get())) || bracket_within(limit_);
  }

  const Problem& pr_;
  mpfr_ptr y_;
  mpfr_prec_t p_;
  mpfr_prec_t q_;
  bool shortcut_;
  Interval log_level_;
  Real ylo_, yhi_, h_, dh_, step_, limit_, coarse_, quadratic_;
  bool have_lo_ = false, have_hi_ = false;
};

void newton_log_sigma(const Problem& pr, mpfr_ptr y, long stop_bits, mpfr_prec_t p, bool shortcut) {
  LogSigmaNewton(pr, y, stop_bits, p, shortcut).run();
}

// log s0, the starting point of the search. With beta = eps s and a = 1/(2s) (so a beta =
// eps/2), delta is about Q(beta - a); taking beta - a = z = sqrt(2 ln(1.25/delta)) (the
// classical tail bound) gives beta = (z + sqrt(z^2 + 2 eps)) / 2 and s0 = beta / eps: the
// classical z/eps for small eps and 1/sqrt(2 eps) for huge eps (eps = 10^400 is a legal input).
// For eps = 0 (delta = 2 Phi(mu/2) - 1 ~ mu / sqrt(2 pi)) we start at 1 / (2.5 delta).
void starting_log_sigma(const Problem& pr, const mpq_class& delta, mpfr_ptr y) {
  const mpq_class& epsilon = pr.epsilon();
  Interval s0(64);
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
  mpfr_set(y, y0.lower(), MPFR_RNDD);
}

// A certified bracket s_star (1 -+ offset) around Newton's estimate, offset = 2^-k first; when
// that fails, Newton is finished without the shortcut and the same offset retried, then the
// centre moves towards the side that failed and the offset grows 8x, up to 1/2. Leaves s_star at
// the last centre tried; nullopt when no attempt was certified.
std::optional<RationalBracket> bracket_near_estimate(const Problem& pr, mpfr_ptr y, long k,
                                                     mpfr_prec_t p, mpq_class& s_star) {
  s_star = exp_rational(y, p);
  mpq_class offset = power_of_two(-k);
  RationalBracket b;
  for (int attempt = 0; attempt < 40; ++attempt) {
    b.hi = s_star * (1 + offset);
    b.lo = s_star * (1 - offset);
    const Side hi = pr.decide(b.hi, p, b.g_hi);
    const Side lo = pr.decide(b.lo, p, b.g_lo);
    if (hi == Side::kMeets && lo == Side::kMisses) return b;
    if (attempt == 0) {
      newton_log_sigma(pr, y, k + 8, p, false);
      s_star = exp_rational(y, p);
      continue;
    }
    if (hi == Side::kMisses) s_star = b.hi;
    if (lo == Side::kMeets) s_star = b.lo;
    offset *= 8;
    if (offset >= mpq_class(1, 2)) break;
  }
  return std::nullopt;
}

// The fallback: factors 2, 4, 16, 256, ... from s_star; 25 rounds reach a factor 2^(2^24), far
// beyond any s a legal input can need.
constexpr int kMaxWidenings = 25;

}  // namespace

void validate_gaussian_calibration(const mpq_class& epsilon, const mpq_class& delta,
                                   const mpq_class& sensitivity) {
  require_nonnegative("epsilon", epsilon);
  require_open_unit("delta", delta);
  require_positive("sensitivity", sensitivity);
}

GaussianCalibration calibrate_gaussian(const mpq_class& epsilon, const mpq_class& delta,
                                       const mpq_class& sensitivity, const ZivOptions& options) {
  validate_gaussian_calibration(epsilon, delta, sensitivity);
  options.validate();

  // Bracket half-width 2^-k relative, so the bracket's relative width is <= tolerance / 2.
  const long k = std::max(1L, tolerance_bits(options.tolerance)) + 2;
  mpfr_prec_t p = starting_precision(options);
  if (p < k + 64) p = static_cast<mpfr_prec_t>(k + 64);
  if (p > options.max_precision) p = options.max_precision;
  const Problem pr(epsilon, delta, options.max_precision);

  Real y(p);
  starting_log_sigma(pr, delta, y.get());
  newton_log_sigma(pr, y.get(), k + 8, p, true);
  mpq_class s_star;
  std::optional<RationalBracket> near = bracket_near_estimate(pr, y.get(), k, p, s_star);
  const internal::RationalDecider decide = [&](const mpq_class& s, Interval& g) {
    return pr.decide(s, p, g);
  };
  // Last resort: a certified bracket by exponential search from s_star (so even a search that
  // ended 2^-100000 off needs ~17 steps).
  RationalBracket b = near ? std::move(*near)
                           : internal::widen_bracket(decide, s_star, s_star, kMaxWidenings, [&] {
                               return internal::no_bracket_error("sigma", s_star, kMaxWidenings - 1);
                             });
  // A bracket wider than the tolerance (the fallback's, or one of the widened offsets) is
  // bisected to half of it: on the exponent while the ends are more than a factor 4 apart, then
  // arithmetic. An undecided comparison (delta equal to the target within the precision cap)
  // ends it: the bracket is still certified, only wider than the tolerance.
  if (b.relative_width() > options.tolerance) {
    internal::bisect_bracket(decide, b, options.tolerance / 2, static_cast<int>(4 * k + 256));
  }
  return pr.result(b, sensitivity, options.tolerance);
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
  require_open_unit("delta", delta);
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
