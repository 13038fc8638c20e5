// interval.h — closed real intervals [lower, upper] over MPFR with outward rounding.
//
// An Interval is a pair of MPFR numbers whose every operation rounds OUTWARD: the lower end with
// MPFR_RNDD, the upper end with MPFR_RNDU. There is no default rounding mode anywhere, so if the
// true real inputs lie in the argument intervals, the true real result lies in the result
// interval (containment). Every accounting number exactdp prints is built from these operations.
//
// Precision. Each interval carries its own MPFR precision (bits of both ends). A binary operation
// produces the larger of its operands' precisions; unary operations keep the operand's. Constants
// (pi, log 2, rationals) take the precision they are asked for. accounting/ziv.h raises the
// precision of a whole computation until the result is narrow enough.
//
// Exponent range. MPFR's exponent range is per thread and by default far narrower than what
// MPFR can hold. Every Interval constructor calls use_widest_exponent_range(), so values such as
// 10^-100000 or exp(-5 * 10^11) are ordinary numbers here. Values beyond even that range
// (|log2 x| > 2^62) underflow or overflow; the rounding directions still keep containment
// (an underflowed lower end becomes +0, an underflowed upper end the smallest positive number,
// an overflowed upper end +inf), so the interval is still certified, just wide.
//
// Infinite ends are allowed (they mean "unbounded"); NaN ends are never produced: operations
// that would produce one (log of a negative interval, division by an interval containing 0)
// throw std::domain_error.
//
// Thread-safety: an Interval is a value type; distinct objects may be used from distinct threads.
//
// Example:
//   using namespace exactdp;
//   Interval x(mpq_class(1, 3), 128);          // [1/3 rounded down, 1/3 rounded up]
//   Interval y = exp(x) * x - Interval(1, 128);
//   assert(y.contains(...));
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <string>

namespace exactdp {

inline constexpr mpfr_prec_t kDefaultPrecision = 128;  // bits
inline constexpr mpfr_prec_t kMaxPrecision = 65536;    // 2^16 bits: the cap of the Ziv driver

// Sets this thread's MPFR exponent range to the widest MPFR supports. Idempotent and cheap
// (a thread_local flag); called by every Interval constructor.
void use_widest_exponent_range() noexcept;

// An owning MPFR number (RAII), for scalar results such as widths and the scratch numbers of
// raw MPFR loops (it starts at +0, with the widest exponent range). Value type.
class Real {
 public:
  explicit Real(mpfr_prec_t precision = kDefaultPrecision);
  Real(const Real& other);
  Real(Real&& other) noexcept;
  Real& operator=(const Real& other);
  Real& operator=(Real&& other) noexcept;
  ~Real();

  [[nodiscard]] mpfr_ptr get() { return value_; }
  [[nodiscard]] mpfr_srcptr get() const { return value_; }
  // Usable directly as an mpfr_t argument of MPFR's functions (scratch numbers in loops).
  operator mpfr_ptr() { return value_; }              // NOLINT(google-explicit-constructor)
  operator mpfr_srcptr() const { return value_; }     // NOLINT(google-explicit-constructor)

 private:
  mpfr_t value_;
};

class Interval {
 public:
  // The point interval [0, 0].
  explicit Interval(mpfr_prec_t precision = kDefaultPrecision);
  // The exact rational, rounded outward (a point interval when q is representable).
  Interval(const mpq_class& value, mpfr_prec_t precision);
  Interval(const mpz_class& value, mpfr_prec_t precision);
  Interval(long value, mpfr_prec_t precision);

  // [lower rounded down, upper rounded up] at the given precision. Throws std::domain_error
  // when an end is NaN or lower > upper.
  [[nodiscard]] static Interval from_ends(mpfr_srcptr lower, mpfr_srcptr upper,
                                          mpfr_prec_t precision);
  // [x rounded down, x rounded up].
  [[nodiscard]] static Interval point(mpfr_srcptr x, mpfr_prec_t precision);
  // [-inf, +inf].
  [[nodiscard]] static Interval entire(mpfr_prec_t precision);

  Interval(const Interval& other);
  Interval(Interval&& other) noexcept;
  Interval& operator=(const Interval& other);
  Interval& operator=(Interval&& other) noexcept;
  ~Interval();

  // The ends. The mutable overloads exist for code that computes an end with a directed MPFR
  // call itself (e.g. mpfr_erfc(r.lower(), x.upper(), MPFR_RNDD)); keep lower <= upper.
  [[nodiscard]] mpfr_ptr lower() { return lower_; }
  [[nodiscard]] mpfr_srcptr lower() const { return lower_; }
  [[nodiscard]] mpfr_ptr upper() { return upper_; }
  [[nodiscard]] mpfr_srcptr upper() const { return upper_; }

  [[nodiscard]] mpfr_prec_t precision() const { return mpfr_get_prec(lower_); }
  // Changes the precision of both ends, rounding outward (never narrows).
  void set_precision(mpfr_prec_t precision);

  // No NaN end and lower <= upper.
  [[nodiscard]] bool is_valid() const;
  [[nodiscard]] bool is_point() const;          // lower == upper
  [[nodiscard]] bool is_finite() const;         // both ends finite
  [[nodiscard]] bool contains(const mpq_class& value) const;
  [[nodiscard]] bool contains(const mpz_class& value) const;
  [[nodiscard]] bool contains(long value) const;
  [[nodiscard]] bool contains(const Interval& inner) const;  // inner is a subset
  [[nodiscard]] bool contains_zero() const;
  [[nodiscard]] bool is_positive() const;       // lower > 0
  [[nodiscard]] bool is_nonnegative() const;    // lower >= 0
  [[nodiscard]] bool is_negative() const;       // upper < 0

