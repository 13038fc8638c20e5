// Helpers for the accounting tests that compare a certified interval with an independent
// reference value (mpmath, quadrature): parse a decimal exactly, and check containment with a
// stated relative margin (the reference's own error).
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting::test_support {

inline mpq_class q_of(const char* s) { return parse_rational("t", s); }

// The finite interval x, widened by `relative` times |ref|, contains ref.
inline bool contains_within(const Interval& x, const mpq_class& ref, const mpq_class& relative) {
  const mpq_class margin = abs(ref) * relative;
  return !upper_at_most(x, ref - margin) && !lower_above(x, ref + margin) && x.is_finite();
}

}  // namespace exactdp::accounting::test_support
