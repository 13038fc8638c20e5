#include <exactdp/core/interval.h>

#include <stdexcept>
#include <utility>

namespace exactdp {
namespace {

mpfr_prec_t max_prec(const Interval& a, const Interval& b) {
  return a.precision() > b.precision() ? a.precision() : b.precision();
}

// out = x * y rounded in direction rnd, with the interval convention 0 * inf = 0 (an infinite
// end means "unbounded", and a zero factor makes every product 0).
void mul_end(mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) {
  if (mpfr_zero_p(x) || mpfr_zero_p(y)) {
    mpfr_set_zero(out, 1);
    return;
  }
  mpfr_mul(out, x, y, rnd);
}

// out = x / y rounded in direction rnd; y is nonzero (the divisor interval excludes 0).
// A finite x over an unbounded divisor end gives 0 (the limit), which is the right bound.
// inf / inf would be NaN in MPFR: with unbounded ends on both sides the true quotients are
// unbounded too, so the end is the infinity of the quotient's sign.
void div_end(mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) {
  if (mpfr_inf_p(x) && mpfr_inf_p(y)) {
    if ((mpfr_sgn(x) > 0) == (mpfr_sgn(y) > 0)) {
      mpfr_set_inf(out, 1);
    } else {
      mpfr_set_inf(out, -1);
    }
    return;
  }
  mpfr_div(out, x, y, rnd);
}

// r = [min, max] of op(x, y) over the four pairs of ends x of a, y of b, each computed with the
// rounding that keeps containment (down for the minimum, up for the maximum). For * and / the
// extremes over the boxes are attained at the ends (bilinear / monotone in each argument).
void hull_of_end_results(Interval& r, const Interval& a, const Interval& b,
                         void (*op)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t)) {
  Real t(r.precision());
  const mpfr_srcptr xs[2] = {a.lower(), a.upper()};
  const mpfr_srcptr ys[2] = {b.lower(), b.upper()};
  bool first = true;
  for (mpfr_srcptr x : xs) {
    for (mpfr_srcptr y : ys) {
      op(t.get(), x, y, MPFR_RNDD);
      if (first || mpfr_less_p(t.get(), r.lower())) mpfr_set(r.lower(), t.get(), MPFR_RNDD);
      op(t.get(), x, y, MPFR_RNDU);
      if (first || mpfr_greater_p(t.get(), r.upper())) mpfr_set(r.upper(), t.get(), MPFR_RNDU);
      first = false;
    }
  }
}

void check_not_nan(const Interval& r, const char* op) {
  if (mpfr_nan_p(r.lower()) || mpfr_nan_p(r.upper())) {
    throw std::domain_error(std::string("interval ") + op + " produced NaN");
  }
}

}  // namespace

void use_widest_exponent_range() noexcept {
  thread_local bool done = false;
  if (done) return;
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  done = true;
}

// ---- Real ------------------------------------------------------------------------------------

Real::Real(mpfr_prec_t precision) {
  use_widest_exponent_range();
  mpfr_init2(value_, precision);
  mpfr_set_zero(value_, 1);
}
Real::Real(const Real& other) {
  mpfr_init2(value_, mpfr_get_prec(other.value_));
  mpfr_set(value_, other.value_, MPFR_RNDD);  // exact: same precision
}
Real::Real(Real&& other) noexcept {
  mpfr_init2(value_, MPFR_PREC_MIN);
  mpfr_swap(value_, other.value_);
}
Real& Real::operator=(const Real& other) {
  if (this != &other) {
    mpfr_set_prec(value_, mpfr_get_prec(other.value_));
    mpfr_set(value_, other.value_, MPFR_RNDD);  // exact: same precision
  }
  return *this;
}
Real& Real::operator=(Real&& other) noexcept {
  mpfr_swap(value_, other.value_);
  return *this;
}
Real::~Real() { mpfr_clear(value_); }

// ---- Interval: construction ----------------------------------------------------------------

Interval::Interval(mpfr_prec_t precision) {
  use_widest_exponent_range();
  mpfr_init2(lower_, precision);
  mpfr_init2(upper_, precision);
  mpfr_set_zero(lower_, 1);
  mpfr_set_zero(upper_, 1);
}

Interval::Interval(const mpq_class& value, mpfr_prec_t precision) : Interval(precision) {
  mpfr_set_q(lower_, value.get_mpq_t(), MPFR_RNDD);
  mpfr_set_q(upper_, value.get_mpq_t(), MPFR_RNDU);
}

