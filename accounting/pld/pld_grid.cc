#include <exactdp/accounting/pld/pld_grid.h>

#include <exactdp/accounting/normal.h>
#include <exactdp/core/errors.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::accounting::pld {

std::uint64_t to_fixed(mpfr_srcptr value, unsigned scale_bits, bool up, mpfr_ptr scratch) {
  if (mpfr_sgn(value) <= 0) return 0;
  mpfr_t own;
  const bool allocate = scratch == nullptr || mpfr_get_prec(scratch) < mpfr_get_prec(value);
  if (allocate) {
    mpfr_init2(own, mpfr_get_prec(value));
    scratch = own;
  }
  mpfr_mul_2ui(scratch, value, scale_bits, MPFR_RNDN);  // exact
  std::uint64_t out = std::uint64_t{1} << 63;
  if (mpfr_cmp_ui_2exp(scratch, 1, 63) < 0) out = mpfr_get_ui(scratch, up ? MPFR_RNDU : MPFR_RNDD);
  if (allocate) mpfr_clear(own);
  return out;
}

mpz_class to_fixed_wide(mpfr_srcptr value, unsigned scale_bits, bool up) {
  mpz_class out;
  if (mpfr_sgn(value) <= 0) return out;
  mpfr_t scaled;
  mpfr_init2(scaled, mpfr_get_prec(value));
  mpfr_mul_2ui(scaled, value, scale_bits, MPFR_RNDN);  // exact
  mpfr_get_z(out.get_mpz_t(), scaled, up ? MPFR_RNDU : MPFR_RNDD);
  mpfr_clear(scaled);
  return out;
}

void add_mass(std::vector<std::uint64_t>& m, std::size_t i, std::uint64_t v) {
  const uint128 s = static_cast<uint128>(m[i]) + v;
  m[i] = s > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(s);
}

long grid_index(mpfr_srcptr l, unsigned long n, mpfr_rnd_t direction) {
  mpfr_t y;
  mpfr_init2(y, mpfr_get_prec(l) + 64);
  mpfr_mul_ui(y, l, n, direction);
  const bool fits = mpfr_fits_slong_p(y, direction) != 0;
  const long v = fits ? mpfr_get_si(y, direction) : 0;
  mpfr_clear(y);
  if (!fits) throw LimitError("pld-step", "pld-step: a loss outside the range the grid can index");
  return v;
}

mpq_class gaussian_truncation(unsigned tail_bits, Interval& tail) {
  const mpq_class target = mpq_class(1) / (mpz_class(1) << tail_bits);
  mpq_class x0(1);
  for (;; x0 += mpq_class(1, 4)) {
    tail = normal_cdf(-x0, kDefaultPrecision);
    if (upper_at_most(tail, target)) return x0;
  }
}

DiscretePld empty_chain(Side side, unsigned long n, unsigned scale_bits, long first, std::size_t points) {
  DiscretePld p;
  p.side = side;
  p.steps_per_unit = n;
  p.scale_bits = scale_bits;
  p.first_index = first;
  p.masses.assign(points, 0);
  return p;
}

}  // namespace exactdp::accounting::pld
