// rationals.h — the small helpers the accounting and cli tests share (tests only).
//
//   q("1e-5")        the exact rational of a decimal or p/q text (exactdp::parse_rational).
//   overlaps(a, b)   the two intervals share a point (both contain the same true value).
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <exactdp/core/interval.h>
#include <exactdp/core/rational.h>

namespace exactdp::test_support {

inline mpq_class q(const char* text) { return parse_rational("test", text); }

inline bool overlaps(const exactdp::Interval& a, const exactdp::Interval& b) {
  return mpfr_cmp(a.lower(), b.upper()) <= 0 && mpfr_cmp(b.lower(), a.upper()) <= 0;
}

}  // namespace exactdp::test_support