Interval::Interval(const mpz_class& value, mpfr_prec_t precision) : Interval(precision) {
  mpfr_set_z(lower_, value.get_mpz_t(), MPFR_RNDD);
  mpfr_set_z(upper_, value.get_mpz_t(), MPFR_RNDU);
}

Interval::Interval(long value, mpfr_prec_t precision) : Interval(precision) {
  mpfr_set_si(lower_, value, MPFR_RNDD);
  mpfr_set_si(upper_, value, MPFR_RNDU);
}

Interval Interval::from_ends(mpfr_srcptr lower, mpfr_srcptr upper, mpfr_prec_t precision) {
  if (mpfr_nan_p(lower) || mpfr_nan_p(upper) || mpfr_greater_p(lower, upper)) {
    throw std::domain_error("Interval::from_ends: NaN end or lower > upper");
  }
  Interval r(precision);
  mpfr_set(r.lower_, lower, MPFR_RNDD);
  mpfr_set(r.upper_, upper, MPFR_RNDU);
  return r;
}

Interval Interval::point(mpfr_srcptr x, mpfr_prec_t precision) {
  return from_ends(x, x, precision);
}

Interval Interval::entire(mpfr_prec_t precision) {
  Interval r(precision);
  mpfr_set_inf(r.lower_, -1);
  mpfr_set_inf(r.upper_, 1);
  return r;
}

Interval::Interval(const Interval& other) {
  mpfr_init2(lower_, other.precision());
  mpfr_init2(upper_, other.precision());
  mpfr_set(lower_, other.lower_, MPFR_RNDD);  // exact: same precision
  mpfr_set(upper_, other.upper_, MPFR_RNDU);
}

Interval::Interval(Interval&& other) noexcept {
  mpfr_init2(lower_, MPFR_PREC_MIN);
  mpfr_init2(upper_, MPFR_PREC_MIN);
  mpfr_set_zero(lower_, 1);
  mpfr_set_zero(upper_, 1);
  mpfr_swap(lower_, other.lower_);
  mpfr_swap(upper_, other.upper_);
}

Interval& Interval::operator=(const Interval& other) {
  if (this != &other) {
    mpfr_set_prec(lower_, other.precision());
    mpfr_set_prec(upper_, other.precision());
    mpfr_set(lower_, other.lower_, MPFR_RNDD);  // exact: same precision
    mpfr_set(upper_, other.upper_, MPFR_RNDU);
  }
  return *this;
}

Interval& Interval::operator=(Interval&& other) noexcept {
  mpfr_swap(lower_, other.lower_);
  mpfr_swap(upper_, other.upper_);
  return *this;
}

Interval::~Interval() {
  mpfr_clear(lower_);
  mpfr_clear(upper_);
}

void Interval::set_precision(mpfr_prec_t precision) {
  mpfr_prec_round(lower_, precision, MPFR_RNDD);
  mpfr_prec_round(upper_, precision, MPFR_RNDU);
}

bool Interval::is_valid() const {
  return !mpfr_nan_p(lower_) && !mpfr_nan_p(upper_) && mpfr_lessequal_p(lower_, upper_);
}
bool Interval::is_point() const { return mpfr_equal_p(lower_, upper_) != 0; }
bool Interval::is_finite() const {
  return mpfr_number_p(lower_) != 0 && mpfr_number_p(upper_) != 0;
}

bool Interval::contains(const mpq_class& value) const {
  // mpfr_cmp_q compares exactly; an infinite end compares as expected.
  return mpfr_cmp_q(lower_, value.get_mpq_t()) <= 0 && mpfr_cmp_q(upper_, value.get_mpq_t()) >= 0;
}
bool Interval::contains(const mpz_class& value) const {
  return mpfr_cmp_z(lower_, value.get_mpz_t()) <= 0 && mpfr_cmp_z(upper_, value.get_mpz_t()) >= 0;
}
bool Interval::contains(long value) const {
  return mpfr_cmp_si(lower_, value) <= 0 && mpfr_cmp_si(upper_, value) >= 0;
}
bool Interval::contains(const Interval& inner) const {
  return mpfr_lessequal_p(lower_, inner.lower_) && mpfr_greaterequal_p(upper_, inner.upper_);
}
bool Interval::contains_zero() const { return mpfr_sgn(lower_) <= 0 && mpfr_sgn(upper_) >= 0; }
bool Interval::is_positive() const { return mpfr_sgn(lower_) > 0; }
bool Interval::is_nonnegative() const { return mpfr_sgn(lower_) >= 0; }
bool Interval::is_negative() const { return mpfr_sgn(upper_) < 0; }

