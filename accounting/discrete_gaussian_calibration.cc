#include <exactdp/accounting/discrete_gaussian_calibration.h>

#include <optional>
#include <stdexcept>
#include <utility>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/internal/certified_search.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/core/rational_rounding.h>

namespace exactdp::accounting {
namespace {

using internal::RationalBracket;
using internal::Side;
using internal::TargetComparison;

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

// Certified comparisons of delta(sigma2) with the target, on g = 1 - delta for targets above
// 1/2 (discrete_gaussian_delta_complement_at; internal/certified_search.h).
class Problem {
 public:
  Problem(mpq_class epsilon, const mpq_class& target, mpz_class sensitivity, mpfr_prec_t cap)
      : epsilon_(std::move(epsilon)), target_(target), sensitivity_(std::move(sensitivity)), cap_(cap) {}

  // Certified comparison of delta(sigma2) with the target, raising precision from 128 bits
  // until decided. `out` receives g(sigma2).
  Side decide(const mpq_class& sigma2, Interval& out) const {
    return target_.decide(
        [&](mpfr_prec_t p) {
          return target_.complement()
                     ? discrete_gaussian_delta_complement_at(epsilon_, sigma2, sensitivity_, p)
                     : discrete_gaussian_delta_at(epsilon_, sigma2, sensitivity_, p);
        },
        128, cap_, out);
  }

  [[nodiscard]] Interval delta_from(const Interval& g) const { return target_.delta_from(g); }

  [[nodiscard]] internal::RationalDecider decider() const {
    return [this](const mpq_class& sigma2, Interval& g) { return decide(sigma2, g); };
  }

