// rational_rounding.h — floor and ceiling of an exact rational (not installed; the library's own).
//
// floor_of(p/q) and ceil_of(p/q) are exact: GMP's integer division of the canonical numerator by
// the (positive) denominator, rounded towards minus and plus infinity (mpz_fdiv_q, mpz_cdiv_q).
#pragma once

#include <gmpxx.h>

namespace exactdp {

// floor(p/q), exactly.
[[nodiscard]] inline mpz_class floor_of(const mpq_class& x) {
  mpz_class out;
  mpz_fdiv_q(out.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  return out;
}

// ceil(p/q), exactly.
[[nodiscard]] inline mpz_class ceil_of(const mpq_class& x) {
  mpz_class out;
  mpz_cdiv_q(out.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  return out;
}

}  // namespace exactdp
