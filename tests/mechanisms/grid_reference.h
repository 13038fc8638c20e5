// grid_reference.h — an independent, slow reference for the float <-> grid conversions of
// mechanisms/grid_noise/float_grid.h, written with GMP rationals (mpq) only: the float's value
// from mpq_set_d (exact for every finite double; a float is first widened to double, exactly),
// round-half-even on rationals, and "nearest float" checked by comparing exact distances to the
// neighbouring floats. Used by tests/mechanisms/grid_noise_test.cc and fuzz/float_array_fuzzer.cc.
#pragma once

#include <gmpxx.h>

#include <cmath>
#include <limits>

namespace exactdp::test_support {

// The exact value of a finite float.
template <class Float>
mpq_class exact_value(Float x) {
  mpq_class q;
  mpq_set_d(q.get_mpq_t(), static_cast<double>(x));
  return q;
}

// 2^e as a rational.
inline mpq_class power_of_two(long e) {
  mpq_class out = 1;
  if (e >= 0) {
    mpq_mul_2exp(out.get_mpq_t(), out.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  } else {
    mpq_div_2exp(out.get_mpq_t(), out.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  }
  return out;
}

// round_half_even(q).
inline mpz_class round_half_even(const mpq_class& q) {
  mpz_class floor_q;
  mpz_fdiv_q(floor_q.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  const mpq_class rest = q - mpq_class(floor_q);
  const mpq_class half(1, 2);
  if (rest > half || (rest == half && mpz_odd_p(floor_q.get_mpz_t()) != 0)) floor_q += 1;
  return floor_q;
}

// round_half_even(x / 2^-k).
template <class Float>
mpz_class reference_grid_index(Float x, long k) {
  return round_half_even(exact_value(x) * power_of_two(k));
}

// True when y is the float nearest `target` with ties to even, or, when |target| exceeds the
// largest finite float, y is +-the largest finite float with target's sign (the saturation rule).
template <class Float>
bool is_nearest_float(Float y, const mpq_class& target) {
  if (!std::isfinite(y)) return false;
  const Float max = std::numeric_limits<Float>::max();
  if (abs(target) >= exact_value(max)) return y == (sgn(target) < 0 ? -max : max);
  if (sgn(target) == 0) return y == 0 && !std::signbit(y);
  const mpq_class d = abs(exact_value(y) - target);
  const Float up = std::nextafter(y, std::numeric_limits<Float>::infinity());
  const Float down = std::nextafter(y, -std::numeric_limits<Float>::infinity());
  // A neighbour that is +-inf is never nearer (the saturation case is handled above).
  const bool up_finite = std::isfinite(up);
  const bool down_finite = std::isfinite(down);
  const mpq_class d_up = up_finite ? mpq_class(abs(exact_value(up) - target)) : mpq_class(0);
  const mpq_class d_down = down_finite ? mpq_class(abs(exact_value(down) - target)) : mpq_class(0);
  if ((up_finite && d > d_up) || (down_finite && d > d_down)) return false;
  if ((up_finite && d == d_up) || (down_finite && d == d_down)) {  // a tie: |y| / ulp(y) must be even
    const Float magnitude = std::fabs(y);
    const Float next = std::nextafter(magnitude, std::numeric_limits<Float>::infinity());
    const mpq_class ulp = std::isfinite(next)
                              ? mpq_class(exact_value(next) - exact_value(magnitude))
                              : mpq_class(exact_value(magnitude) - exact_value(std::nextafter(magnitude, Float(0))));
    const mpq_class units = exact_value(magnitude) / ulp;
    return units.get_den() == 1 && mpz_even_p(units.get_num_mpz_t()) != 0;
  }
  return true;
}

}  // namespace exactdp::test_support
