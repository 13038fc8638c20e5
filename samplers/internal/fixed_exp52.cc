// The constants of fixed_exp52.h and its group evaluation: portable (exp52_v_lanes, four H at a time) and,
// on x86-64 CPUs with AVX-512 IFMA (chosen at run time), eight H per vector of 64-bit lanes with
// each value as two 52-bit limbs (fixed_exp52_ifma.h), S_i by a two-register permute (vpermt2q,
// whose lane choice is an operand, not an address); on CPUs with AVX2 and no IFMA, the group of
// fixed_exp52_avx2.cc (26-bit digits), or its eight-lane form fixed_exp52_avx512.cc where the CPU
// has AVX-512F. The same exact integer operations, so the same bits.
#include <exactdp/samplers/internal/fixed_exp52.h>
#include <exactdp/core/cpu_level.h>

#include <gmpxx.h>
#include <mpfr.h>

#include <cstring>
#include <vector>

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

// Digit d (26 bits) of v < 2^104.
std::uint64_t digit26(uint128 v, unsigned d) {
  return static_cast<std::uint64_t>(v >> (kFixedExp52DigitBits * d)) & ((std::uint64_t{1} << kFixedExp52DigitBits) - 1);
}

#if defined(__x86_64__)
// The same eight H at a time on CPUs with AVX2: 32-bit word p of S_i is lane i % 8 of plane p's
// block i / 8, taken by a register permute (vpermd: the lane choice is an operand, not an address)
// from each block, the upper block kept by a blend where i >= 8. The planes are copied from the
// table (public) on each call.
__attribute__((target("avx2"))) void select_sixteenths_avx2(const FixedExp52& t, const std::uint32_t* index,
                                                            uint128* s) noexcept {
  alignas(32) std::uint32_t planes[4][16];
  for (unsigned e = 0; e < 16; ++e) {
    for (unsigned p = 0; p < 4; ++p) planes[p][e] = static_cast<std::uint32_t>(t.sixteenth[e] >> (32 * p));
  }
  for (std::size_t first = 0; first < kFixedExp52Group; first += 8) {
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(index + first));
    const __m256i upper = _mm256_cmpgt_epi32(at, _mm256_set1_epi32(7));
    alignas(32) std::uint32_t word[4][8];
    for (unsigned p = 0; p < 4; ++p) {
      const __m256i low = _mm256_permutevar8x32_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(planes[p])), at);
      const __m256i high = _mm256_permutevar8x32_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(planes[p] + 8)), at);
      _mm256_store_si256(reinterpret_cast<__m256i*>(word[p]), _mm256_blendv_epi8(low, high, upper));
    }
    for (unsigned l = 0; l < 8; ++l) {
      s[first + l] = (uint128{(std::uint64_t{word[3][l]} << 32) | word[2][l]} << 64) | (std::uint64_t{word[1][l]} << 32) | word[0][l];
    }
  }
}

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

// Four i a pass, one in each 32-bit lane: the words of S_e (broadcast to the lanes in
// t.sixteenth_lanes) are kept where i == e (a lane compare: a mask, no branch, no secret address)
// and ORed into four accumulators, for e < 16; then put together into S_i once per i.
void select_sixteenths_portable(const FixedExp52& t, const std::uint32_t* index, uint128* s) noexcept {
  constexpr unsigned kLanes = 4, kWords = 4;
  for (std::size_t first = 0; first < kFixedExp52Group; first += kLanes) {
    WordLanes want;
    std::memcpy(&want, index + first, sizeof want);
    WordLanes acc[kWords] = {};
#pragma GCC unroll 16
    for (unsigned e = 0; e < 16; ++e) {
      const WordLanes keep = (WordLanes)(want == WordLanes{e, e, e, e});  // NOLINT: a vector cast of the same size
#pragma GCC unroll 4
      for (unsigned w = 0; w < kWords; ++w) acc[w] |= t.sixteenth_lanes[e][w] & keep;
    }
    store_lane_numbers(acc, s + first);
  }
}