 private:
  mpq_class epsilon_;
  TargetComparison target_;
  mpz_class sensitivity_;
  mpfr_prec_t cap_;
};

// The bracket search squares its factor after each failure (2, 4, 16, 256, ...): 20 rounds reach
// a factor 2^(2^20) from the guess, far beyond any sigma2 a legal input needs, while the numbers
// stay small (the 30th round would hold a 2^30-bit factor, which exhausts memory when the profile
// cannot be decided at tiny sigma2).
constexpr int kMaxWidenings = 20;

LimitError no_bracket(const mpq_class& guess) {
  return internal::no_bracket_error("sigma2", guess, kMaxWidenings);
}

// The bisection's midpoint: the arithmetic one rounded to 96 bits, if strictly inside.
std::optional<mpq_class> dyadic_midpoint(const mpq_class& lo, const mpq_class& hi) {
  mpq_class mid = dyadic((lo + hi) / 2, 96);
  if (mid <= lo || mid >= hi) return std::nullopt;
  return mid;
}

void bisect(const Problem& pr, RationalBracket& b, const mpq_class& tolerance) {
  internal::bisect_bracket(pr.decider(), b, tolerance, 400, dyadic_midpoint);
}

// The crossing point c_n = (n + Delta/2) Delta / eps, where eps sigma2/Delta - Delta/2 = n.
mpq_class crossing_point(const mpz_class& n, const mpq_class& epsilon, const mpq_class& d) {
  return (mpq_class(n) + d / 2) * d / epsilon;
}

// The profile is not monotone in sigma2: just above each "crossing point" c_n (k1 changes) delta
// rises for a while before falling again, so its local minima sit at the c_n (e.g. eps ~ 0.98,
// Delta = 1, target 0.192: bisection from the continuous guess finds 0.619, but
// delta(0.509) < 0.192 already). A smaller feasible sigma2 therefore shows up as a crossing
// point c_n < lo with delta(c_n) <= target. We check the nearest crossing point below lo; when
// it meets the target we bisect on the falling branch to its left (above c_{n-1}) and repeat.
// The first crossing point that misses ends the search, which is exact if delta is unimodal
// between consecutive crossing points and its minima decrease with n (both observed, not
// proven). The bracket stays certified either way.
void search_below_crossing_points(const Problem& pr, const mpq_class& epsilon,
                                  const mpz_class& sensitivity, const mpq_class& tolerance,
                                  RationalBracket& b) {
  if (sgn(epsilon) <= 0) return;
  const mpq_class d(sensitivity);
  for (int round = 0; round < 64; ++round) {
    // Largest n with c_n < lo: n = ceil(eps lo / Delta - Delta/2) - 1.
    const mpq_class x = epsilon * b.lo / d - d / 2;
    const mpz_class n = ceil_of(x) - 1;
    const mpq_class c = crossing_point(n, epsilon, d);
    if (sgn(c) <= 0) return;
    Interval g_c(128);
    if (pr.decide(c, g_c) != Side::kMeets) return;
    // Feasible at c_n: the smallest feasible point is on the falling branch left of c_n, which
    // starts at c_{n-1} (or at 0).
    b.hi = c;
    b.g_hi = g_c;
    const mpq_class left = crossing_point(mpz_class(n - 1), epsilon, d);
    b.lo = sgn(left) > 0 ? left : mpq_class(c / 2);
    for (int i = 0; pr.decide(b.lo, b.g_lo) != Side::kMisses; ++i) {
      if (i > 64) throw no_bracket(c);
      b.hi = b.lo;
      b.g_hi = b.g_lo;
      b.lo /= 2;
    }
    bisect(pr, b, tolerance);
  }
}

// The convenient value: 3 significant digits rounded up (4 if 3 would be > 1% above lo, ... up
// to 12), certified directly (bumped by one unit in the last digit if, against monotonicity, it
// failed to meet the target); the certified upper end of the bracket itself when none is.
void choose_convenient_sigma2(const Problem& pr, DiscreteGaussianCalibration& out) {
  for (int digits = 3; digits <= 12; ++digits) {
    mpq_class candidate = round_up_significant(out.optimum_upper, digits);
    if (digits < 12 && candidate > out.optimum_lower * mpq_class(101, 100)) continue;
    Interval g_c(128);
    for (int bump = 0; bump < 100; ++bump) {
      if (pr.decide(candidate, g_c) == Side::kMeets) {
        out.sigma2 = candidate;
        out.delta_at_sigma2 = pr.delta_from(g_c);
        out.significant_digits = digits;
        return;
      }
      candidate = round_up_significant(candidate * (1 + power_of_two(-60)), digits);
    }
  }
  out.sigma2 = out.optimum_upper;
  out.delta_at_sigma2 = out.delta_at_optimum_upper;
  out.significant_digits = 0;
}

void validate_calibration_options(const mpq_class& bracket_tolerance, mpfr_prec_t max_precision) {
  if (bracket_tolerance < power_of_two(-200) || bracket_tolerance > mpq_class(1, 100)) {
    throw ParameterError::out_of_range("tolerance", abbreviate(to_string(bracket_tolerance)),
                                       "2^-200 <= tolerance <= 1/100 for the sigma2 bracket");
  }
  if (max_precision < 128 || max_precision > kMaxPrecision) {
    throw ParameterError::out_of_range("precision", std::to_string(max_precision),
                                       "128 <= precision <= " + std::to_string(kMaxPrecision));
  }
}

}  // namespace

mpq_class default_bracket_tolerance() { return power_of_two(-32); }

mpq_class round_up_significant(const mpq_class& x, int digits) {
  if (sgn(x) <= 0) throw ParameterError::out_of_range("x", to_string(x), "x > 0 (round_up_significant)");
  if (digits < 1) throw ParameterError::out_of_range("digits", std::to_string(digits), "digits >= 1 (round_up_significant)");
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
  mpq_class out = mpq_class(ceil_of(ratio)) * unit;
  out.canonicalize();
  return out;
}

void validate_discrete_gaussian_calibration(const mpq_class& epsilon, const mpq_class& delta,
                                            const mpz_class& sensitivity) {
  require_nonnegative("epsilon", epsilon);
  require_open_unit("delta", delta);
  require_integer_sensitivity(sensitivity);
}

DiscreteGaussianCalibration calibrate_discrete_gaussian(const mpq_class& epsilon,
                                                        const mpq_class& delta,
                                                        const mpz_class& sensitivity,
                                                        const mpq_class& bracket_tolerance,
                                                        mpfr_prec_t max_precision) {
  validate_discrete_gaussian_calibration(epsilon, delta, sensitivity);
  validate_calibration_options(bracket_tolerance, max_precision);
  const Problem pr(epsilon, delta, sensitivity, max_precision);

  // Start from the continuous Gaussian's sigma^2 (a close guess: the profiles agree to
  // O(sigma^-2) once sigma is not tiny).
  ZivOptions loose;
  loose.tolerance = power_of_two(-20);
  const GaussianCalibration cont =
      calibrate_gaussian(epsilon, delta, mpq_class(sensitivity), loose);
  mpq_class guess = dyadic(cont.sigma * cont.sigma, 64);
  // For tiny epsilon the profile saturates at delta(0), the total variation distance
  // P[|Z| < Delta/2] <= Delta / sqrt(2 pi sigma2) (at most the mass of Delta points of f / N):
  // sigma2 = Delta^2 / (2 pi delta^2) meets the target whatever epsilon, where the continuous
  // guess grows like 1/epsilon^2 (eps = delta = 10^-100000: 10^200005 times too large, and the
  // bracket search never came back). Start from the smaller guess (6 > 2 pi: a little above).
  const mpq_class tv_guess = dyadic(mpq_class(sensitivity * sensitivity) / (6 * delta * delta), 64);
  if (tv_guess < guess) guess = tv_guess;
  // Refused up front when the range sum would cancel too many bits (sensitivity > 4096 and
  // delta tiny): the optimum is at least about guess / 4 (checked there, the cheaper end).
  check_range_sum_cost(guess / 4, sensitivity, "delta");

  // Certified bracket (hi meets, lo misses), widened from the guess, then bisected.
  RationalBracket b = internal::widen_bracket(pr.decider(), guess * mpq_class(63, 64),
                                              guess * mpq_class(65, 64), kMaxWidenings + 1,
                                              [&] { return no_bracket(guess); });
  bisect(pr, b, bracket_tolerance);
  search_below_crossing_points(pr, epsilon, sensitivity, bracket_tolerance, b);

  DiscreteGaussianCalibration out;
  out.optimum_lower = b.lo;
  out.optimum_upper = b.hi;
  out.delta_at_optimum_lower = pr.delta_from(b.g_lo);
  out.delta_at_optimum_upper = pr.delta_from(b.g_hi);
  out.bracket_tolerance_met = b.relative_width() <= bracket_tolerance;
  choose_convenient_sigma2(pr, out);
  return out;
}

}  // namespace exactdp::accounting
