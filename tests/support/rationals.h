// rationals.h — the small helpers the accounting and cli tests share (tests only).
//
//   q("1e-5")        the exact rational of a decimal or p/q text (exactdp::parse_rational).
//   overlaps(a, b)   the two intervals share a point (both contain the same true value).
//   encloses_reference(e, "0.00035...")   the decimal reference value (30 significant digits)
//                    lies in the enclosure e widened by 1e-27 relative, and e is finite.
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

inline bool encloses_reference(const exactdp::Interval& enclosure, const char* reference) {
  const mpq_class r(mpq_class(mpz_class(1), mpz_class("1000000000000000000000000000")));
  exactdp::Real v(256);
  mpfr_set_str(v, reference, 10, MPFR_RNDN);
  const mpq_class x = exactdp::to_mpq(v);
  const mpq_class slack = abs(x) * r;
  return !lower_above(enclosure, x + slack) && !upper_at_most(enclosure, x - slack) && enclosure.is_finite();
}

}  // namespace exactdp::test_support