std::string Interval::debug_string() const {
  char* lo = nullptr;
  char* hi = nullptr;
  // Debug text only; rounding to nearest is fine here (documented in the header).
  mpfr_asprintf(&lo, "%.17RNg", lower_);
  mpfr_asprintf(&hi, "%.17RNg", upper_);
  std::string s = std::string("[") + (lo ? lo : "?") + ", " + (hi ? hi : "?") + "]";
  mpfr_free_str(lo);
  mpfr_free_str(hi);
  return s;
}

// ---- arithmetic ------------------------------------------------------------------------------

Interval operator+(const Interval& a, const Interval& b) {
  Interval r(max_prec(a, b));
  mpfr_add(r.lower(), a.lower(), b.lower(), MPFR_RNDD);
  mpfr_add(r.upper(), a.upper(), b.upper(), MPFR_RNDU);
  check_not_nan(r, "addition");  // -inf + inf
  return r;
}

Interval operator-(const Interval& a, const Interval& b) {
  Interval r(max_prec(a, b));
  mpfr_sub(r.lower(), a.lower(), b.upper(), MPFR_RNDD);  // smallest minus largest
  mpfr_sub(r.upper(), a.upper(), b.lower(), MPFR_RNDU);
  check_not_nan(r, "subtraction");
  return r;
}

Interval operator-(const Interval& a) {
  Interval r(a.precision());
  mpfr_neg(r.lower(), a.upper(), MPFR_RNDD);  // exact
  mpfr_neg(r.upper(), a.lower(), MPFR_RNDU);  // exact
  return r;
}

Interval operator*(const Interval& a, const Interval& b) {
  Interval r(max_prec(a, b));
  if (a.is_nonnegative() && b.is_nonnegative()) {
    mul_end(r.lower(), a.lower(), b.lower(), MPFR_RNDD);
    mul_end(r.upper(), a.upper(), b.upper(), MPFR_RNDU);
    return r;
  }
  // General case: the extremes are among the four end products.
  hull_of_end_results(r, a, b, mul_end);
  return r;
}

Interval operator/(const Interval& a, const Interval& b) {
  if (b.contains_zero()) throw std::domain_error("interval division by an interval containing 0");
  Interval r(max_prec(a, b));
  if (a.is_nonnegative() && b.is_positive()) {
    div_end(r.lower(), a.lower(), b.upper(), MPFR_RNDD);
    div_end(r.upper(), a.upper(), b.lower(), MPFR_RNDU);
    check_not_nan(r, "division");
    return r;
  }
  // General case: the extremes are among the four end quotients (b excludes 0).
  hull_of_end_results(r, a, b, div_end);
  check_not_nan(r, "division");
  return r;
}

Interval operator+(const Interval& a, const mpq_class& q) {
  Interval r(a.precision());
  mpfr_add_q(r.lower(), a.lower(), q.get_mpq_t(), MPFR_RNDD);
  mpfr_add_q(r.upper(), a.upper(), q.get_mpq_t(), MPFR_RNDU);
  return r;
}

Interval operator-(const Interval& a, const mpq_class& q) {
  Interval r(a.precision());
  mpfr_sub_q(r.lower(), a.lower(), q.get_mpq_t(), MPFR_RNDD);
  mpfr_sub_q(r.upper(), a.upper(), q.get_mpq_t(), MPFR_RNDU);
  return r;
}

Interval operator-(const mpq_class& q, const Interval& a) { return -(a - q); }

Interval operator*(const Interval& a, const mpq_class& q) {
  Interval r(a.precision());
  const int s = sgn(q);
  if (s == 0) return r;  // [0, 0]
  if (s > 0) {
    mpfr_mul_q(r.lower(), a.lower(), q.get_mpq_t(), MPFR_RNDD);
    mpfr_mul_q(r.upper(), a.upper(), q.get_mpq_t(), MPFR_RNDU);
  } else {  // a negative factor swaps the ends
    mpfr_mul_q(r.lower(), a.upper(), q.get_mpq_t(), MPFR_RNDD);
    mpfr_mul_q(r.upper(), a.lower(), q.get_mpq_t(), MPFR_RNDU);
  }
  return r;
}

Interval operator/(const Interval& a, const mpq_class& q) {
  const int s = sgn(q);
  if (s == 0) throw std::domain_error("interval division by the rational 0");
  Interval r(a.precision());
  if (s > 0) {
    mpfr_div_q(r.lower(), a.lower(), q.get_mpq_t(), MPFR_RNDD);
    mpfr_div_q(r.upper(), a.upper(), q.get_mpq_t(), MPFR_RNDU);
  } else {
    mpfr_div_q(r.lower(), a.upper(), q.get_mpq_t(), MPFR_RNDD);
    mpfr_div_q(r.upper(), a.lower(), q.get_mpq_t(), MPFR_RNDU);
  }
  return r;
}

