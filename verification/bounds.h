// bounds.h — Bounds: a certified enclosure [lower, upper] of a real number, two MPFR numbers at
// kPrecision bits, and the few outward-rounded operations the verification layer needs.
//
// Contract: every function returning Bounds returns an interval that contains the true real value
// of the expression, provided its arguments' intervals contain theirs. Lower ends are computed
// with MPFR_RNDD, upper ends with MPFR_RNDU (no default rounding mode anywhere); a monotone
// special function is evaluated at the end of the argument interval that keeps containment
// (exp increasing: exp(lower) rounded down is a lower bound; erfc decreasing: erfc(upper) rounded
// down is a lower bound). Underflow rounds a lower end to 0 and an upper end to the smallest
// positive number, which keeps containment.
//
// This is deliberately small (the accounting layer has the general Interval type); it exists so
// the verification layer does not wait for it. Not thread-safe per object; no global state.
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <string>

namespace exactdp::verification {

inline constexpr mpfr_prec_t kPrecision = 256;

class Bounds {
 public:
  Bounds();                                   // [0, 0]
  Bounds(const Bounds& other);
  Bounds& operator=(const Bounds& other);
  ~Bounds();

  [[nodiscard]] static Bounds of(const mpq_class& value);   // tight enclosure of a rational
  [[nodiscard]] static Bounds of(const mpz_class& value);
  [[nodiscard]] static Bounds of(long value);
  [[nodiscard]] static Bounds between(mpfr_srcptr lower, mpfr_srcptr upper);

  [[nodiscard]] mpfr_ptr lower() noexcept { return lower_; }
  [[nodiscard]] mpfr_ptr upper() noexcept { return upper_; }
  [[nodiscard]] mpfr_srcptr lower() const noexcept { return lower_; }
  [[nodiscard]] mpfr_srcptr upper() const noexcept { return upper_; }

  // Decimal text with `digits` significant digits, rounded outward: lower_text <= lower,
  // upper_text >= upper ("1.2345e-07" style).
  [[nodiscard]] std::string lower_text(int digits = 6) const;
  [[nodiscard]] std::string upper_text(int digits = 6) const;

 private:
  mpfr_t lower_;
  mpfr_t upper_;
};

// Decimal text of one MPFR number rounded in direction rnd (MPFR_RNDD or MPFR_RNDU).
[[nodiscard]] std::string mpfr_text(mpfr_srcptr value, mpfr_rnd_t rnd, int digits = 6);

// Arithmetic (outward).
[[nodiscard]] Bounds add(const Bounds& a, const Bounds& b);
[[nodiscard]] Bounds sub(const Bounds& a, const Bounds& b);
[[nodiscard]] Bounds mul(const Bounds& a, const Bounds& b);
[[nodiscard]] Bounds div(const Bounds& a, const Bounds& b);   // requires 0 not in b
[[nodiscard]] Bounds mul(const Bounds& a, const mpz_class& b);
[[nodiscard]] Bounds sqrt_of(const Bounds& a);                // lower end clamped at 0
[[nodiscard]] Bounds square(const Bounds& a);
[[nodiscard]] Bounds exp_of(const Bounds& a);
[[nodiscard]] Bounds neg_expm1_of(const Bounds& a);           // 1 - exp(a), accurate near a = 0
[[nodiscard]] Bounds log_of(const Bounds& a);                 // requires a > 0
[[nodiscard]] Bounds erfc_of(const Bounds& a);
[[nodiscard]] Bounds pi_bounds();
// Clamps both ends into [lo, hi] (used for probabilities: [0, 1]).
[[nodiscard]] Bounds clamp(const Bounds& a, long lo, long hi);
// exp(q) for an exact rational q: [exp(RNDD(q)) RNDD, exp(RNDU(q)) RNDU].
[[nodiscard]] Bounds exp_of(const mpq_class& q);
// 1 - exp(q) for an exact rational q <= 0, via expm1 (no cancellation).
[[nodiscard]] Bounds neg_expm1_of(const mpq_class& q);

}  // namespace exactdp::verification
