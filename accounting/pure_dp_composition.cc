#include <exactdp/accounting/pure_dp_composition.h>

#include <stdexcept>
#include <string>

#include <exactdp/accounting/internal/kov_fixed_precision.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

const mpq_class kMaxEpsilon(1'000'000);

// The running state of one KOV pass at breakpoint index i (see the header):
//   t = t_i, w = W_i, delta = delta_i, all intervals of positive (or zero) reals.
// step() moves to i + 1 with directed MPFR calls on the ends (lower from lower with RNDD,
// upper from upper with RNDU: every map here is increasing in every operand because all
// operands are >= 0).
class KovPass {
 public:
  KovPass(const mpq_class& epsilon, unsigned long k, mpfr_prec_t precision)
      : k_(k),
        r_(exp(-Interval(epsilon, precision))),
        r2_(exp(-Interval(mpq_class(2 * epsilon), precision))),
        one_minus_r2_(-expm1(-Interval(mpq_class(2 * epsilon), precision))),
        // t_0 = (1 + r)^-k = exp(-k log1p(r))
        t_(exp(-(log1p(r_) * mpq_class(static_cast<long>(k))))),
        w_(precision),
        delta_(precision),
        prev_delta_(precision),
        s_(precision),
        tmp_(precision) {}

  [[nodiscard]] unsigned long index() const { return i_; }
  [[nodiscard]] const Interval& delta() const { return delta_; }
  // t_i + W_i: the weight of the segment just below breakpoint i (the header's S).
  [[nodiscard]] Interval segment_weight() const { return t_ + w_; }
  // After step(): delta_{i-1} and S_{i-1} = t_{i-1} + W_{i-1} of the index just left.
  [[nodiscard]] const Interval& previous_delta() const { return prev_delta_; }
  [[nodiscard]] const Interval& previous_weight() const { return s_; }

  void step() {
    if (i_ >= k_) throw std::logic_error("KovPass: stepped past k");
    // prev = delta (same precision: exact copy)
    mpfr_set(prev_delta_.lower(), delta_.lower(), MPFR_RNDD);
    mpfr_set(prev_delta_.upper(), delta_.upper(), MPFR_RNDU);
    // s = t + W
    mpfr_add(s_.lower(), t_.lower(), w_.lower(), MPFR_RNDD);
    mpfr_add(s_.upper(), t_.upper(), w_.upper(), MPFR_RNDU);
    // delta += (1 - r^2) s
    mpfr_mul(tmp_.lower(), one_minus_r2_.lower(), s_.lower(), MPFR_RNDD);
    mpfr_mul(tmp_.upper(), one_minus_r2_.upper(), s_.upper(), MPFR_RNDU);
    mpfr_add(delta_.lower(), delta_.lower(), tmp_.lower(), MPFR_RNDD);
    mpfr_add(delta_.upper(), delta_.upper(), tmp_.upper(), MPFR_RNDU);
    // W = r^2 s
    mpfr_mul(w_.lower(), r2_.lower(), s_.lower(), MPFR_RNDD);
    mpfr_mul(w_.upper(), r2_.upper(), s_.upper(), MPFR_RNDU);
    // t = t (k - i) / (i + 1) r
    mpfr_mul_ui(t_.lower(), t_.lower(), k_ - i_, MPFR_RNDD);
    mpfr_mul_ui(t_.upper(), t_.upper(), k_ - i_, MPFR_RNDU);
    mpfr_div_ui(t_.lower(), t_.lower(), i_ + 1, MPFR_RNDD);
    mpfr_div_ui(t_.upper(), t_.upper(), i_ + 1, MPFR_RNDU);
    mpfr_mul(t_.lower(), t_.lower(), r_.lower(), MPFR_RNDD);
    mpfr_mul(t_.upper(), t_.upper(), r_.upper(), MPFR_RNDU);
    ++i_;
  }

 private:
  unsigned long k_;
  unsigned long i_ = 0;
  Interval r_, r2_, one_minus_r2_;
  Interval t_, w_, delta_;
  Interval prev_delta_, s_, tmp_;  // s_ = S_{i-1} after step(); tmp_ scratch
};