// Compiled for AVX2 and BMI2 beside the baseline (EXACTDP_PRODUCT_CLONES): the products with mulx;
// S_i by register permutes where the CPU has AVX2, else the masked pass.
EXACTDP_PRODUCT_CLONES void fixed_exp52_group_portable(const FixedExp52& t, const uint128* h, uint128* alpha) noexcept {
  constexpr unsigned kLanes = 4;  // four chains at once (2: 36.0 -> 4: 33.8 ns a batch draw, AVX2 group)
  static_assert(kFixedExp52Group % kLanes == 0);
  alignas(32) std::uint32_t index[kFixedExp52Group];
  uint128 sixteenth[kFixedExp52Group];
  for (std::size_t s = 0; s < kFixedExp52Group; ++s) index[s] = exp52_i(h[s]);
#if defined(__x86_64__)
  // The CPU's choice, not the data's: decided once per process, not on every group.
  static const bool permutes = __builtin_cpu_supports("avx2") && cpu_level_allows(CpuLevel::kAvx2);
  if (permutes) {
    select_sixteenths_avx2(t, index, sixteenth);
  } else {
    select_sixteenths_portable(t, index, sixteenth);
  }
#else
  select_sixteenths_portable(t, index, sixteenth);
#endif
  for (std::size_t s = 0; s < kFixedExp52Group; s += kLanes) {
    uint128 v[kLanes];
    exp52_v_lanes<kLanes>(h + s, t, sixteenth + s, v);
    for (unsigned l = 0; l < kLanes; ++l) alpha[s + l] = shift_right_small(v[l], 24 + exp52_n(h[s + l]));
  }
}

FixedExp52GroupFn fixed_exp52_group_ifma() noexcept {
#if defined(__x86_64__)
  if (ifma::cpu_has_ifma()) return group_ifma;
#endif
  return nullptr;
}

namespace {

// The coefficients b_0 .. b_8 (b_k >= 0) of the polynomial sum_k (-1)^k b_k x^k standing for 2^-x
// on [0, 1/16] (fixed_exp52.h): the Taylor series to x^12 (c_k = (-ln 2)^k / k!), economised to
// degree 8 by subtracting (c_n / lead(T*_n)) T*_n for n = 12 .. 9, T*_n(x) = T_n(32 x - 1) the
// Chebyshev polynomial shifted to [0, 1/16] (|T*_n| <= 1 there, leading coefficient
// 2^(n - 1) 32^n). Its power coefficients come from T_(m+1) = 2 y T_m - T_(m-1) and the binomial
// expansion of (32 x - 1)^j; 256-bit MPFR throughout (every coefficient below 2^8 in size).
void economised_coefficients(Real* b) {
  constexpr unsigned kTaylor = 12;
  std::vector<Real> c;
  Real ln2(kConstantPrecision), t(kConstantPrecision), term(kConstantPrecision);
  mpfr_const_log2(ln2, MPFR_RNDN);
  for (unsigned k = 0; k <= kTaylor; ++k) c.emplace_back(kConstantPrecision);
  mpfr_set_ui(c[0], 1, MPFR_RNDN);
  for (unsigned long k = 1; k <= kTaylor; ++k) {
    mpfr_mul(c[k], c[k - 1], ln2, MPFR_RNDN);
    mpfr_div_ui(c[k], c[k], k, MPFR_RNDN);
    mpfr_neg(c[k], c[k], MPFR_RNDN);  // (-ln 2)^k / k!
  }
  std::vector<std::vector<mpz_class>> cheb = {{1}, {0, 1}};  // T_m in y, integer coefficients
  for (unsigned m = 2; m <= kTaylor; ++m) {
    std::vector<mpz_class> next(m + 1, 0);
    for (unsigned j = 0; j < m; ++j) next[j + 1] += 2 * cheb[m - 1][j];
    for (unsigned j = 0; j + 1 < m; ++j) next[j] -= cheb[m - 2][j];
    cheb.push_back(next);
  }
  for (unsigned n = kTaylor; n > kFixedExp52Degree; --n) {
    std::vector<mpz_class> shifted(n + 1, 0);  // T_n(32 x - 1) in x
    for (unsigned j = 0; j <= n; ++j) {
      mpz_class binomial = 1;
      for (unsigned i = 0; i <= j; ++i) {  // (32 x - 1)^j: C(j, i) 32^i (-1)^(j - i) x^i
        mpz_class coefficient = cheb[n][j] * binomial * (mpz_class(1) << (5 * i));
        if ((j - i) % 2 == 1) coefficient = -coefficient;
        shifted[i] += coefficient;
        binomial = binomial * (j - i) / (i + 1);
      }
    }
    mpfr_div_z(t, c[n], shifted[n].get_mpz_t(), MPFR_RNDN);  // c_n / lead(T*_n)
    for (unsigned i = 0; i <= n; ++i) {
      mpfr_mul_z(term, t, shifted[i].get_mpz_t(), MPFR_RNDN);
      mpfr_sub(c[i], c[i], term, MPFR_RNDN);
    }
  }
  for (unsigned k = 0; k <= kFixedExp52Degree; ++k) mpfr_abs(b[k], c[k], MPFR_RNDN);
}

}  // namespace

