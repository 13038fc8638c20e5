// The constants of fixed_exp52.h and its group evaluation: portable (exp52_v_lanes, two H at a time) and,
// on x86-64 CPUs with AVX-512 IFMA (chosen at run time), eight H per vector of 64-bit lanes with
// each value as two 52-bit limbs, mul104 from seven vpmadd52 products, S_i by a two-register
// permute (vpermt2q, whose lane choice is an operand, not an address). The same exact integer
// operations, so the same bits.
#include <exactdp/samplers/internal/fixed_exp52.h>

#include <gmpxx.h>
#include <mpfr.h>

#include <cstring>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/hardened_scan.h>  // EXACTDP_SCAN_CLONES

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace exactdp::internal {
namespace {

constexpr mpfr_prec_t kConstantPrecision = 256;

// round(2^104 x) for 0 <= x < 1.
uint128 to_q104(mpfr_srcptr x) {
  Real scaled(kConstantPrecision);
  mpfr_mul_2ui(scaled, x, 104, MPFR_RNDN);  // exact
  mpz_class v;
  mpfr_get_z(v.get_mpz_t(), scaled, MPFR_RNDN);
  const mpz_class high = v >> 64;
  const mpz_class low = v - (high << 64);
  return (uint128{high.get_ui()} << 64) | low.get_ui();
}

void to_limbs(uint128 v, std::uint64_t* limbs) {
  limbs[0] = static_cast<std::uint64_t>(v) & kLimb52;
  limbs[1] = static_cast<std::uint64_t>(v >> 52);
}

#if defined(__x86_64__)
#define EXACTDP_IFMA __attribute__((target("avx512f,avx512ifma")))

// Lanes as a GCC vector (shifts, masks and subtractions written as operators: the AVX-512 shift
// intrinsics trip GCC 12's -Wuninitialized); the products and the permute are intrinsics.
using V8 = unsigned long long __attribute__((vector_size(64)));
constexpr V8 kMask8 = {kLimb52, kLimb52, kLimb52, kLimb52, kLimb52, kLimb52, kLimb52, kLimb52};

struct Limbs {
  V8 low, high;  // 52-bit limbs, one value a lane
};

EXACTDP_IFMA inline V8 madd_low(V8 acc, V8 a, V8 b) noexcept {
  return (V8)_mm512_madd52lo_epu64((__m512i)acc, (__m512i)a, (__m512i)b);  // NOLINT: same-size vector casts
}
EXACTDP_IFMA inline V8 madd_high(V8 acc, V8 a, V8 b) noexcept {
  return (V8)_mm512_madd52hi_epu64((__m512i)acc, (__m512i)a, (__m512i)b);  // NOLINT: same-size vector casts
}

// mul104 on eight lanes: floor(a b / 2^104) = a1 b1 + floor((a1 b0 + a0 b1 + floor(a0 b0 / 2^52)) / 2^52),
// each 104-bit product split into its low and high 52 bits by vpmadd52luq / vpmadd52huq.
EXACTDP_IFMA inline Limbs mul_ifma(Limbs a, Limbs b) noexcept {
  const V8 zero = {};
  V8 carry = madd_high(zero, a.low, b.low);
  carry = madd_low(carry, a.high, b.low);
  carry = madd_low(carry, a.low, b.high);  // < 3 2^52
  V8 low = madd_low(carry >> 52, a.high, b.high);
  low = madd_high(low, a.high, b.low);
  low = madd_high(low, a.low, b.high);  // < 4 2^52
  return {low & kMask8, madd_high(low >> 52, a.high, b.high)};
}

// a - b for a >= b (the low limbs' borrow is bit 63 of their difference).
EXACTDP_IFMA inline Limbs sub_ifma(Limbs a, Limbs b) noexcept {
  const V8 low = a.low - b.low;
  return {low & kMask8, a.high - b.high - (low >> 63)};
}

EXACTDP_IFMA inline Limbs broadcast(const std::uint64_t* limbs) noexcept {
  const V8 zero = {};
  return {zero + static_cast<unsigned long long>(limbs[0]), zero + static_cast<unsigned long long>(limbs[1])};
}

EXACTDP_IFMA inline V8 load8(const std::uint64_t* p) noexcept {
  V8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The group's four vectors of eight go through every step together: four independent chains of
// products (each vpmadd52 has a latency of several cycles), so the processor overlaps them.
constexpr unsigned kVectors = kFixedExp52Group / 8;

// The low and high 64-bit words of eight uint128 at p (little-endian: low word first).
EXACTDP_IFMA inline void load_words(const uint128* p, V8& low, V8& high) noexcept {
  const __m512i first = (__m512i)load8(reinterpret_cast<const std::uint64_t*>(p));
  const __m512i second = (__m512i)load8(reinterpret_cast<const std::uint64_t*>(p) + 8);
  low = (V8)_mm512_permutex2var_epi64(first, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), second);
  high = (V8)_mm512_permutex2var_epi64(first, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), second);
}

// Eight uint128 at p from their low and high words.
EXACTDP_IFMA inline void store_words(uint128* p, V8 low, V8 high) noexcept {
  const __m512i first = _mm512_permutex2var_epi64((__m512i)low, _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), (__m512i)high);
  const __m512i second = _mm512_permutex2var_epi64((__m512i)low, _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15), (__m512i)high);
  std::memcpy(reinterpret_cast<std::uint64_t*>(p), &first, sizeof first);
  std::memcpy(reinterpret_cast<std::uint64_t*>(p) + 8, &second, sizeof second);
}

