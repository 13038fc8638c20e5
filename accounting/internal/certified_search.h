// internal/certified_search.h — finding the certified side of a monotone condition: the one
// search that every calibration and conversion (analytic_gaussian.cc,
// discrete_gaussian_calibration.cc, gdp_conversions.cc) builds on.
//
// Two layers:
//  * TargetComparison: is a profile value delta(x) <= target PROVEN, is delta(x) > target
//    PROVEN, or neither at this precision? For targets above 1/2 the comparison is made on
//    g = 1 - delta against the exact 1 - target: a relatively accurate enclosure of 1 - delta
//    decides at ordinary precision, where delta itself would need -log2(1 - target) extra bits
//    just to differ from 1. decide() raises the precision of one comparison (a Ziv loop on a
//    decision) up to a cap.
//  * Searches over the parameter x, holding an invariant bracket [lo, hi] (lo misses, hi meets,
//    both certified): RationalBracket / widen_bracket / bisect_bracket over exact rationals,
//    and bracket_root / bisect_root over MPFR points for the conversions, which search on the
//    binary exponent. An undecided comparison never breaks the invariant: it ends the search
//    with the (still certified, wider) bracket found so far.
//
// Not part of the installed API. Thread-safety: pure functions of their arguments.
#pragma once

#include <gmpxx.h>

#include <functional>
#include <optional>
#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/core/errors.h>
#include <exactdp/accounting/search_budget.h>

namespace exactdp::accounting::internal {

// What an interval evaluation proves about "delta(x) <= target".
enum class Side { kMeets, kMisses, kUndecided };

class TargetComparison {
 public:
  explicit TargetComparison(const mpq_class& target)
      : complement_(target > mpq_class(1, 2)), level_(complement_ ? mpq_class(1 - target) : target) {}

  // Whether g is 1 - delta (targets above 1/2) rather than delta.
  [[nodiscard]] bool complement() const { return complement_; }
  // What g is compared with: target, or 1 - target.
  [[nodiscard]] const mpq_class& level() const { return level_; }

  // kMeets when g proves delta <= target (g <= target, or 1 - delta >= 1 - target); kMisses
  // when it proves delta > target; else kUndecided.
  [[nodiscard]] Side side_of(const Interval& g) const;

  // delta as an interval from g: g itself, or 1 - g formed with enough bits to be exact (g's
  // precision plus -log2(1 - target)), so a certified g >= 1 - target shows as
  // upper(delta) <= target.
  [[nodiscard]] Interval delta_from(const Interval& g) const;

  // g evaluated by g_at(p) at p, 2p, ... (capped at `cap`) until side_of decides or the cap is
  // reached; `out` receives the last g.
  Side decide(const std::function<Interval(mpfr_prec_t)>& g_at, mpfr_prec_t p, mpfr_prec_t cap,
              Interval& out) const;

 private:
  bool complement_;
  mpq_class level_;
};

// ---- searches over an exact rational parameter -------------------------------------------

// A certified bracket of the smallest x meeting the target: lo misses, hi meets (for a
// condition that holds above a threshold), with the g intervals that proved it.
struct RationalBracket {
  mpq_class lo, hi;
  Interval g_lo{kDefaultPrecision}, g_hi{kDefaultPrecision};

  // (hi - lo) / lo.
  [[nodiscard]] mpq_class relative_width() const { return (hi - lo) / lo; }
};

// The side of x, with the g interval that decided it (any precision loop inside).
using RationalDecider = std::function<Side(const mpq_class& x, Interval& g)>;

// Widens [lo, hi] (lo < hi, both > 0) until hi meets and lo misses: hi is multiplied and lo
// divided by 2, 4, 16, 256, ... (the factor is squared after each failure, so any scale is
// reached in a few steps), at most max_rounds times each way; a probe on the wrong side becomes
// the other end. An undecided probe counts as a failure. Throws no_bracket() when the rounds run
// out, or when a probe would be over the SearchBudget (search_budget.h: 2^22 bits, 4,096
// evaluations), so a large max_rounds cannot run the factor's 2^rounds bits out of memory.
[[nodiscard]] RationalBracket widen_bracket(const RationalDecider& decide, mpq_class lo,
                                            mpq_class hi, int max_rounds,
                                            const std::function<LimitError()>& no_bracket);

// A point strictly inside (lo, hi), or nullopt when none is wanted (the bracket is as narrow as
// the search resolves).
using Midpoint = std::function<std::optional<mpq_class>(const mpq_class& lo, const mpq_class& hi)>;
// The geometric midpoint up to a factor 2 while hi > 4 lo (bisection on the exponent), then
// the arithmetic one.
[[nodiscard]] std::optional<mpq_class> exponent_then_arithmetic_midpoint(const mpq_class& lo,
                                                                         const mpq_class& hi);

// Certified bisection: while the relative width exceeds `width` (and at most max_steps times),
// replaces an end by the midpoint on its side. Stops at an undecided midpoint (the target
// equals delta within the precision cap): the bracket is still certified.
void bisect_bracket(const RationalDecider& decide, RationalBracket& bracket, const mpq_class& width,
                    int max_steps, const Midpoint& midpoint = exponent_then_arithmetic_midpoint);

// The LimitError of a bracket search that ran out of rounds: "epsilon, delta: no certified
// <what> bracket found around <what> = <guess> (searched a factor 2^(2^<rounds>) either way)".
[[nodiscard]] LimitError no_bracket_error(const std::string& what, const mpq_class& guess,
                                          int rounds);

// ---- searches over an MPFR point (the conversions) --------------------------------------

// Where x lies relative to the root x* of a monotone problem, as PROVEN by an interval
// evaluation: kAbove means x >= x*, kBelow means x <= x*, kUnknown means neither is proven.
enum class RootSide { kBelow, kAbove, kUnknown };
using RootSideFn = std::function<RootSide(const Real& x)>;

// [lo, hi] around x*: lo = 0 or side(lo) == kBelow proven; side(hi) == kAbove proven.
struct RootBracket {
  Real lo;
  Real hi;
};

// Brackets x* from a guess x0 > 0 by searching on the binary exponent: steps of 1, 2, 4, ...
// octaves outward until the side flips, then a binary search on the octave count, ending with
// hi <= 2 lo. At most 2^22 octaves down and 256 up; beyond, a LimitError naming `what`
// (exit 2). An unprovable probe ends the search with the bracket found so far.
[[nodiscard]] RootBracket bracket_root(const RootSideFn& side, const Real& x0, const char* what);

// Certified bisection of [lo, hi] while the side of the midpoint is proven, at most
// precision + 200 times, until hi - lo <= 2^-b hi with b = precision - 24, or b = result_bits
// when smaller and positive. Points are held at precision + 16 bits.
[[nodiscard]] Interval bisect_root(const RootSideFn& side, Real lo, Real hi, mpfr_prec_t precision,
                                   long result_bits);

}  // namespace exactdp::accounting::internal
