#include "verification/bounds.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace exactdp::verification {

Bounds::Bounds() {
  mpfr_init2(lower_, kPrecision);
  mpfr_init2(upper_, kPrecision);
  mpfr_set_zero(lower_, 1);
  mpfr_set_zero(upper_, 1);
}

Bounds::Bounds(const Bounds& other) : Bounds() {
  mpfr_set(lower_, other.lower_, MPFR_RNDD);  // same precision: exact
  mpfr_set(upper_, other.upper_, MPFR_RNDU);
}

Bounds& Bounds::operator=(const Bounds& other) {
  if (this != &other) {
    mpfr_set(lower_, other.lower_, MPFR_RNDD);
    mpfr_set(upper_, other.upper_, MPFR_RNDU);
  }
  return *this;
}

Bounds::~Bounds() {
  mpfr_clear(lower_);
  mpfr_clear(upper_);
}

Bounds Bounds::of(const mpq_class& value) {
  Bounds out;
  mpfr_set_q(out.lower_, value.get_mpq_t(), MPFR_RNDD);
  mpfr_set_q(out.upper_, value.get_mpq_t(), MPFR_RNDU);
  return out;
}

Bounds Bounds::of(const mpz_class& value) {
  Bounds out;
  mpfr_set_z(out.lower_, value.get_mpz_t(), MPFR_RNDD);
  mpfr_set_z(out.upper_, value.get_mpz_t(), MPFR_RNDU);
  return out;
}

Bounds Bounds::of(long value) {
  Bounds out;
  mpfr_set_si(out.lower_, value, MPFR_RNDD);
  mpfr_set_si(out.upper_, value, MPFR_RNDU);
  return out;
}

Bounds Bounds::between(mpfr_srcptr lower, mpfr_srcptr upper) {
  Bounds out;
  mpfr_set(out.lower_, lower, MPFR_RNDD);
  mpfr_set(out.upper_, upper, MPFR_RNDU);
  return out;
}

std::string mpfr_text(mpfr_srcptr value, mpfr_rnd_t rnd, int digits) {
  if (mpfr_zero_p(value)) return "0";
  if (mpfr_inf_p(value)) return mpfr_sgn(value) > 0 ? "inf" : "-inf";
  if (mpfr_nan_p(value)) return "nan";
  char* text = nullptr;
  const int precision = std::max(1, digits) - 1;
  if (rnd == MPFR_RNDD) {
    mpfr_asprintf(&text, "%.*RDe", precision, value);
  } else {
    mpfr_asprintf(&text, "%.*RUe", precision, value);
  }
  std::string out = text != nullptr ? text : "?";
  mpfr_free_str(text);
  return out;
}

std::string Bounds::lower_text(int digits) const { return mpfr_text(lower_, MPFR_RNDD, digits); }
std::string Bounds::upper_text(int digits) const { return mpfr_text(upper_, MPFR_RNDU, digits); }

Bounds add(const Bounds& a, const Bounds& b) {
  Bounds out;
  mpfr_add(out.lower(), a.lower(), b.lower(), MPFR_RNDD);
  mpfr_add(out.upper(), a.upper(), b.upper(), MPFR_RNDU);
  return out;
}

Bounds sub(const Bounds& a, const Bounds& b) {
  Bounds out;
  // Subtraction flips the direction: lower(a - b) = lower(a) - upper(b).
  mpfr_sub(out.lower(), a.lower(), b.upper(), MPFR_RNDD);
  mpfr_sub(out.upper(), a.upper(), b.lower(), MPFR_RNDU);
  return out;
}

Bounds mul(const Bounds& a, const Bounds& b) {
  // The extreme products are among the four end products (any signs).
  mpfr_t lo, hi, t;
  mpfr_inits2(kPrecision, lo, hi, t, static_cast<mpfr_ptr>(nullptr));
  mpfr_mul(lo, a.lower(), b.lower(), MPFR_RNDD);
  mpfr_mul(hi, a.lower(), b.lower(), MPFR_RNDU);
  mpfr_srcptr as[2] = {a.lower(), a.upper()};
  mpfr_srcptr bs[2] = {b.lower(), b.upper()};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      mpfr_mul(t, as[i], bs[j], MPFR_RNDD);
      mpfr_min(lo, lo, t, MPFR_RNDD);
      mpfr_mul(t, as[i], bs[j], MPFR_RNDU);
      mpfr_max(hi, hi, t, MPFR_RNDU);
    }
  }
  Bounds out = Bounds::between(lo, hi);
  mpfr_clears(lo, hi, t, static_cast<mpfr_ptr>(nullptr));
  return out;
}

