#include <exactdp/accounting/gdp_conversions.h>

#include <functional>
#include <optional>
#include <stdexcept>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/internal/certified_search.h>
#include <exactdp/accounting/internal/gdp_bisection.h>
#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

const mpq_class kMaxParameter(1'000'000);

void validate_mu(const mpq_class& mu) { require_positive_at_most("mu", mu, kMaxParameter, "10^6"); }
void validate_epsilon(const mpq_class& epsilon) {
  require_nonnegative_at_most("epsilon", epsilon, kMaxParameter, "10^6");
}
void validate_delta(const mpq_class& delta) { require_open_unit("delta", delta); }

using internal::bisect_root;
using internal::bracket_root;
using internal::RootSide;
using internal::RootSideFn;
using internal::Side;
using internal::TargetComparison;

Real real_from(mpfr_srcptr x, mpfr_prec_t precision, mpfr_rnd_t rnd) {
  Real r(precision);
  mpfr_set(r.get(), x, rnd);
  return r;
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
// 10^-n: comparing delta_mu(x) with delta directly needs ~3.3 n bits at every bisection step,
// comparing D(x) with G needs them once.
class NearZeroSide {
 public:
  NearZeroSide(const mpq_class& mu, const mpq_class& delta, mpfr_prec_t precision)
      : mu_(mu), delta_(delta), precision_(precision) {}

  RootSide operator()(const Real& x) {
    if (!gap_known_) compute_gap();
    if (!gap_usable_) return RootSide::kUnknown;
    if (mpfr_sgn(gap_.upper()) <= 0) return RootSide::kAbove;  // delta >= delta_mu(0): eps* = 0
    const mpfr_prec_t w = precision_ + 16;
    const mpq_class xq = to_mpq(x.get());
    const Interval xi(xq, w);
    const mpq_class half_mu = mu_ / 2;
    const Interval d_low = xi * normal_cdf(mpq_class(-half_mu - xq / mu_), w);
    const Interval d_high = xi * exp(xi) * normal_cdf(mpq_class(-half_mu), w);
    if (mpfr_cmp(d_low.lower(), gap_.upper()) >= 0) return RootSide::kAbove;  // D(x) >= G
    if (mpfr_cmp(d_high.upper(), gap_.lower()) < 0) return RootSide::kBelow;  // D(x) < G
    return RootSide::kUnknown;
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
  // For delta above 1/2 the comparison is made on 1 - delta (TargetComparison, as in
  // gdp_mu_for_at): comparing delta itself would need -log2(1 - delta) extra bits at every step
  // (~16,600 for delta = 1 - 10^-5000).
  const TargetComparison target(delta);
  const mpq_class mu_hi = to_mpq(mu.upper());
  const mpq_class mu_lo = to_mpq(mu.lower());
  const RootSideFn side = [&](const Real& x) {
    if (target.complement()) {
      const mpq_class xq = to_mpq(x.get());
      // 1 - delta_m(x) is decreasing in m: "above" is proven at mu.upper, "below" at mu.lower.
      const Interval c_hi = gdp_delta_complement_at(xq, mu_hi, precision);
      if (target.side_of(c_hi) == Side::kMeets) return RootSide::kAbove;
      const Interval c_lo =
          mu.is_point() ? c_hi : gdp_delta_complement_at(xq, mu_lo, precision);
      if (target.side_of(c_lo) == Side::kMisses) return RootSide::kBelow;
    } else {
      const Side s = target.side_of(delta_at(x.get(), mu, precision));
      if (s == Side::kMeets) return RootSide::kAbove;   // feasible: eps* <= x
      if (s == Side::kMisses) return RootSide::kBelow;  // infeasible: eps* > x
    }
    // Undecided at this precision: near eps = 0, compare D(x) with G instead. D's enclosure
    // has relative width O(x), so it can only help where x is far below 2^-(p/2); elsewhere
    // the Ziv driver's next precision decides (and a bisection that merely reached this
    // precision's resolution pays nothing extra).
    if (!mpfr_zero_p(x.get()) && mpfr_get_exp(x.get()) >= -static_cast<long>(precision) / 2) {
      return RootSide::kUnknown;
    }
    if (near_zero_upper(x) == RootSide::kAbove) return RootSide::kAbove;
    if (near_zero_lower(x) == RootSide::kBelow) return RootSide::kBelow;
    return RootSide::kUnknown;
  };
  Real zero(precision);
  mpfr_set_zero(zero.get(), 1);
  if (side(zero) == RootSide::kAbove) return Interval(0L, precision);
  // eps = mu^2/2 + mu sqrt(2 ln(1/delta)) is feasible (Gaussian tail bound); verified below.
  const Interval mu_up = Interval::point(mu.upper(), precision);
  const Interval guess =
      square(mu_up) / mpq_class(2) + mu_up * sqrt(-log(Interval(delta, precision)) * mpq_class(2));
  internal::RootBracket b = bracket_root(side, real_from(guess.upper(), precision, MPFR_RNDU), "epsilon");
  return bisect_root(side, b.lo, b.hi, precision, result_bits);
}

Interval gdp_mu_for_at(const mpq_class& epsilon, const mpq_class& delta, mpfr_prec_t precision,
                       long result_bits) {
  // For delta above 1/2 the comparison is made on 1 - delta (gdp_delta_complement_at: relative
  // accuracy however close delta is to 1), against the exact 1 - delta; comparing delta itself
  // would need -log2(1 - delta) extra bits to tell it from 1.
  const TargetComparison target(delta);
  const RootSideFn side = [&](const Real& m) {
    const mpq_class mu = to_mpq(m.get());
    const Interval g = target.complement() ? gdp_delta_complement_at(epsilon, mu, precision)
                                           : gdp_delta_at(epsilon, mu, precision);
    switch (target.side_of(g)) {
      case Side::kMeets: return RootSide::kBelow;   // delta_m(eps) <= delta: m <= mu*
      case Side::kMisses: return RootSide::kAbove;  // m > mu*
      case Side::kUndecided: break;
    }
    return RootSide::kUnknown;
  };
  Real one(precision);
  mpfr_set_ui(one.get(), 1, MPFR_RNDN);
  internal::RootBracket b = bracket_root(side, one, "mu");
  return bisect_root(side, b.lo, b.hi, precision, result_bits);
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
    const RootSideFn side = [&](const Real& m) {
      const Interval e = erf(Interval::point(m.get(), precision) * inv_sqrt2);
      if (certainly_less_equal(th, e)) return RootSide::kAbove;  // m >= m*
      if (certainly_less(e, th)) return RootSide::kBelow;        // m < m*
      return RootSide::kUnknown;
    };
    // m* = sqrt 2 erfinv(tanh(eps/2)) is ~0.63 eps for 0 < eps < 1: start the search at eps.
    Real start(precision);
    mpfr_set_q(start.get(), epsilon.get_mpq_t(), MPFR_RNDU);
    internal::RootBracket b = bracket_root(side, start, "mu");
    return mul_2si(bisect_root(side, b.lo, b.hi, precision, result_bits), 1);
  }
  // m* = mu*/2 solves Phi(-m) = q = 1 / (1 + e^eps); compare logs: log q = -log1p(e^eps).
  const Interval log_q = -log1p(exp(eps));
  const RootSideFn side = [&](const Real& m) {
    const Interval lp = log_normal_cdf(-Interval::point(m.get(), precision));
    if (certainly_less_equal(lp, log_q)) return RootSide::kAbove;  // Phi(-m) <= q: m >= m*
    if (certainly_less(log_q, lp)) return RootSide::kBelow;         // Phi(-m) > q: m < m*
    return RootSide::kUnknown;
  };
  // m = sqrt(2 log(1 + e^eps)) = sqrt(-2 log q) satisfies Phi(-m) <= e^(-m^2/2)/2 < q: the
  // search starts there (m* lies a little below it).
  const Interval guess = sqrt(-log_q * mpq_class(2));
  internal::RootBracket b = bracket_root(side, real_from(guess.upper(), precision, MPFR_RNDU), "mu");
  return mul_2si(bisect_root(side, b.lo, b.hi, precision, result_bits), 1);
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

ComposedGdp gdp_epsilon_of_composed_pure_dp(const mpq_class& epsilon, unsigned long k,
                                            const mpq_class& delta, const ZivOptions& options) {
  validate_epsilon(epsilon);
  validate_delta(delta);
  if (k < 1) throw ParameterError::out_of_range("k", std::to_string(k), "k >= 1");
  const long bits = result_bits_for(options);
  ComposedGdp out;
  out.epsilon = evaluate_to_tolerance(
      [&](mpfr_prec_t p) {
        // mu_1 to the working precision (result_bits 0): its width must shrink with p.
        const Interval mu1 = internal::gdp_mu_of_pure_dp_at(epsilon, p, 0);
        const std::pair<Interval, unsigned long> parts[] = {{mu1, k}};
        out.mu = gdp_compose_counted(parts);
        if (!out.mu.is_positive()) return Interval(0L, p);  // eps = 0: mu = 0, no privacy loss
        return internal::gdp_epsilon_at(out.mu, delta, p, bits);
      },
      options);
  return out;
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