// eps_i = (k - 2i) epsilon, exact (may be negative: -epsilon for i = (k + 1) / 2, k odd).
mpq_class breakpoint(const mpq_class& epsilon, unsigned long k, unsigned long i) {
  return mpq_class(mpz_class(static_cast<long>(k)) - 2 * mpz_class(static_cast<long>(i))) *
         epsilon;
}

// The last breakpoint index the profile needs: ceil(k / 2) (eps at or below 0).
unsigned long last_index(unsigned long k) { return (k + 1) / 2; }

// y for 1 - e^-y = u, i.e. y = -log1p(-u); increasing in u; +inf when u >= 1.
// Returns the interval of y for u in [u.lower, u.upper].
Interval y_of_u(const Interval& u) {
  Interval y(u.precision());
  // lower end: from u.lower (increasing map), rounded down
  if (mpfr_cmp_ui(u.lower(), 1) >= 0) {
    mpfr_set_inf(y.lower(), 1);
  } else {
    Interval one_minus(u.precision());
    mpfr_neg(one_minus.lower(), u.lower(), MPFR_RNDD);  // exact
    mpfr_log1p(y.lower(), one_minus.lower(), MPFR_RNDU);  // log1p(-u) rounded up ...
    mpfr_neg(y.lower(), y.lower(), MPFR_RNDD);            // ... so -log1p(-u) is rounded down
  }
  if (mpfr_cmp_ui(u.upper(), 1) >= 0) {
    mpfr_set_inf(y.upper(), 1);
  } else {
    Interval one_minus(u.precision());
    mpfr_neg(one_minus.upper(), u.upper(), MPFR_RNDU);  // exact
    mpfr_log1p(y.upper(), one_minus.upper(), MPFR_RNDD);
    mpfr_neg(y.upper(), y.upper(), MPFR_RNDU);
  }
  return y;
}

// [max(lower, 0), max(upper, 0)]: eps* >= 0, and an end computed below 0 (the segment formula
// extended past eps' = 0) only says eps* = 0 there.
// The ends are clamped BEFORE the interval is formed: with k = 1, epsilon = delta = 10^-300
// the upper end came out as -epsilon (feasible even past 0) while the lower end was 0, and
// forming [0, -epsilon] threw "internal error" (exit 1) through the CLI.
Interval bracket(mpfr_srcptr lower, mpfr_srcptr upper, mpfr_prec_t precision) {
  Real lo(precision), hi(precision);
  mpfr_set(lo.get(), lower, MPFR_RNDD);
  mpfr_set(hi.get(), upper, MPFR_RNDU);
  if (mpfr_sgn(lo.get()) < 0) mpfr_set_zero(lo.get(), 1);
  if (mpfr_sgn(hi.get()) < 0) mpfr_set_zero(hi.get(), 1);
  return Interval::from_ends(lo.get(), hi.get(), precision);
}

// Exact comparisons of MPFR numbers with a fixed rational, decided on a precomputed enclosure
// of the rational when possible. The KOV walk compares every breakpoint with delta; with delta's
// denominator 10^100000 (or 5,000 nines) each mpfr_cmp_q was a 300,000-bit multiplication, and
// a walk of 500,000 steps took seconds. The answers are those of mpfr_cmp_q (falls back to it
// when the MPFR number is inside the enclosure).
class RationalThreshold {
 public:
  RationalThreshold(const mpq_class& q, mpfr_prec_t precision) : q_(q), enclosure_(q, precision) {}
  // x <= q and x > q, exactly (both false for NaN).
  [[nodiscard]] bool not_exceeded_by(mpfr_srcptr x) const { return !mpfr_nan_p(x) && compare(x) >= 0; }
  [[nodiscard]] bool exceeded_by(mpfr_srcptr x) const { return !mpfr_nan_p(x) && compare(x) < 0; }

 private:
  // sign of q - x
  [[nodiscard]] int compare(mpfr_srcptr x) const {
    if (mpfr_cmp(x, enclosure_.lower()) < 0) return 1;
    if (mpfr_cmp(x, enclosure_.upper()) > 0) return -1;
    return -mpfr_cmp_q(x, q_.get_mpq_t());
  }
  mpq_class q_;
  Interval enclosure_;
};