// Lane-wise shifts whose counts may reach 64 or more (then 0), as vpsrlvq / vpsllvq define them
// (the zero-masked forms with every lane kept: the plain intrinsics trip GCC 12's -Wuninitialized).
EXACTDP_IFMA inline V8 shift_right(V8 v, V8 count) noexcept {
  return (V8)_mm512_maskz_srlv_epi64(0xFF, (__m512i)v, (__m512i)count);
}
EXACTDP_IFMA inline V8 shift_left(V8 v, V8 count) noexcept {
  return (V8)_mm512_maskz_sllv_epi64(0xFF, (__m512i)v, (__m512i)count);
}

EXACTDP_IFMA void group_ifma(const FixedExp52& t, const uint128* h, uint128* alpha) noexcept {
  // The parts of H (fixed_exp52.h) from its words: R = bits 13 .. 112, i = bits 113 .. 116,
  // n = bits 117 .. 121.
  constexpr unsigned long long kLow48 = (1ULL << 48) - 1;
  Limbs r[kVectors];
  V8 index[kVectors], n[kVectors];
  for (unsigned b = 0; b < kVectors; ++b) {
    V8 low, high;
    load_words(h + 8 * b, low, high);
    r[b] = {((low >> 13) | (high << 51)) & kMask8, (high >> 1) & kLow48};
    index[b] = (high >> 49) & 15;
    n[b] = (high >> 53) & 31;
  }
  Limbs rho[kVectors], p[kVectors];
  V8 q[kVectors];
  const Limbs ln2 = broadcast(t.ln2_limbs);
  const V8 zero = {};
  for (unsigned b = 0; b < kVectors; ++b) {
    rho[b] = mul_ifma(r[b], ln2);
    q[b] = zero + static_cast<unsigned long long>(t.narrow[kFixedExp52Degree]);
  }
  for (unsigned k = kFixedExp52Degree; k-- > kFixedExp52WideSteps;) {  // one limb: rho1 = rho's high limb
    const V8 d_k = zero + static_cast<unsigned long long>(t.narrow[k]);
    for (unsigned b = 0; b < kVectors; ++b) q[b] = d_k - madd_high(zero, rho[b].high, q[b]);
  }
  for (unsigned b = 0; b < kVectors; ++b) p[b] = {zero, q[b]};  // q 2^52
  for (unsigned k = kFixedExp52WideSteps; k-- > 0;) {
    const Limbs c = broadcast(t.coeff_limbs[k]);
    for (unsigned b = 0; b < kVectors; ++b) p[b] = sub_ifma(c, mul_ifma(rho[b], p[b]));
  }
  const __m512i s_low[2] = {(__m512i)load8(&t.sixteenth_limbs[0][0]), (__m512i)load8(&t.sixteenth_limbs[0][8])};
  const __m512i s_high[2] = {(__m512i)load8(&t.sixteenth_limbs[1][0]), (__m512i)load8(&t.sixteenth_limbs[1][8])};
  for (unsigned b = 0; b < kVectors; ++b) {
    const Limbs d = sub_ifma(rho[b], mul_ifma(rho[b], mul_ifma(rho[b], p[b])));
    const Limbs s = {(V8)_mm512_permutex2var_epi64(s_low[0], (__m512i)index[b], s_low[1]),
                     (V8)_mm512_permutex2var_epi64(s_high[0], (__m512i)index[b], s_high[1])};
    const Limbs v = sub_ifma(s, mul_ifma(s, d));
    // alpha = v >> e, e = 24 + n in [24, 55], v = v1 2^52 + v0: its low word is v0 >> e, v1 << (52 - e)
    // for e <= 52 and v1 >> (e - 52) for e > 52 (the other count then wraps past 63: 0); its high
    // word v1 >> (e + 12).
    const V8 e = n[b] + 24;
    const V8 low = shift_right(v.low, e) | shift_left(v.high, 52 - e) | shift_right(v.high, e - 52);
    store_words(alpha + 8 * b, low, shift_right(v.high, e + 12));
  }
}
#endif

}  // namespace