  // "[lower, upper]" in MPFR's %Rg notation with 17 significant digits, NOT rounded outward:
  // for messages and debugging only. Use core/decimal.h for output users rely on.
  [[nodiscard]] std::string debug_string() const;

 private:
  mpfr_t lower_;
  mpfr_t upper_;
};

// ---- arithmetic (outward rounded; result precision = max of the operands') ----------------
[[nodiscard]] Interval operator+(const Interval& a, const Interval& b);
[[nodiscard]] Interval operator-(const Interval& a, const Interval& b);  // [a.l - b.u, a.u - b.l]
[[nodiscard]] Interval operator*(const Interval& a, const Interval& b);
// Throws std::domain_error when b contains 0.
[[nodiscard]] Interval operator/(const Interval& a, const Interval& b);
[[nodiscard]] Interval operator-(const Interval& a);

// With an exact rational (MPFR's _q functions round correctly, so one rounding per end).
[[nodiscard]] Interval operator+(const Interval& a, const mpq_class& q);
[[nodiscard]] Interval operator-(const Interval& a, const mpq_class& q);
[[nodiscard]] Interval operator*(const Interval& a, const mpq_class& q);
[[nodiscard]] Interval operator/(const Interval& a, const mpq_class& q);  // throws if q == 0
[[nodiscard]] Interval operator-(const mpq_class& q, const Interval& a);
// a * 2^k (exact unless the exponent range is left).
[[nodiscard]] Interval mul_2si(const Interval& a, long k);

// ---- elementary functions (monotone pieces evaluated at the ends) ---------------------------
[[nodiscard]] Interval exp(const Interval& x);
[[nodiscard]] Interval expm1(const Interval& x);  // e^x - 1, accurate near 0
// log: throws std::domain_error if x.upper <= 0; a lower end <= 0 gives lower = -inf.
[[nodiscard]] Interval log(const Interval& x);
// log1p(x) = log(1 + x): throws if x.upper <= -1; x.lower <= -1 gives lower = -inf.
[[nodiscard]] Interval log1p(const Interval& x);
// sqrt: for a quantity known to be >= 0. Throws if x.upper < 0; a negative lower end (rounding
// noise around a true value >= 0) is clamped to 0.
[[nodiscard]] Interval sqrt(const Interval& x);
[[nodiscard]] Interval square(const Interval& x);  // x^2, tight when x contains 0
[[nodiscard]] Interval abs(const Interval& x);
[[nodiscard]] Interval min(const Interval& a, const Interval& b);  // {min(s,t): s in a, t in b}
[[nodiscard]] Interval max(const Interval& a, const Interval& b);
// Smallest interval containing both.
[[nodiscard]] Interval hull(const Interval& a, const Interval& b);
// a ∩ b. Both must contain the same true value, so an empty intersection means a bug:
// throws std::logic_error.
[[nodiscard]] Interval intersect(const Interval& a, const Interval& b);
// [max(x.lower, lo), min(x.upper, hi)] for a quantity KNOWN to lie in [lo, hi] (e.g. a
// probability in [0, 1]); throws std::logic_error if that leaves nothing.
[[nodiscard]] Interval clamp(const Interval& x, const mpq_class& lo, const mpq_class& hi);

// ---- constants --------------------------------------------------------------------------------
[[nodiscard]] Interval pi_interval(mpfr_prec_t precision);
[[nodiscard]] Interval log2_interval(mpfr_prec_t precision);  // ln 2

// ---- comparisons that are PROVEN (false means "not proven", not "the opposite holds") -------
[[nodiscard]] bool certainly_less(const Interval& a, const Interval& b);        // a.u < b.l
[[nodiscard]] bool certainly_less_equal(const Interval& a, const Interval& b);  // a.u <= b.l
[[nodiscard]] bool upper_at_most(const Interval& a, const mpq_class& q);        // a.u <= q
[[nodiscard]] bool lower_above(const Interval& a, const mpq_class& q);          // a.l > q

// ---- widths -------------------------------------------------------------------------------------
// upper - lower, rounded up (+inf if an end is infinite).
[[nodiscard]] Real width_upper(const Interval& x);
// (upper - lower) / min(|lower|, |upper|), rounded up: 0 for a point interval (also [0, 0]),
// +inf when the interval contains 0 but is not [0, 0] or has an infinite end.
[[nodiscard]] Real relative_width_upper(const Interval& x);
// relative_width_upper(x) <= tolerance (tolerance > 0).
[[nodiscard]] bool relative_width_at_most(const Interval& x, const mpq_class& tolerance);
// An integer k with relative width <= 2^k (the smallest such k MPFR's exponent gives), or
// nullopt-like sentinel kInfiniteWidthLog2 when the relative width is infinite, and
// kZeroWidthLog2 for a point interval. For reports ("relative width 2^-103").
inline constexpr long kInfiniteWidthLog2 = 1L << 40;
inline constexpr long kZeroWidthLog2 = -(1L << 40);
[[nodiscard]] long relative_width_log2(const Interval& x);

// ---- exact conversions --------------------------------------------------------------------
// The exact rational value of a finite MPFR number (throws std::domain_error for inf/NaN).
[[nodiscard]] mpq_class to_mpq(mpfr_srcptr x);

}  // namespace exactdp
