#include "accounting/discrete_gaussian_calibration.h"

#include <stdexcept>
#include <utility>

#include "accounting/analytic_gaussian.h"
#include "accounting/discrete_gaussian_profile.h"
#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::accounting {
namespace {

enum class Side { kMeets, kMisses, kUndecided };

mpz_class pow10(long k) {
  mpz_class r;
  mpz_ui_pow_ui(r.get_mpz_t(), 10, static_cast<unsigned long>(k));
  return r;
}

// x rounded to a dyadic rational with about `bits` significant bits (a search value only).
mpq_class dyadic(const mpq_class& x, mpfr_prec_t bits) {
  Real r(bits);
  mpfr_set_q(r.get(), x.get_mpq_t(), MPFR_RNDU);  // search value: the direction is immaterial
  return to_mpq(r.get());
}

// Certified comparisons of delta(sigma2) with the target. For targets above 1/2 they are made on
// g = 1 - delta (discrete_gaussian_delta_complement_at, relatively accurate however close delta
// is to 1) against the exact 1 - target: delta itself would need -log2(1 - target) extra bits
// to differ from 1 (delta = 1 - 10^-5000 took 3 s at 32,768 bits; now milliseconds).
class Problem {
 public:
  Problem(mpq_class epsilon, const mpq_class& target, mpz_class sensitivity, mpfr_prec_t cap)
      : epsilon_(std::move(epsilon)),
        complement_(target > mpq_class(1, 2)),
        level_(complement_ ? mpq_class(1 - target) : target),
        sensitivity_(std::move(sensitivity)),
        cap_(cap) {}

  // Certified comparison of delta(sigma2) with the target, raising precision until decided.
  // `out` receives g(sigma2) (delta, or 1 - delta for targets above 1/2): see delta_from.
  Side decide(const mpq_class& sigma2, Interval& out) const {
    for (mpfr_prec_t p = 128;; p = (2 * p > cap_ ? cap_ : 2 * p)) {
      if (complement_) {
        out = discrete_gaussian_delta_complement_at(epsilon_, sigma2, sensitivity_, p);
        if (mpfr_cmp_q(out.lower(), level_.get_mpq_t()) >= 0) return Side::kMeets;
        if (mpfr_cmp_q(out.upper(), level_.get_mpq_t()) < 0) return Side::kMisses;
      } else {
        out = discrete_gaussian_delta_at(epsilon_, sigma2, sensitivity_, p);
        if (upper_at_most(out, level_)) return Side::kMeets;
        if (lower_above(out, level_)) return Side::kMisses;
      }
      if (p >= cap_) return Side::kUndecided;
    }
  }

  // delta from a g interval of decide(): for the complement, 1 - g with enough bits to be exact
  // (g's precision plus -log2(1 - target)), so a certified g >= 1 - target shows as
  // upper(delta) <= target.
  [[nodiscard]] Interval delta_from(const Interval& g) const {
    if (!complement_) return g;
    const long below_one = static_cast<long>(mpz_sizeinbase(level_.get_den_mpz_t(), 2)) -
                           static_cast<long>(mpz_sizeinbase(level_.get_num_mpz_t(), 2)) + 1;
    const mpfr_prec_t w = g.precision() + static_cast<mpfr_prec_t>(below_one > 0 ? below_one : 0) + 8;
    return clamp(Interval(1L, w) - g, mpq_class(0), mpq_class(1));
  }

 private:
  mpq_class epsilon_;
  bool complement_;
  mpq_class level_;
  mpz_class sensitivity_;
  mpfr_prec_t cap_;
};

// The bracket search squares its factor after each failure (2, 4, 16, 256, ...): 20 rounds reach
// a factor 2^(2^20) from the guess, far beyond any sigma2 a legal input needs, while the numbers
// stay small (the 30th round would hold a 2^30-bit factor: a fuzzer found that memory blow-up when
// the profile could not be decided at tiny sigma2).
constexpr int kMaxWidenings = 20;

LimitError no_bracket(const mpq_class& guess) {
  return LimitError("epsilon", "epsilon, delta: no certified sigma2 bracket found around sigma2 = " +
                                   abbreviate(to_string(guess)) +
                                   " (searched a factor 2^(2^20) either way)");
}

}  // namespace