Bounds div(const Bounds& a, const Bounds& b) {
  if (mpfr_sgn(b.lower()) <= 0 && mpfr_sgn(b.upper()) >= 0) {
    throw std::domain_error("verification::div: divisor interval contains 0");
  }
  Bounds inv;
  // 1/b is decreasing on each sign: lower(1/b) = 1/upper(b), upper(1/b) = 1/lower(b).
  mpfr_ui_div(inv.lower(), 1, b.upper(), MPFR_RNDD);
  mpfr_ui_div(inv.upper(), 1, b.lower(), MPFR_RNDU);
  return mul(a, inv);
}

Bounds mul(const Bounds& a, const mpz_class& b) { return mul(a, Bounds::of(b)); }

Bounds sqrt_of(const Bounds& a) {
  Bounds out;
  if (mpfr_sgn(a.lower()) > 0) mpfr_sqrt(out.lower(), a.lower(), MPFR_RNDD);
  if (mpfr_sgn(a.upper()) > 0) mpfr_sqrt(out.upper(), a.upper(), MPFR_RNDU);
  return out;
}

Bounds square(const Bounds& a) {
  Bounds out = mul(a, a);
  if (mpfr_sgn(out.lower()) < 0) mpfr_set_zero(out.lower(), 1);  // a square is >= 0
  return out;
}

Bounds exp_of(const Bounds& a) {
  Bounds out;
  mpfr_exp(out.lower(), a.lower(), MPFR_RNDD);
  mpfr_exp(out.upper(), a.upper(), MPFR_RNDU);
  return out;
}

Bounds neg_expm1_of(const Bounds& a) {
  // 1 - exp(x) = -expm1(x) is decreasing in x: lower uses upper(a), and -RNDU(expm1) <= -expm1.
  Bounds out;
  mpfr_expm1(out.lower(), a.upper(), MPFR_RNDU);
  mpfr_neg(out.lower(), out.lower(), MPFR_RNDD);  // exact
  mpfr_expm1(out.upper(), a.lower(), MPFR_RNDD);
  mpfr_neg(out.upper(), out.upper(), MPFR_RNDU);  // exact
  return out;
}

Bounds log_of(const Bounds& a) {
  if (mpfr_sgn(a.lower()) <= 0) throw std::domain_error("verification::log_of: argument not > 0");
  Bounds out;
  mpfr_log(out.lower(), a.lower(), MPFR_RNDD);
  mpfr_log(out.upper(), a.upper(), MPFR_RNDU);
  return out;
}

Bounds erfc_of(const Bounds& a) {
  Bounds out;  // erfc is decreasing
  mpfr_erfc(out.lower(), a.upper(), MPFR_RNDD);
  mpfr_erfc(out.upper(), a.lower(), MPFR_RNDU);
  return out;
}

Bounds pi_bounds() {
  Bounds out;
  mpfr_const_pi(out.lower(), MPFR_RNDD);
  mpfr_const_pi(out.upper(), MPFR_RNDU);
  return out;
}

Bounds clamp(const Bounds& a, long lo, long hi) {
  Bounds out = a;
  for (mpfr_ptr end : {out.lower(), out.upper()}) {
    if (mpfr_cmp_si(end, lo) < 0) mpfr_set_si(end, lo, MPFR_RNDD);
    if (mpfr_cmp_si(end, hi) > 0) mpfr_set_si(end, hi, MPFR_RNDU);
  }
  return out;
}

Bounds exp_of(const mpq_class& q) { return exp_of(Bounds::of(q)); }

Bounds neg_expm1_of(const mpq_class& q) { return neg_expm1_of(Bounds::of(q)); }

}  // namespace exactdp::verification