// The Ziv options for a KOV pass of k steps: the precision cap is lowered so that one pass costs
// at most about 2^29 / k bits per step (k = 10^6: 536 bits), so no request can run for minutes;
// past the cap the wider, still certified interval comes back with tolerance_met = false.
ZivOptions kov_options(const ZivOptions& options, unsigned long k) {
  options.validate();
  ZivOptions o = options;
  const long budget = (1L << 29) / static_cast<long>(k + 1);
  if (budget < o.max_precision) {
    o.max_precision = static_cast<mpfr_prec_t>(budget);
    if (o.max_precision < o.initial_precision) o.max_precision = o.initial_precision;
  }
  return o;
}

}  // namespace

void validate_pure_dp_composition(const mpq_class& epsilon, unsigned long k) {
  require_positive_at_most("epsilon", epsilon, kMaxEpsilon, "10^6");
  if (k < 1 || k > kMaxCompositions) {
    throw ParameterError::out_of_range("k", std::to_string(k), "1 <= k <= 10^6");
  }
}

void validate_delta(const mpq_class& delta, const char* name) { require_open_unit(name, delta); }

mpq_class basic_composition_epsilon(const mpq_class& epsilon, unsigned long k) {
  validate_pure_dp_composition(epsilon, k);
  return epsilon * mpq_class(static_cast<long>(k));
}

Interval advanced_composition_epsilon(const mpq_class& epsilon, unsigned long k,
                                      const mpq_class& delta, mpfr_prec_t precision) {
  validate_pure_dp_composition(epsilon, k);
  validate_delta(delta);
  const Interval eps(epsilon, precision);
  const mpq_class kq(static_cast<long>(k));
  // ln(1/delta) = -ln(delta) > 0
  const Interval log_inv_delta = -log(Interval(delta, precision));
  const Interval first = sqrt(log_inv_delta * mpq_class(2 * kq)) * eps;
  const Interval second = expm1(eps) * eps * kq;
  return first + second;
}