Interval mul_2si(const Interval& a, long k) {
  Interval r(a.precision());
  mpfr_mul_2si(r.lower(), a.lower(), k, MPFR_RNDD);
  mpfr_mul_2si(r.upper(), a.upper(), k, MPFR_RNDU);
  return r;
}

// ---- elementary functions ------------------------------------------------------------------

Interval exp(const Interval& x) {  // increasing
  Interval r(x.precision());
  mpfr_exp(r.lower(), x.lower(), MPFR_RNDD);
  mpfr_exp(r.upper(), x.upper(), MPFR_RNDU);
  return r;
}

Interval expm1(const Interval& x) {  // increasing
  Interval r(x.precision());
  mpfr_expm1(r.lower(), x.lower(), MPFR_RNDD);
  mpfr_expm1(r.upper(), x.upper(), MPFR_RNDU);
  return r;
}

Interval log(const Interval& x) {  // increasing on (0, inf)
  if (mpfr_sgn(x.upper()) <= 0) throw std::domain_error("interval log of a value <= 0");
  Interval r(x.precision());
  if (mpfr_sgn(x.lower()) <= 0) {
    mpfr_set_inf(r.lower(), -1);
  } else {
    mpfr_log(r.lower(), x.lower(), MPFR_RNDD);
  }
  mpfr_log(r.upper(), x.upper(), MPFR_RNDU);
  return r;
}

Interval log1p(const Interval& x) {  // increasing on (-1, inf)
  if (mpfr_cmp_si(x.upper(), -1) <= 0) throw std::domain_error("interval log1p of a value <= -1");
  Interval r(x.precision());
  if (mpfr_cmp_si(x.lower(), -1) <= 0) {
    mpfr_set_inf(r.lower(), -1);
  } else {
    mpfr_log1p(r.lower(), x.lower(), MPFR_RNDD);
  }
  mpfr_log1p(r.upper(), x.upper(), MPFR_RNDU);
  return r;
}

Interval sqrt(const Interval& x) {  // increasing on [0, inf)
  if (mpfr_sgn(x.upper()) < 0) throw std::domain_error("interval sqrt of a negative value");
  Interval r(x.precision());
  if (mpfr_sgn(x.lower()) <= 0) {
    mpfr_set_zero(r.lower(), 1);  // the true argument is >= 0 (documented contract)
  } else {
    mpfr_sqrt(r.lower(), x.lower(), MPFR_RNDD);
  }
  mpfr_sqrt(r.upper(), x.upper(), MPFR_RNDU);
  return r;
}

Interval square(const Interval& x) {
  Interval r(x.precision());
  if (x.is_nonnegative()) {
    mpfr_sqr(r.lower(), x.lower(), MPFR_RNDD);
    mpfr_sqr(r.upper(), x.upper(), MPFR_RNDU);
  } else if (x.is_negative()) {
    mpfr_sqr(r.lower(), x.upper(), MPFR_RNDD);
    mpfr_sqr(r.upper(), x.lower(), MPFR_RNDU);
  } else {  // contains 0: [0, max(l^2, u^2)]
    mpfr_set_zero(r.lower(), 1);
    Real t(x.precision());
    mpfr_sqr(r.upper(), x.lower(), MPFR_RNDU);
    mpfr_sqr(t.get(), x.upper(), MPFR_RNDU);
    if (mpfr_greater_p(t.get(), r.upper())) mpfr_set(r.upper(), t.get(), MPFR_RNDU);
  }
  return r;
}

Interval abs(const Interval& x) {
  if (x.is_nonnegative()) return x;
  if (x.is_negative()) return -x;
  Interval r(x.precision());
  mpfr_set_zero(r.lower(), 1);
  mpfr_neg(r.upper(), x.lower(), MPFR_RNDU);  // exact
  if (mpfr_greater_p(x.upper(), r.upper())) mpfr_set(r.upper(), x.upper(), MPFR_RNDU);
  return r;
}

Interval min(const Interval& a, const Interval& b) {
  Interval r(max_prec(a, b));
  mpfr_min(r.lower(), a.lower(), b.lower(), MPFR_RNDD);
  mpfr_min(r.upper(), a.upper(), b.upper(), MPFR_RNDU);
  return r;
}

