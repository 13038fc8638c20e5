#include <exactdp/accounting/internal/certified_search.h>

#include <utility>

#include <exactdp/core/rational.h>

namespace exactdp::accounting::internal {

Side TargetComparison::side_of(const Interval& g) const {
  if (complement_) {
    if (mpfr_cmp_q(g.lower(), level_.get_mpq_t()) >= 0) return Side::kMeets;
    if (mpfr_cmp_q(g.upper(), level_.get_mpq_t()) < 0) return Side::kMisses;
  } else {
    if (upper_at_most(g, level_)) return Side::kMeets;
    if (lower_above(g, level_)) return Side::kMisses;
  }
  return Side::kUndecided;
}

Interval TargetComparison::delta_from(const Interval& g) const {
  if (!complement_) return g;
  const long below_one = static_cast<long>(mpz_sizeinbase(level_.get_den_mpz_t(), 2)) -
                         static_cast<long>(mpz_sizeinbase(level_.get_num_mpz_t(), 2)) + 1;
  const mpfr_prec_t w = g.precision() + static_cast<mpfr_prec_t>(below_one > 0 ? below_one : 0) + 8;
  return clamp(Interval(1L, w) - g, mpq_class(0), mpq_class(1));
}

Side TargetComparison::decide(const std::function<Interval(mpfr_prec_t)>& g_at, mpfr_prec_t p,
                              mpfr_prec_t cap, Interval& out) const {
  for (;;) {
    out = g_at(p);
    const Side side = side_of(out);
    if (side != Side::kUndecided) return side;
    if (p >= cap) return Side::kUndecided;
    p = (2 * p > cap) ? cap : 2 * p;
  }
}

RationalBracket widen_bracket(const RationalDecider& decide, mpq_class lo, mpq_class hi,
                              int max_rounds, const std::function<LimitError()>& no_bracket) {
  RationalBracket b{std::move(lo), std::move(hi)};
  SearchBudget budget(no_bracket);  // bounds the probes' bits whatever max_rounds is
  bool lo_missed = false;           // b.lo is already proven to miss
  mpq_class factor = 2;
  for (int i = 0;; ++i) {
    budget.charge(b.hi);
    const Side side = decide(b.hi, b.g_hi);
    if (side == Side::kMeets) break;
    if (i >= max_rounds) throw no_bracket();
    if (side == Side::kMisses) {  // a better lower end
      b.lo = b.hi;
      b.g_lo = b.g_hi;
      lo_missed = true;
    }
    budget.check_bits(probe_bits(b.hi) + probe_bits(factor));
    b.hi *= factor;
    factor *= factor;
  }
  factor = 2;
  for (int i = 0; !lo_missed; ++i) {
    budget.charge(b.lo);
    const Side side = decide(b.lo, b.g_lo);
    if (side == Side::kMisses) break;
    if (i >= max_rounds) throw no_bracket();
    if (side == Side::kMeets) {  // a better upper end
      b.hi = b.lo;
      b.g_hi = b.g_lo;
    }
    budget.check_bits(probe_bits(b.lo) + probe_bits(factor));
    b.lo /= factor;
    factor *= factor;
  }
  return b;
}

std::optional<mpq_class> exponent_then_arithmetic_midpoint(const mpq_class& lo, const mpq_class& hi) {
  const mpq_class ratio = hi / lo;
  if (ratio > 4) {
    // log2 of the ratio, to within one: the geometric midpoint up to a factor 2.
    const long bits = static_cast<long>(mpz_sizeinbase(ratio.get_num_mpz_t(), 2)) -
                      static_cast<long>(mpz_sizeinbase(ratio.get_den_mpz_t(), 2));
    return mpq_class(lo * power_of_two(bits / 2 > 1 ? bits / 2 : 1));
  }
  return mpq_class((lo + hi) / 2);
}

void bisect_bracket(const RationalDecider& decide, RationalBracket& bracket, const mpq_class& width,
                    int max_steps, const Midpoint& midpoint) {
  for (int i = 0; i < max_steps && bracket.relative_width() > width; ++i) {
    const std::optional<mpq_class> mid = midpoint(bracket.lo, bracket.hi);
    if (!mid) break;
    Interval g(kDefaultPrecision);
    const Side side = decide(*mid, g);
    if (side == Side::kMeets) {
      bracket.hi = *mid;
      bracket.g_hi = std::move(g);
    } else if (side == Side::kMisses) {
      bracket.lo = *mid;
      bracket.g_lo = std::move(g);
    } else {
      break;  // delta(mid) equals the target within the cap's precision: still certified
    }
  }
}

LimitError no_bracket_error(const std::string& what, const mpq_class& guess, int rounds) {
  return LimitError("epsilon", "epsilon, delta: no certified " + what + " bracket found around " + what +
                                   " = " + abbreviate(to_string(guess)) + " (searched a factor 2^(2^" +
                                   std::to_string(rounds) + ") either way)");
}

// ---- searches over an MPFR point ---------------------------------------------------------

// Certified bisection: given x* in [lo, hi], halves the bracket while the side of the midpoint
// is proven, at most precision + 200 times, until hi - lo <= 2^-b * hi with b = precision - 24,
// or b = result_bits when that is smaller and positive (the caller's tolerance: a bracket
// narrower than asked for costs a step per bit, each at the full working precision).
// Points are held at precision + 16 bits; the midpoint's rounding direction is irrelevant
// (any point strictly inside the bracket will do), we use RNDD.
Interval bisect_root(const RootSideFn& side, Real lo, Real hi, mpfr_prec_t precision, long result_bits) {
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
    const RootSide s = side(mid);
    if (s == RootSide::kAbove) {
      hi = mid;
    } else if (s == RootSide::kBelow) {
      lo = mid;
    } else {
      break;  // not provable at this precision: the Ziv driver raises it
    }
  }
  return Interval::from_ends(lo.get(), hi.get(), pp);
}

