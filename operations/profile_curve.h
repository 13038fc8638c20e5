// profile_curve.h — the epsilons of `exactdp profile --curve EPS_MIN EPS_MAX POINTS`
// (operations/profile.h checks the range and the number of points).
//
// Point i is lo + (hi - lo) i / (points - 1), computed with MPFR at 128 bits rounding up, then
// rounded up to 12 significant decimal digits, at most hi. The point is an exact rational m 10^e
// with m < 10^12, so it prints exactly in a few characters whatever its size
// (exactdp::exact_decimal) and costs no rational arithmetic on 100,000-digit numbers.
//
// Example:
//   ProfileCurveGrid grid(0, 2, 5);
//   grid.at(1);   // {1/2, "0.5"}
#pragma once

#include <gmpxx.h>

#include <map>
#include <string>

#include <exactdp/core/interval.h>

namespace exactdp::operations {

class ProfileCurveGrid {
 public:
  ProfileCurveGrid(const mpq_class& lo, const mpq_class& hi, long points);

  struct Point {
    mpq_class eps;
    std::string text;  // eps exactly, as exactdp::exact_decimal prints it
  };

  [[nodiscard]] Point at(long i);

 private:
  const mpz_class& pow10(long k);  // 10^k, cached: the exponent repeats along the grid

  mpq_class hi_;
  std::string hi_text_;
  exactdp::Real lo_, step_;
  std::map<long, mpz_class> powers_;
};

}  // namespace exactdp::operations
