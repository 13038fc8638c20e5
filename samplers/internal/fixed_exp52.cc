// The constants of fixed_exp52.h and its group evaluation: portable (exp52_v_lanes, four H at a time) and,
// on x86-64 CPUs with AVX-512 IFMA (chosen at run time), eight H per vector of 64-bit lanes with
// each value as two 52-bit limbs (fixed_exp52_ifma.h), S_i by a two-register permute (vpermt2q,
// whose lane choice is an operand, not an address). The same exact integer operations, so the
// same bits.
#include <exactdp/samplers/internal/fixed_exp52.h>

#include <gmpxx.h>
#include <mpfr.h>

#include <cstring>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/hardened_scan.h>  // EXACTDP_PRODUCT_CLONES

#include <exactdp/samplers/internal/fixed_exp52_ifma.h>

namespace exactdp::internal {
namespace {

constexpr mpfr_prec_t kConstantPrecision = 256;

// round(2^bits x) for 0 <= x < 2^(128 - bits).
uint128 scaled(mpfr_srcptr x, unsigned bits) {
  Real v(kConstantPrecision);
  mpfr_mul_2ui(v, x, bits, MPFR_RNDN);  // exact
  mpz_class z;
  mpfr_get_z(z.get_mpz_t(), v, MPFR_RNDN);
  const mpz_class high = z >> 64;
  const mpz_class low = z - (high << 64);
  return (uint128{high.get_ui()} << 64) | low.get_ui();
}

void to_limbs(uint128 v, std::uint64_t* limbs) {
  limbs[0] = static_cast<std::uint64_t>(v) & kLimb52;
  limbs[1] = static_cast<std::uint64_t>(v >> 52);
}

#if defined(__x86_64__)
EXACTDP_IFMA void group_ifma(const FixedExp52& t, const uint128* h, uint128* alpha) noexcept {
  using namespace ifma;
  ExpInputs in;
  for (unsigned b = 0; b < kVectors; ++b) {
    V8 low, high;
    load_words(h + 8 * b, low, high);
    split_input(low, high, in, b);
  }
  Limbs v[kVectors];
  exp_v(t, in, v);
  for (unsigned b = 0; b < kVectors; ++b) {
    V8 low, high;
    alpha_words(v[b], in.n[b], low, high);
    store_words(alpha + 8 * b, low, high);
  }
}
#endif

}  // namespace

// Compiled for AVX2 and BMI2 beside the baseline (EXACTDP_PRODUCT_CLONES): the masked pass over S_i on
// 256-bit vectors, the products with mulx.
EXACTDP_PRODUCT_CLONES void fixed_exp52_group_portable(const FixedExp52& t, const uint128* h, uint128* alpha) noexcept {
  constexpr unsigned kLanes = 4;  // four chains at once (2: 36.0 -> 4: 33.8 ns a batch draw, AVX2 group)
  static_assert(kFixedExp52Group % kLanes == 0);
  for (std::size_t s = 0; s < kFixedExp52Group; s += kLanes) {
    uint128 sixteenth[kLanes], v[kLanes];
    for (unsigned l = 0; l < kLanes; ++l) sixteenth[l] = select16(t.sixteenth, exp52_i(h[s + l]));
    exp52_v_lanes<kLanes>(h + s, t, sixteenth, v);
    for (unsigned l = 0; l < kLanes; ++l) alpha[s + l] = shift_right_small(v[l], 24 + exp52_n(h[s + l]));
  }
}

FixedExp52GroupFn fixed_exp52_group_ifma() noexcept {
#if defined(__x86_64__)
  if (ifma::cpu_has_ifma()) return group_ifma;
#endif
  return nullptr;
}

FixedExp52 make_fixed_exp52() {
  static_assert(sizeof(unsigned long) == 8, "mpz get_ui must hold a 64-bit word");
  FixedExp52 t;
  Real ln2(kConstantPrecision), a(kConstantPrecision), x(kConstantPrecision);
  mpfr_const_log2(ln2, MPFR_RNDN);  // 256 bits: every constant below is far finer than its unit
  t.ln2 = static_cast<std::uint64_t>(scaled(ln2, 52));
  mpfr_set_ui(a, 1, MPFR_RNDN);
  for (unsigned long k = 1; k <= kFixedExp52Degree; ++k) {
    mpfr_mul(a, a, ln2, MPFR_RNDN);
    mpfr_div_ui(a, a, k, MPFR_RNDN);  // a_k = ln(2)^k / k!
    if (k >= kFixedExp52NarrowLast) {
      t.narrow[k] = static_cast<std::uint64_t>(scaled(a, exp52_narrow_scale(k)));
    } else {
      t.wide[k] = scaled(a, exp52_wide_scale(k));
      to_limbs(t.wide[k], t.wide_limbs[k]);
    }
  }
  t.sixteenth[0] = (uint128{1} << 104) - 1;
  for (long i = 1; i < 16; ++i) {
    mpfr_set_si(x, -i, MPFR_RNDN);
    mpfr_div_ui(x, x, 16, MPFR_RNDN);  // exact
    mpfr_exp2(x, x, MPFR_RNDN);
    t.sixteenth[i] = scaled(x, 104);
  }
  for (unsigned i = 0; i < 16; ++i) {
    std::uint64_t limbs[2];
    to_limbs(t.sixteenth[i], limbs);
    t.sixteenth_limbs[0][i] = limbs[0];
    t.sixteenth_limbs[1][i] = limbs[1];
  }
  const FixedExp52GroupFn ifma = fixed_exp52_group_ifma();
  t.group = ifma != nullptr ? ifma : fixed_exp52_group_portable;
  return t;
}

}  // namespace exactdp::internal
