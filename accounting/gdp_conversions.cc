#include "accounting/gdp_conversions.h"

#include <functional>
#include <optional>
#include <stdexcept>

#include "accounting/gaussian_profile.h"
#include "accounting/normal.h"
#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::accounting {
namespace {

const mpq_class kMaxParameter(1'000'000);

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
// is proven, at most precision + 200 times, until hi - lo <= 2^-b * hi with b = precision - 24,
// or b = result_bits when that is smaller and positive (the caller's tolerance: a bracket
// narrower than asked for costs a step per bit, each at the full working precision — finding 9).
// Points are held at precision + 16 bits; the midpoint's rounding direction is irrelevant
// (any point strictly inside the bracket will do), we use RNDD.
Interval bisect(const SideFn& side, Real lo, Real hi, mpfr_prec_t precision, long result_bits) {
  long goal = static_cast<long>(precision) - 24;
  if (result_bits > 0 && result_bits < goal) goal = result_bits;
  const mpfr_prec_t pp = precision + 16;
  mpfr_prec_round(lo.get(), pp, MPFR_RNDD);  // lo only moves down: still <= x*
  mpfr_prec_round(hi.get(), pp, MPFR_RNDU);  // hi only moves up: still >= x*
  Real mid(pp), gap(pp), scale(pp);
  for (long step = 0; step < static_cast<long>(precision) + 200; ++step) {
    mpfr_sub(gap.get(), hi.get(), lo.get(), MPFR_RNDU);
    mpfr_mul_2si(scale.get(), hi.get(), -goal, MPFR_RNDD);
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

// A bracket [lo, hi] around the root x* of a monotone side function: lo = 0 or side(lo) ==
// kBelow proven; side(hi) == kAbove proven.
struct Bracket {
  Real lo;
  Real hi;
};

// Brackets x* starting from a guess x0 > 0 by searching on the binary exponent, so that a root
// 2^-300,000 below the guess costs ~40 evaluations instead of 300,000 halvings (finding 9 in
// docs/FUZZING.md: eps = 0 with delta = 10^-3000 made the linear bisection from [0, 1] spin
// until the CLI was killed). Steps of 1, 2, 4, ... octaves outward from x0 until the side flips,
// then a binary search on the octave count between the last two probes, ending with
// hi <= 2 lo. Searches at most kMaxOctavesDown octaves below x0 (far beyond the 10^-100,000
// parameters allow) and kMaxOctavesUp above; beyond that a LimitError (exit 2). A probe whose
// side cannot be proven at this precision ends the search with the bracket found so far (the
// Ziv driver raises the precision).
constexpr long kMaxOctavesDown = 1L << 22;
constexpr long kMaxOctavesUp = 256;

Real scaled(const Real& x0, long octaves, mpfr_prec_t precision) {
  Real x(precision);
  mpfr_mul_2si(x.get(), x0.get(), octaves, MPFR_RNDN);  // exact: a power-of-two scaling
  return x;
}

Bracket bracket_root(const SideFn& side, const Real& x0, const char* what) {
  const mpfr_prec_t precision = mpfr_get_prec(x0.get());
  Real zero(precision);
  mpfr_set_zero(zero.get(), 1);
  const Side s0 = side(x0);
  if (s0 == Side::kUnknown) {
    Real hi = scaled(x0, 1, precision);
    if (side(hi) == Side::kAbove) return {zero, hi};
    throw LimitError("delta", std::string("delta: no certified ") + what +
                                  " bracket at this precision (the comparison near the first "
                                  "guess cannot be decided)");
  }
  // dir = -1: x0 is above the root, search down; +1: below it, search up.
  const long dir = s0 == Side::kAbove ? -1 : 1;
  const long limit = dir < 0 ? kMaxOctavesDown : kMaxOctavesUp;
  long near = 0;  // octaves from x0 on x0's side of the root (proven)
  long far = 0;   // octaves from x0 on the other side (proven once found)
  bool found = false;
  for (long step = 1; step <= limit; step *= 2) {
    const Side s = side(scaled(x0, dir * step, precision));
    if (s == Side::kUnknown) {
      break;
    }
    if (s != s0) {
      far = step;
      found = true;
      break;
    }
    near = step;
  }
  if (!found) {
    if (dir > 0) {
      throw LimitError("delta", std::string("delta: no certified ") + what + " below 2^" +
                                    std::to_string(kMaxOctavesUp) +
                                    " times the first guess (beyond what this conversion "
                                    "supports; allowed: 0 < delta < 1 with an answer below that "
                                    "bound)");
    }
    // Searching down: either a probe was undecidable (keep [0, last proven above]) or the
    // root lies more than 2^(2^22) below the guess (refused).
    if (near < limit / 2) return {zero, scaled(x0, -near, precision)};
    throw LimitError("delta", std::string("delta: the certified ") + what +
                                  " lies below 2^-" + std::to_string(kMaxOctavesDown) +
                                  " times the first guess (beyond what this conversion supports)");
  }
  while (far - near > 1) {
    const long mid = near + (far - near) / 2;
    const Side s = side(scaled(x0, dir * mid, precision));
    if (s == Side::kUnknown) break;
    (s == s0 ? near : far) = mid;
  }
  Real a = scaled(x0, dir * near, precision);
  Real b = scaled(x0, dir * far, precision);
  if (dir < 0) return {b, a};
  return {a, b};
}

// delta_mu(eps) with eps a point and mu an interval (the rational form when mu is a point).
Interval delta_at(mpfr_srcptr eps, const Interval& mu, mpfr_prec_t precision) {
  if (mu.is_point()) return gdp_delta_at(to_mpq(eps), to_mpq(mu.lower()), precision);
  return gdp_delta_at(Interval::point(eps, precision), mu, precision);
}

// The comparison delta_mu(x) <= delta for tiny x, with a point mu. delta_mu(0) - delta_mu(x) =
// D(x) = int_0^x e^t Phi(-mu/2 - t/mu) dt (the profile's derivative is -e^t Phi(-mu/2 - t/mu)),
// and on [0, x] e^t lies in [1, e^x] and Phi(-mu/2 - t/mu) in [Phi(-mu/2 - x/mu), Phi(-mu/2)],
//   D(x) in x [Phi(-mu/2 - x/mu), e^x Phi(-mu/2)],
// an enclosure of relative width O(x (1 + 1/mu)) at any working precision. So
//   delta_mu(x) <= delta  <=>  D(x) >= G := delta_mu(0) - delta,
// where G is evaluated ONCE, at whatever precision gives it a relative accuracy of ~2^-p
// (up to kMaxPrecision). A delta that agrees with delta_mu(0) to n digits puts eps* near
// 10^-n: comparing delta_mu(x) with delta directly needs ~3.3 n bits at every bisection step
// (4,000 such digits: 8 s), comparing D(x) with G needs them once (finding 9 in FUZZING.md).
class NearZeroSide {
 public:
  NearZeroSide(const mpq_class& mu, const mpq_class& delta, mpfr_prec_t precision)
      : mu_(mu), delta_(delta), precision_(precision) {}

  Side operator()(const Real& x) {
    if (!gap_known_) compute_gap();
    if (!gap_usable_) return Side::kUnknown;
    if (mpfr_sgn(gap_.upper()) <= 0) return Side::kAbove;  // delta >= delta_mu(0): eps* = 0
    const mpfr_prec_t w = precision_ + 16;
    const mpq_class xq = to_mpq(x.get());
    const Interval xi(xq, w);
    const mpq_class half_mu = mu_ / 2;
    const Interval d_low = xi * normal_cdf(mpq_class(-half_mu - xq / mu_), w);
    const Interval d_high = xi * exp(xi) * normal_cdf(mpq_class(-half_mu), w);
    if (mpfr_cmp(d_low.lower(), gap_.upper()) >= 0) return Side::kAbove;  // D(x) >= G
    if (mpfr_cmp(d_high.upper(), gap_.lower()) < 0) return Side::kBelow;  // D(x) < G
    return Side::kUnknown;
  }

 private:
  void compute_gap() {
    gap_known_ = true;
    for (mpfr_prec_t q = precision_; q <= kMaxPrecision; q *= 2) {
      gap_ = gdp_delta_at(mpq_class(0), mu_, q) - Interval(delta_, q);
      if (mpfr_sgn(gap_.upper()) <= 0) break;
      if (mpfr_sgn(gap_.lower()) > 0 &&
          relative_width_log2(gap_) <= -(static_cast<long>(precision_) - 8)) {
        break;
      }
    }
    // Usable once its sign is known (a wide G only makes fewer comparisons decidable).
    gap_usable_ = mpfr_sgn(gap_.upper()) <= 0 || mpfr_sgn(gap_.lower()) > 0;
  }

  mpq_class mu_;
  mpq_class delta_;
  mpfr_prec_t precision_;
  bool gap_known_ = false;
  bool gap_usable_ = false;
  Interval gap_{kDefaultPrecision};
};

// How far a bisection needs to go for options.tolerance: 2 bits beyond it, so that the
// bracket's rounding to the working precision cannot push it over.
long result_bits_for(const ZivOptions& options) { return tolerance_bits(options.tolerance) + 2; }

}  // namespace

namespace internal {

Interval gdp_epsilon_at(const Interval& mu, const mpq_class& delta, mpfr_prec_t precision,
                        long result_bits) {
  // eps* is increasing in mu: "x is above eps*" must hold for mu.upper, "below" for mu.lower.
  NearZeroSide near_zero_upper(to_mpq(mu.upper()), delta, precision);
  std::optional<NearZeroSide> distinct_lower;
  if (!mu.is_point()) distinct_lower.emplace(to_mpq(mu.lower()), delta, precision);

  NearZeroSide& near_zero_lower = distinct_lower ? *distinct_lower : near_zero_upper;
  // For delta above 1/2 the comparison is made on 1 - delta (as in gdp_mu_for_at): with mu =
  // 10^6 and delta = 1 - 10^-5000, comparing delta itself needed ~16,600 bits at every step
  // and `convert gdp --mu 1e6 --delta 0.(5000 nines)` ran for minutes.
  const bool complement = delta > mpq_class(1, 2);
  const mpq_class level = 1 - delta;
  const mpq_class mu_hi = to_mpq(mu.upper());
  const mpq_class mu_lo = to_mpq(mu.lower());
  const SideFn side = [&](const Real& x) {
    if (complement) {
      const mpq_class xq = to_mpq(x.get());
      // 1 - delta_m(x) is decreasing in m: "above" is proven at mu.upper, "below" at mu.lower.
      const Interval c_hi = gdp_delta_complement_at(xq, mu_hi, precision);
      if (mpfr_cmp_q(c_hi.lower(), level.get_mpq_t()) >= 0) return Side::kAbove;
      const Interval c_lo =
          mu.is_point() ? c_hi : gdp_delta_complement_at(xq, mu_lo, precision);
      if (mpfr_cmp_q(c_lo.upper(), level.get_mpq_t()) < 0) return Side::kBelow;
    } else {
      const Interval d = delta_at(x.get(), mu, precision);
      if (upper_at_most(d, delta)) return Side::kAbove;  // feasible: eps* <= x
      if (lower_above(d, delta)) return Side::kBelow;    // infeasible: eps* > x
    }
    // Undecided at this precision: near eps = 0, compare D(x) with G instead. D's enclosure
    // has relative width O(x), so it can only help where x is far below 2^-(p/2); elsewhere
    // the Ziv driver's next precision decides (and a bisection that merely reached this
    // precision's resolution pays nothing extra).
    if (!mpfr_zero_p(x.get()) && mpfr_get_exp(x.get()) >= -static_cast<long>(precision) / 2) {
      return Side::kUnknown;
    }
    if (near_zero_upper(x) == Side::kAbove) return Side::kAbove;
    if (near_zero_lower(x) == Side::kBelow) return Side::kBelow;
    return Side::kUnknown;
  };
  Real zero(precision);
  mpfr_set_zero(zero.get(), 1);
  if (side(zero) == Side::kAbove) return Interval(0L, precision);
  // eps = mu^2/2 + mu sqrt(2 ln(1/delta)) is feasible (Gaussian tail bound); verified below.
  const Interval mu_up = Interval::point(mu.upper(), precision);
  const Interval guess =
      square(mu_up) / mpq_class(2) + mu_up * sqrt(-log(Interval(delta, precision)) * mpq_class(2));
  Bracket b = bracket_root(side, real_from(guess.upper(), precision, MPFR_RNDU), "epsilon");
  return bisect(side, b.lo, b.hi, precision, result_bits);
}

Interval gdp_mu_for_at(const mpq_class& epsilon, const mpq_class& delta, mpfr_prec_t precision,
                       long result_bits) {
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
  Real one(precision);
  mpfr_set_ui(one.get(), 1, MPFR_RNDN);
  Bracket b = bracket_root(side, one, "mu");
  return bisect(side, b.lo, b.hi, precision, result_bits);
}

Interval gdp_mu_of_pure_dp_at(const mpq_class& epsilon, mpfr_prec_t precision, long result_bits) {
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
    // m* = sqrt 2 erfinv(tanh(eps/2)) is ~0.63 eps for 0 < eps < 1: start the search at eps.
    Real start(precision);
    mpfr_set_q(start.get(), epsilon.get_mpq_t(), MPFR_RNDU);
    Bracket b = bracket_root(side, start, "mu");
    return mul_2si(bisect(side, b.lo, b.hi, precision, result_bits), 1);
  }
  // m* = mu*/2 solves Phi(-m) = q = 1 / (1 + e^eps); compare logs: log q = -log1p(e^eps).
  const Interval log_q = -log1p(exp(eps));
  const SideFn side = [&](const Real& m) {
    const Interval lp = log_normal_cdf(-Interval::point(m.get(), precision));
    if (certainly_less_equal(lp, log_q)) return Side::kAbove;  // Phi(-m) <= q: m >= m*
    if (certainly_less(log_q, lp)) return Side::kBelow;         // Phi(-m) > q: m < m*
    return Side::kUnknown;
  };
  // m = sqrt(2 log(1 + e^eps)) = sqrt(-2 log q) satisfies Phi(-m) <= e^(-m^2/2)/2 < q: the
  // search starts there (m* lies a little below it).
  const Interval guess = sqrt(-log_q * mpq_class(2));
  Bracket b = bracket_root(side, real_from(guess.upper(), precision, MPFR_RNDU), "mu");
  return mul_2si(bisect(side, b.lo, b.hi, precision, result_bits), 1);
}

}  // namespace internal

Certified gdp_epsilon(const mpq_class& mu, const mpq_class& delta, const ZivOptions& options) {
  validate_mu(mu);
  validate_delta(delta);
  const long bits = result_bits_for(options);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return internal::gdp_epsilon_at(Interval(mu, p), delta, p, bits); },
      options);
}

Certified gdp_epsilon(const Interval& mu, const mpq_class& delta, const ZivOptions& options) {
  if (!mu.is_valid() || mpfr_sgn(mu.lower()) <= 0 || !mu.is_finite()) {
    throw ParameterError::out_of_range("mu", mu.debug_string(), "0 < mu <= 10^6");
  }
  validate_mu(to_mpq(mu.upper()));
  validate_delta(delta);
  const long bits = result_bits_for(options);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) {
        Interval m = mu;
        m.set_precision(p);
        return internal::gdp_epsilon_at(m, delta, p, bits);
      },
      options);
}

Certified gdp_mu_for(const mpq_class& epsilon, const mpq_class& delta,
                     const ZivOptions& options) {
  validate_epsilon(epsilon);
  validate_delta(delta);
  const long bits = result_bits_for(options);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return internal::gdp_mu_for_at(epsilon, delta, p, bits); }, options);
}

Certified gdp_mu_of_pure_dp(const mpq_class& epsilon, const ZivOptions& options) {
  validate_epsilon(epsilon);
  const long bits = result_bits_for(options);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return internal::gdp_mu_of_pure_dp_at(epsilon, p, bits); }, options);
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