mpq_class default_bracket_tolerance() { return power_of_two(-32); }

mpq_class round_up_significant(const mpq_class& x, int digits) {
  if (sgn(x) <= 0) throw std::invalid_argument("round_up_significant: x <= 0");
  if (digits < 1) throw std::invalid_argument("round_up_significant: digits < 1");
  // e = floor(log10 x): start from the size estimate and correct exactly.
  long e = static_cast<long>((static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 10)) -
                              static_cast<long>(mpz_sizeinbase(x.get_den_mpz_t(), 10))));
  auto power = [](long k) {
    return k >= 0 ? mpq_class(pow10(k)) : mpq_class(mpz_class(1), pow10(-k));
  };
  while (power(e) > x) --e;
  while (power(e + 1) <= x) ++e;
  const mpq_class unit = power(e - digits + 1);  // x in [10^e, 10^(e+1)): `digits` digits
  const mpq_class ratio = x / unit;
  mpz_class n;
  mpz_cdiv_q(n.get_mpz_t(), ratio.get_num_mpz_t(), ratio.get_den_mpz_t());  // ceil
  mpq_class out = mpq_class(n) * unit;
  out.canonicalize();
  return out;
}

DiscreteGaussianCalibration calibrate_discrete_gaussian(const mpq_class& epsilon,
                                                        const mpq_class& delta,
                                                        const mpz_class& sensitivity,
                                                        const mpq_class& bracket_tolerance,
                                                        mpfr_prec_t max_precision) {
  validate_discrete_gaussian(epsilon, mpq_class(1), sensitivity);
  if (sgn(delta) <= 0 || delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(delta)), "0 < delta < 1");
  }
  if (bracket_tolerance < power_of_two(-200) || bracket_tolerance > mpq_class(1, 100)) {
    throw ParameterError::out_of_range("tolerance", abbreviate(to_string(bracket_tolerance)),
                                       "2^-200 <= tolerance <= 1/100 for the sigma2 bracket");
  }
  if (max_precision < 128 || max_precision > kMaxPrecision) {
    throw ParameterError::out_of_range("precision", std::to_string(max_precision),
                                       "128 <= precision <= " + std::to_string(kMaxPrecision));
  }
  const Problem pr(epsilon, delta, sensitivity, max_precision);

  // Start from the continuous Gaussian's sigma^2 (a close guess: the profiles agree to
  // O(sigma^-2) once sigma is not tiny).
  ZivOptions loose;
  loose.tolerance = power_of_two(-20);
  const GaussianCalibration cont =
      calibrate_gaussian(epsilon, delta, mpq_class(sensitivity), loose);
  const mpq_class guess = dyadic(cont.sigma * cont.sigma, 64);

  Interval d_hi(128), d_lo(128);
  // Certified bracket: hi meets, lo misses. Widen from the guess by factors 2, 4, 16, 256, ...
  // (squared after each failure: any scale is reached in a few steps).
  mpq_class hi = guess * mpq_class(65, 64), lo = guess * mpq_class(63, 64);
  Side side = pr.decide(hi, d_hi);
  mpq_class factor = 2;
  for (int i = 0; side != Side::kMeets; ++i) {
    if (i > kMaxWidenings) throw no_bracket(guess);
    if (side == Side::kMisses) {
      lo = hi;
      d_lo = d_hi;
    }
    hi *= factor;
    factor *= factor;
    side = pr.decide(hi, d_hi);
  }
  side = pr.decide(lo, d_lo);
  factor = 2;
  for (int i = 0; side != Side::kMisses; ++i) {
    if (i > kMaxWidenings) throw no_bracket(guess);
    if (side == Side::kMeets) {
      hi = lo;
      d_hi = d_lo;
    }
    lo /= factor;
    factor *= factor;
    side = pr.decide(lo, d_lo);
  }
  // Bisection with certified comparisons.
  for (int i = 0; i < 400 && (hi - lo) / lo > bracket_tolerance; ++i) {
    const mpq_class mid = dyadic((lo + hi) / 2, 96);
    if (mid <= lo || mid >= hi) break;
    Interval d_mid(128);
    const Side s = pr.decide(mid, d_mid);
    if (s == Side::kMeets) {
      hi = mid;
      d_hi = d_mid;
    } else if (s == Side::kMisses) {
      lo = mid;
      d_lo = d_mid;
    } else {
      break;  // delta(mid) equals the target within the cap: the bracket is as narrow as it gets
    }
  }

  // The profile is not monotone in sigma2: just above each "crossing point" c_n, where
  // eps sigma2/Delta - Delta/2 = n is an integer (k1 changes), delta rises for a while before
  // falling again, so its local minima sit at the c_n (e.g. eps ~ 0.98, Delta = 1, target 0.192:
  // bisection from the continuous guess finds 0.619, but delta(0.509) < 0.192 already). A
  // smaller feasible sigma2 therefore shows up as a crossing point c_n < lo with
  // delta(c_n) <= target. We check the nearest crossing point below lo; when it meets the
  // target we bisect on the falling branch to its left (above c_{n-1}) and repeat. The first
  // crossing point that misses ends the search, which is exact if delta is unimodal between
  // consecutive crossing points and its minima decrease with n (both observed, not proven).
  // The returned sigma2 is certified either way.
  if (sgn(epsilon) > 0) {
    const mpq_class d(sensitivity);
    for (int round = 0; round < 64; ++round) {
      // Largest n with c_n < lo: n = ceil(eps lo / Delta - Delta/2) - 1.
      const mpq_class x = epsilon * lo / d - d / 2;
      mpz_class n;
      mpz_cdiv_q(n.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
      n -= 1;
      const mpq_class c = (mpq_class(n) + d / 2) * d / epsilon;
      if (sgn(c) <= 0) break;
      Interval d_c(128);
      if (pr.decide(c, d_c) != Side::kMeets) break;
      // Feasible at c_n: the smallest feasible point is on the falling branch left of c_n,
      // which starts at c_{n-1} (or at 0).
      hi = c;
      d_hi = d_c;
      const mpq_class left = (mpq_class(n - 1) + d / 2) * d / epsilon;
      lo = sgn(left) > 0 ? left : c / 2;
      for (int i = 0; pr.decide(lo, d_lo) != Side::kMisses; ++i) {
        if (i > 64) throw no_bracket(c);
        hi = lo;
        d_hi = d_lo;
        lo /= 2;
      }
      for (int i = 0; i < 400 && (hi - lo) / lo > bracket_tolerance; ++i) {
        const mpq_class mid = dyadic((lo + hi) / 2, 96);
        if (mid <= lo || mid >= hi) break;
        Interval d_mid(128);
        const Side sm = pr.decide(mid, d_mid);
        if (sm == Side::kMeets) {
          hi = mid;
          d_hi = d_mid;
        } else if (sm == Side::kMisses) {
          lo = mid;
          d_lo = d_mid;
        } else {
          break;
        }
      }
    }
  }

  DiscreteGaussianCalibration out;
  out.optimum_lower = lo;
  out.optimum_upper = hi;
  out.delta_at_optimum_lower = pr.delta_from(d_lo);
  out.delta_at_optimum_upper = pr.delta_from(d_hi);
  out.bracket_tolerance_met = (hi - lo) / lo <= bracket_tolerance;

  // The convenient value: 3 significant digits rounded up (4 if 3 would be > 1% above lo),
  // certified directly (bumped by one unit in the last digit if, against monotonicity, it
  // failed to meet the target).
  for (int digits = 3; digits <= 12; ++digits) {
    mpq_class candidate = round_up_significant(hi, digits);
    if (digits < 12 && candidate > lo * mpq_class(101, 100)) continue;
    Interval d_c(128);
    for (int bump = 0; bump < 100; ++bump) {
      if (pr.decide(candidate, d_c) == Side::kMeets) {
        out.sigma2 = candidate;
        out.delta_at_sigma2 = pr.delta_from(d_c);
        out.significant_digits = digits;
        return out;
      }
      candidate = round_up_significant(candidate * (1 + power_of_two(-60)), digits);
      if (candidate == out.sigma2) break;
    }
  }
  // Fall back to the certified upper end of the bracket itself.
  out.sigma2 = hi;
  out.delta_at_sigma2 = pr.delta_from(d_hi);
  out.significant_digits = 0;
  return out;
}

}  // namespace exactdp::accounting