namespace {

// Brackets x* starting from a guess x0 > 0 by searching on the binary exponent, so that a root
// 2^-300,000 below the guess (eps = 0 with delta = 10^-3000) costs ~40 evaluations, where
// halving from [0, 1] would take 300,000. Steps of 1, 2, 4, ... octaves outward from x0 until the side flips,
// then a binary search on the octave count between the last two probes, ending with
// hi <= 2 lo. Searches at most kMaxOctavesDown octaves below x0 (far beyond the 10^-100,000
// parameters allow) and kMaxOctavesUp above; beyond that a LimitError (exit 2). A probe whose
// side cannot be proven at this precision ends the search with the bracket found so far (the
// Ziv driver raises the precision).
constexpr long kMaxOctavesDown = 1L << 22;
constexpr long kMaxOctavesUp = 256;

// x0 * 2^octaves.
Real scaled(const Real& x0, long octaves, mpfr_prec_t precision) {
  Real x(precision);
  mpfr_mul_2si(x.get(), x0.get(), octaves, MPFR_RNDN);  // exact: a power-of-two scaling
  return x;
}

}  // namespace

RootBracket bracket_root(const RootSideFn& side, const Real& x0, const char* what) {
  const mpfr_prec_t precision = mpfr_get_prec(x0.get());
  Real zero(precision);
  mpfr_set_zero(zero.get(), 1);
  const RootSide s0 = side(x0);
  if (s0 == RootSide::kUnknown) {
    Real hi = scaled(x0, 1, precision);
    if (side(hi) == RootSide::kAbove) return {zero, hi};
    throw LimitError("delta", std::string("delta: no certified ") + what +
                                  " bracket at this precision (the comparison near the first "
                                  "guess cannot be decided)");
  }
  // dir = -1: x0 is above the root, search down; +1: below it, search up.
  const long dir = s0 == RootSide::kAbove ? -1 : 1;
  const long limit = dir < 0 ? kMaxOctavesDown : kMaxOctavesUp;
  long near = 0;  // octaves from x0 on x0's side of the root (proven)
  long far = 0;   // octaves from x0 on the other side (proven once found)
  bool found = false;
  for (long step = 1; step <= limit; step *= 2) {
    const RootSide s = side(scaled(x0, dir * step, precision));
    if (s == RootSide::kUnknown) {
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
    const RootSide s = side(scaled(x0, dir * mid, precision));
    if (s == RootSide::kUnknown) break;
    (s == s0 ? near : far) = mid;
  }
  Real a = scaled(x0, dir * near, precision);
  Real b = scaled(x0, dir * far, precision);
  if (dir < 0) return {b, a};
  return {a, b};
}

}  // namespace exactdp::accounting::internal
