#include <exactdp/samplers/internal/fixed_exp.h>

#include <gmpxx.h>
#include <mpfr.h>

#include <exactdp/core/interval.h>

namespace exactdp::internal {
namespace {

constexpr mpfr_prec_t kTablePrecision = 256;

// round(2^127 x) for 0 <= x <= 1, as a uint128.
uint128 to_fixed(mpfr_srcptr x) {
  Real scaled(kTablePrecision);
  mpfr_mul_2ui(scaled, x, 127, MPFR_RNDN);  // exact
  mpz_class v;
  mpfr_get_z(v.get_mpz_t(), scaled, MPFR_RNDN);
  const mpz_class high = v >> 64;
  const mpz_class low = v - (high << 64);
  return (uint128{high.get_ui()} << 64) | low.get_ui();
}

// round(2^64 x) for 0 <= x < 1.
std::uint64_t to_fixed64(mpfr_srcptr x) {
  Real scaled(kTablePrecision);
  mpfr_mul_2ui(scaled, x, 64, MPFR_RNDN);  // exact
  mpz_class v;
  mpfr_get_z(v.get_mpz_t(), scaled, MPFR_RNDN);
  return v.get_ui();
}

}  // namespace

FixedExpTables make_fixed_exp_tables() {
  static_assert(sizeof(unsigned long) == 8, "mpz get_ui must hold a 64-bit word");
  FixedExpTables t{};
  Real x(kTablePrecision);
  mpfr_const_log2(x, MPFR_RNDN);
  t.ln2 = to_fixed(x);
  for (long k = 0; k < 16; ++k) {
    mpfr_set_si(x, -k, MPFR_RNDN);
    mpfr_div_ui(x, x, 16, MPFR_RNDN);  // exact
    mpfr_exp2(x, x, MPFR_RNDN);
    t.exp2_sixteenth[k] = to_fixed(x);
    for (unsigned d = 0; d < 4; ++d) t.sixteenth_words[d][k] = static_cast<std::uint32_t>(t.exp2_sixteenth[k] >> (32 * d));
  }
  t.select_group = best_fixed_select_group();
  mpfr_set_ui(x, 1, MPFR_RNDN);
  mpfr_div_ui(x, x, 6, MPFR_RNDN);  // 1/3!
  for (unsigned long j = 0; j <= kFixedExpTailDegree; ++j) {
    if (j > 0) {
      mpfr_div_ui(x, x, j + 3, MPFR_RNDN);
      mpfr_div_ui(x, x, 16, MPFR_RNDN);  // exact
    }
    t.tail[j] = to_fixed64(x);
  }
  return t;
}

}  // namespace exactdp::internal