namespace internal {

Interval kov_delta_at_precision(const mpq_class& epsilon, unsigned long k,
                                const mpq_class& eps_prime, mpfr_prec_t precision) {
  const mpq_class total = epsilon * mpq_class(static_cast<long>(k));
  if (eps_prime >= total) return Interval(0L, precision);
  // Segment: the smallest i >= 1 with eps_i <= eps', i.e. i = ceil((k - eps'/epsilon) / 2).
  mpq_class half = (mpq_class(static_cast<long>(k)) - eps_prime / epsilon) / 2;
  mpz_class i_z;
  mpz_cdiv_q(i_z.get_mpz_t(), half.get_num_mpz_t(), half.get_den_mpz_t());
  unsigned long i = i_z < 1 ? 1UL : i_z.get_ui();
  if (i > last_index(k)) i = last_index(k);  // eps' >= 0 > eps_{last} cannot need more
  KovPass pass(epsilon, k, precision);
  for (unsigned long j = 0; j + 1 < i; ++j) pass.step();  // now at index i - 1
  // eps' = eps_{i-1} - y, 0 <= y <= 2 epsilon
  const Interval y(breakpoint(epsilon, k, i - 1) - eps_prime, precision);
  Interval out = pass.delta() + (-expm1(-y)) * pass.segment_weight();
  return clamp(out, mpq_class(0), mpq_class(1));
}

Interval kov_epsilon_at_precision(const mpq_class& epsilon, unsigned long k,
                                  const mpq_class& delta, mpfr_prec_t precision) {
  const mpq_class two_eps = 2 * epsilon;
  const Interval two_eps_iv(two_eps, precision);
  const Interval target(delta, precision);
  const RationalThreshold threshold(delta, precision);
  KovPass pass(epsilon, k, precision);
  // Walk i = 1, 2, ...: find i_up, the first i with delta_i.upper > delta (so delta_{i-1} is
  // certified <= delta), and i_lo, the first i with delta_i.lower > delta (certified > delta).
  const unsigned long last = last_index(k);
  Interval upper_end(precision), lower_end(precision);
  bool have_upper = false;
  for (unsigned long i = 1; i <= last; ++i) {
    // State at i - 1: delta_{i-1}, S_{i-1} = t_{i-1} + W_{i-1}.
    pass.step();  // now at i
    const Interval& prev_delta = pass.previous_delta();
    const Interval& weight = pass.previous_weight();
    const Interval& d = pass.delta();
    // (breakpoints are formed only where needed: with epsilon = 10^-100000 each one is a
    // multiplication by a 330,000-bit denominator)
    if (!have_upper && !threshold.not_exceeded_by(d.upper())) {  // not d.upper <= delta
      const mpq_class eps_prev = breakpoint(epsilon, k, i - 1);
      // u_lo = (delta - delta_{i-1}.upper) / S.upper >= 0, rounded down; y_lo = -log1p(-u_lo)
      // rounded down, clipped at 2 epsilon; eps' = eps_{i-1} - y_lo. Proof that
      // delta(eps') <= delta: see the header (1 - e^-y_lo <= u_lo).
      Interval u(precision);
      Interval num = target - Interval::point(prev_delta.upper(), precision);
      mpfr_div(u.lower(), num.lower(), weight.upper(), MPFR_RNDD);
      if (mpfr_sgn(u.lower()) < 0) mpfr_set_zero(u.lower(), 1);  // delta_{i-1}.u <= delta
      mpfr_set(u.upper(), u.lower(), MPFR_RNDU);
      Interval y = y_of_u(u);
      Interval e_up = Interval(eps_prev, precision) - min(y, two_eps_iv);
      upper_end = Interval::point(e_up.upper(), precision);
      have_upper = true;
    }
    if (threshold.exceeded_by(d.lower())) {  // d.lower > delta
      const mpq_class eps_prev = breakpoint(epsilon, k, i - 1);
      // Certified: eps* lies in (eps_i, eps_{i-1}] if i is also the upper segment, else just
      // eps* > eps_i.
      const mpq_class eps_i = breakpoint(epsilon, k, i);
      if (threshold.exceeded_by(prev_delta.lower())) {
        lower_end = Interval(eps_i, precision);
      } else {
        Interval u(precision);
        Interval num = target - Interval::point(prev_delta.lower(), precision);
        mpfr_div(u.upper(), num.upper(), weight.lower(), MPFR_RNDU);
        mpfr_set(u.lower(), u.upper(), MPFR_RNDD);
        Interval y = y_of_u(u);
        // eps* >= eps_{i-1} - y_hi (and >= eps_i)
        Interval e_lo = Interval(eps_prev, precision) - min(y, two_eps_iv);
        lower_end = Interval::point(e_lo.lower(), precision);
      }
      return bracket(lower_end.lower(), upper_end.upper(), precision);
    }
  }
  // No breakpoint down to eps_last <= 0 is certified infeasible: eps* = 0 if delta(0) <= delta
  // is proven, else eps* in [0, upper_end].
  if (!have_upper) return Interval(0L, precision);
  Interval zero(0L, precision);
  return bracket(zero.lower(), upper_end.upper(), precision);
}

Interval kov_breakpoint_delta_direct(const mpq_class& epsilon, unsigned long k, unsigned long i,
                                     mpfr_prec_t precision) {
  const Interval eps(epsilon, precision);
  Interval sum(precision);
  mpz_class binom;
  for (unsigned long l = 0; l < i; ++l) {
    mpz_bin_uiui(binom.get_mpz_t(), k, l);
    const Interval a = exp(eps * mpq_class(static_cast<long>(k - l)));
    const Interval b = exp(eps * mpq_class(static_cast<long>(k + l) - 2 * static_cast<long>(i)));
    sum = sum + Interval(binom, precision) * (a - b);
  }
  const Interval denom = exp(log1p(exp(eps)) * mpq_class(static_cast<long>(k)));
  return sum / denom;
}

}  // namespace internal

Certified kov_delta(const mpq_class& epsilon, unsigned long k, const mpq_class& eps_prime,
                    const ZivOptions& options) {
  validate_pure_dp_composition(epsilon, k);
  if (eps_prime < 0) {
    throw ParameterError::out_of_range("eps_prime", abbreviate(to_string(eps_prime)),
                                       "eps_prime >= 0");
  }
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return internal::kov_delta_at_precision(epsilon, k, eps_prime, p); },
      kov_options(options, k));
}

Certified kov_epsilon(const mpq_class& epsilon, unsigned long k, const mpq_class& delta,
                      const ZivOptions& options) {
  validate_pure_dp_composition(epsilon, k);
  validate_delta(delta);
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) { return internal::kov_epsilon_at_precision(epsilon, k, delta, p); },
      kov_options(options, k));
}

}  // namespace exactdp::accounting