FixedExp52 make_fixed_exp52() {
  static_assert(sizeof(unsigned long) == 8, "mpz get_ui must hold a 64-bit word");
  FixedExp52 t;
  Real ln2(kConstantPrecision), x(kConstantPrecision);
  mpfr_const_log2(ln2, MPFR_RNDN);  // 256 bits: every constant below is far finer than its unit
  t.ln2 = static_cast<std::uint64_t>(scaled(ln2, 52));
  std::vector<Real> b;
  for (unsigned k = 0; k <= kFixedExp52Degree; ++k) b.emplace_back(kConstantPrecision);
  economised_coefficients(b.data());
  for (unsigned k = 1; k <= kFixedExp52Degree; ++k) {
    mpfr_div(b[k], b[k], b[0], MPFR_RNDN);  // the Horner steps hold P / b_0 = 1 - x Q(x); S_i holds b_0
    if (k >= kFixedExp52NarrowLast) {
      t.narrow[k] = static_cast<std::uint64_t>(scaled(b[k], exp52_narrow_scale(k)));
    } else {
      t.wide[k] = scaled(b[k], exp52_wide_scale(k));
      to_limbs(t.wide[k], t.wide_limbs[k]);
      for (unsigned d = 0; d < 4; ++d) t.wide_digits[k][d] = digit26(t.wide[k], d);
    }
  }
  for (long i = 0; i < 16; ++i) {
    mpfr_set_si(x, -i, MPFR_RNDN);
    mpfr_div_ui(x, x, 16, MPFR_RNDN);  // exact
    mpfr_exp2(x, x, MPFR_RNDN);
    mpfr_mul(x, x, b[0], MPFR_RNDN);  // b_0 = 1 - 2^-76.26: S_0 < 2^104
    t.sixteenth[i] = scaled(x, 104);
  }
  for (unsigned i = 0; i < 16; ++i) {
    std::uint64_t limbs[2];
    to_limbs(t.sixteenth[i], limbs);
    t.sixteenth_limbs[0][i] = limbs[0];
    t.sixteenth_limbs[1][i] = limbs[1];
    for (unsigned d = 0; d < 4; ++d) {
      t.sixteenth_digits64[d][i] = digit26(t.sixteenth[i], d);
      t.sixteenth_digits32[d][i] = static_cast<std::uint32_t>(t.sixteenth_digits64[d][i]);
    }
    for (unsigned w = 0; w < 4; ++w) {
      const auto word = static_cast<std::uint32_t>(t.sixteenth[i] >> (32 * w));
      t.sixteenth_lanes[i][w] = WordLanes{word, word, word, word};
    }
  }
  const FixedExp52GroupFn ifma = fixed_exp52_group_ifma(), avx512 = fixed_exp52_group_avx512();
  const FixedExp52GroupFn avx2 = fixed_exp52_group_avx2();
  t.group = ifma != nullptr ? ifma : avx512 != nullptr ? avx512 : avx2 != nullptr ? avx2 : fixed_exp52_group_portable;
  return t;
}

}  // namespace exactdp::internal