// Compiled for AVX2 beside the baseline (EXACTDP_SCAN_CLONES): the masked pass over S_i on 256-bit vectors.
EXACTDP_SCAN_CLONES void fixed_exp52_group_portable(const FixedExp52& t, const uint128* h, uint128* alpha) noexcept {
  constexpr unsigned kLanes = 2;  // two chains at once (four measured no faster: registers spill)
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
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma")) return group_ifma;
#endif
  return nullptr;
}

FixedExp52 make_fixed_exp52() {
  static_assert(sizeof(unsigned long) == 8, "mpz get_ui must hold a 64-bit word");
  FixedExp52 t;
  Real x(kConstantPrecision);
  mpfr_const_log2(x, MPFR_RNDN);
  t.ln2 = to_q104(x);
  to_limbs(t.ln2, t.ln2_limbs);
  mpfr_set_ui(x, 1, MPFR_RNDN);
  mpfr_div_ui(x, x, 2, MPFR_RNDN);  // 1/2!
  for (unsigned long k = 0; k <= kFixedExp52Degree; ++k) {
    if (k > 0) mpfr_div_ui(x, x, k + 2, MPFR_RNDN);  // 1/(k+2)!, 256 bits: far below 2^-104
    t.coeff[k] = to_q104(x);
    to_limbs(t.coeff[k], t.coeff_limbs[k]);
    Real scaled(kConstantPrecision);
    mpfr_mul_2ui(scaled, x, 52, MPFR_RNDN);  // exact
    mpz_class narrow;
    mpfr_get_z(narrow.get_mpz_t(), scaled, MPFR_RNDN);
    t.narrow[k] = narrow.get_ui();  // round(2^52 / (k+2)!)
  }
  t.sixteenth[0] = (uint128{1} << 104) - 1;
  for (long i = 1; i < 16; ++i) {
    mpfr_set_si(x, -i, MPFR_RNDN);
    mpfr_div_ui(x, x, 16, MPFR_RNDN);  // exact
    mpfr_exp2(x, x, MPFR_RNDN);
    t.sixteenth[i] = to_q104(x);
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