Interval max(const Interval& a, const Interval& b) {
  Interval r(max_prec(a, b));
  mpfr_max(r.lower(), a.lower(), b.lower(), MPFR_RNDD);
  mpfr_max(r.upper(), a.upper(), b.upper(), MPFR_RNDU);
  return r;
}

Interval hull(const Interval& a, const Interval& b) {
  Interval r(max_prec(a, b));
  mpfr_min(r.lower(), a.lower(), b.lower(), MPFR_RNDD);
  mpfr_max(r.upper(), a.upper(), b.upper(), MPFR_RNDU);
  return r;
}

Interval intersect(const Interval& a, const Interval& b) {
  Interval r(max_prec(a, b));
  mpfr_max(r.lower(), a.lower(), b.lower(), MPFR_RNDD);
  mpfr_min(r.upper(), a.upper(), b.upper(), MPFR_RNDU);
  if (mpfr_greater_p(r.lower(), r.upper())) {
    throw std::logic_error("intersect: disjoint intervals " + a.debug_string() + " and " +
                           b.debug_string() + " (one of them is not certified)");
  }
  return r;
}

Interval clamp(const Interval& x, const mpq_class& lo, const mpq_class& hi) {
  Interval bounds = hull(Interval(lo, x.precision()), Interval(hi, x.precision()));
  return intersect(x, bounds);
}

Interval pi_interval(mpfr_prec_t precision) {
  Interval r(precision);
  mpfr_const_pi(r.lower(), MPFR_RNDD);
  mpfr_const_pi(r.upper(), MPFR_RNDU);
  return r;
}

Interval log2_interval(mpfr_prec_t precision) {
  Interval r(precision);
  mpfr_const_log2(r.lower(), MPFR_RNDD);
  mpfr_const_log2(r.upper(), MPFR_RNDU);
  return r;
}

// ---- comparisons ---------------------------------------------------------------------------

bool certainly_less(const Interval& a, const Interval& b) {
  return mpfr_less_p(a.upper(), b.lower()) != 0;
}
bool certainly_less_equal(const Interval& a, const Interval& b) {
  return mpfr_lessequal_p(a.upper(), b.lower()) != 0;
}
bool upper_at_most(const Interval& a, const mpq_class& q) {
  return !mpfr_nan_p(a.upper()) && mpfr_cmp_q(a.upper(), q.get_mpq_t()) <= 0;
}
bool lower_above(const Interval& a, const mpq_class& q) {
  return !mpfr_nan_p(a.lower()) && mpfr_cmp_q(a.lower(), q.get_mpq_t()) > 0;
}

// ---- widths -------------------------------------------------------------------------------

Real width_upper(const Interval& x) {
  Real w(x.precision());
  mpfr_sub(w.get(), x.upper(), x.lower(), MPFR_RNDU);
  if (mpfr_nan_p(w.get())) mpfr_set_inf(w.get(), 1);  // inf - inf: unbounded
  return w;
}

Real relative_width_upper(const Interval& x) {
  Real w = width_upper(x);
  if (mpfr_zero_p(w.get())) return w;
  if (x.contains_zero() || !x.is_finite()) {
    mpfr_set_inf(w.get(), 1);
    return w;
  }
  // Divide by the smaller magnitude, rounded down, so the quotient rounded up is an upper bound.
  Real m(x.precision());
  if (x.is_positive()) {
    mpfr_set(m.get(), x.lower(), MPFR_RNDD);
  } else {
    mpfr_neg(m.get(), x.upper(), MPFR_RNDD);
  }
  mpfr_div(w.get(), w.get(), m.get(), MPFR_RNDU);
  return w;
}

bool relative_width_at_most(const Interval& x, const mpq_class& tolerance) {
  Real w = relative_width_upper(x);
  return mpfr_cmp_q(w.get(), tolerance.get_mpq_t()) <= 0;
}

long relative_width_log2(const Interval& x) {
  Real w = relative_width_upper(x);
  if (mpfr_zero_p(w.get())) return kZeroWidthLog2;
  if (mpfr_inf_p(w.get())) return kInfiniteWidthLog2;
  // w = m * 2^e with 1/2 <= m < 1, so w <= 2^e; if w is exactly 2^(e-1), e - 1 suffices.
  const long e = static_cast<long>(mpfr_get_exp(w.get()));
  if (mpfr_cmp_si_2exp(w.get(), 1, e - 1) == 0) return e - 1;
  return e;
}

mpq_class to_mpq(mpfr_srcptr x) {
  if (!mpfr_number_p(x)) throw std::domain_error("to_mpq: infinite or NaN MPFR value");
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), x);  // exact
  return q;
}

}  // namespace exactdp
