// The rejection method's group of kScanGroup proposals as one AVX-512 kernel, on x86-64 CPUs with
// AVX-512 IFMA (chosen when the plan is made: HardenedRejectionPlan::group). Every step of a
// proposal (hardened_rejection.h) runs on eight proposals a vector of 64-bit lanes, four vectors
// together: the windows cut from the group's bytes (stream order, each 8 reversed into a word) by
// register permutes at public offsets, the
// table draw's digits (the group scan of hardened_scan.h counts them), H = floor(m R / 2^63) from
// 52-bit limb products, the exponential (fixed_exp52_ifma.h), the brackets (the group select of
// hardened_bracket.h), the acceptance count floor(alpha w_x / 2^80), the residual's comparison and
// the signed value. The same exact integer operations as the portable group, so the same values
// and bits (tests/samplers/hardened_rejection_test.cc runs both on the same streams). The accepted
// values are written with a compress store under the accept mask: the accept bits are the one value
// the method branches on, independent of the output (hardened_rejection.h).
#include <exactdp/samplers/internal/hardened_rejection.h>

#include <exactdp/samplers/internal/fixed_exp52_ifma.h>

namespace exactdp::internal {

#if defined(__x86_64__)
namespace {

using namespace ifma;

constexpr unsigned long long kDigitMask = (1ULL << kScanDigitBits) - 1;

// The kScanGroup proposals of a group, eight a vector.
struct Lanes {
  V8 high[kVectors], low[kVectors];  // the windows (hardened_rejection.h: the first bit at bit 127)
  V8 x[kVectors], y[kVectors], sign[kVectors];
};

// The bracket (T_(x-1), w_x) of eight table draws x as the low and high words of each: word w of
// entry x is entry x % 16 of block x / 16 (a two-register permute, whose lane choice is an
// operand), kept where x / 16 = q for each of the public number of blocks.
struct Brackets {
  V8 base_low, base_high, width_low, width_high;
};
EXACTDP_IFMA Brackets select_brackets(const HardenedRejectionPlan& plan, V8 x) noexcept {
  const std::size_t blocks = (plan.brackets.values + 15) / 16;
  V8 word[4] = {};
  const V8 block = x >> 4;
  for (std::size_t q = 0; q < blocks; ++q) {
    const __mmask8 keep = _mm512_cmpeq_epu64_mask((__m512i)block, (__m512i)splat(q));
    for (unsigned w = 0; w < 4; ++w) {
      const __m512i lower = (__m512i)load8(&plan.bracket_words[w][16 * q]);
      const __m512i upper = (__m512i)load8(&plan.bracket_words[w][16 * q + 8]);
      const __m512i entry = _mm512_permutex2var_epi64(lower, (__m512i)x, upper);
      word[w] = (V8)_mm512_mask_mov_epi64((__m512i)word[w], keep, entry);
    }
  }
  return {word[0], word[1], word[2], word[3]};
}

EXACTDP_IFMA inline V8 iota_times(std::uint64_t p) noexcept {
  const V8 iota = {0, 1, 2, 3, 4, 5, 6, 7};
  return iota * static_cast<unsigned long long>(p);
}

// Eight 64-bit words from the group's bytes at `from` (stream order): each lane's bytes reversed,
// its first byte most significant.
EXACTDP_IFMA inline __m512i stream_words(const unsigned char* from) noexcept {
  const __m512i reverse = _mm512_set_epi64(0x08090A0B0C0D0E0FLL, 0x0001020304050607LL, 0x08090A0B0C0D0E0FLL,
                                           0x0001020304050607LL, 0x08090A0B0C0D0E0FLL, 0x0001020304050607LL,
                                           0x08090A0B0C0D0E0FLL, 0x0001020304050607LL);
  return _mm512_shuffle_epi8(_mm512_loadu_si512(from), reverse);
}

// The windows of proposals 8 b .. 8 b + 7 (bit offsets at = start + s p of the bytes, public;
// start <= 7): word i = at / 64 of the bytes read as words and the two after it, shifted left by
// at % 64, taken from 16 words loaded from the first proposal's word on (the last window ends
// within 15 words of it: 7 P + 63 < 13 64).
EXACTDP_IFMA void cut_windows(const unsigned char* bytes, unsigned start, unsigned p, unsigned b, Lanes& g) noexcept {
  const std::size_t at_first = start + std::size_t{8} * b * p, first = at_first / 64;
  const V8 at = iota_times(p) + static_cast<unsigned long long>(at_first - 64 * first);
  const V8 word = at >> 6, shift = at & 63;
  const __m512i lower = stream_words(bytes + 8 * first), upper = stream_words(bytes + 8 * first + 64);
  const V8 one = splat(1), w0 = (V8)_mm512_permutex2var_epi64(lower, (__m512i)word, upper);
  const V8 w1 = (V8)_mm512_permutex2var_epi64(lower, (__m512i)(word + one), upper);
  const V8 w2 = (V8)_mm512_permutex2var_epi64(lower, (__m512i)(word + one + one), upper);
  const V8 back = splat(64) - shift;  // 64 when shift = 0: vpsrlvq then gives 0
  g.high[b] = shift_left(w0, shift) | shift_right(w1, back);
  g.low[b] = shift_left(w1, shift) | shift_right(w2, back);
}

// u = window >> 48 as its low 64 bits and its top 16.
EXACTDP_IFMA inline V8 u_low(const Lanes& g, unsigned b) noexcept { return (g.high[b] << 16) | (g.low[b] >> 48); }
EXACTDP_IFMA inline V8 u_high(const Lanes& g, unsigned b) noexcept { return g.high[b] >> 48; }

// The three 31-bit digits of u for proposals 8 b .. 8 b + 7 (in 64-bit lanes).
EXACTDP_IFMA void digits(const Lanes& g, unsigned b, V8* out) noexcept {
  const V8 low = u_low(g, b);
  out[0] = low & kDigitMask;
  out[1] = (low >> kScanDigitBits) & kDigitMask;
  out[2] = (low >> 62) | (u_high(g, b) << 2);
}

// x = entries - #{i : u < T_i} for the group's uniforms, sixteen a vector (the group scan of
// hardened_scan.h on 32-bit lanes, its borrow chain as mask registers: for 31-bit digits u_c and a
// borrow b in {0, 1}, u_c - b >= -1 and the borrow out is [u_c - b < t_c], a signed comparison).
EXACTDP_IFMA void scan(const ScanTable& t, Lanes& g) noexcept {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  __m512i u[3][2];
  for (unsigned h = 0; h < 2; ++h) {
    V8 first[3], second[3];
    digits(g, 2 * h, first);
    digits(g, 2 * h + 1, second);
    for (unsigned c = 0; c < 3; ++c) u[c][h] = _mm512_permutex2var_epi32((__m512i)first[c], even, (__m512i)second[c]);
  }
  const __m512i one = _mm512_set1_epi32(1);
  __m512i below[2] = {_mm512_setzero_si512(), _mm512_setzero_si512()};
  const std::uint32_t* d = t.digits.data();
  for (std::size_t i = 0; i < t.entries; ++i) {
    const __m512i t0 = _mm512_set1_epi32(static_cast<int>(d[i]));
    const __m512i t1 = _mm512_set1_epi32(static_cast<int>(d[t.padded + i]));
    const __m512i t2 = _mm512_set1_epi32(static_cast<int>(d[2 * t.padded + i]));
    for (unsigned h = 0; h < 2; ++h) {
      __mmask16 borrow = _mm512_cmplt_epi32_mask(u[0][h], t0);
      borrow = _mm512_cmplt_epi32_mask(_mm512_mask_sub_epi32(u[1][h], borrow, u[1][h], one), t1);
      borrow = _mm512_cmplt_epi32_mask(_mm512_mask_sub_epi32(u[2][h], borrow, u[2][h], one), t2);
      below[h] = _mm512_mask_add_epi32(below[h], borrow, below[h], one);
    }
  }
  const __m512i entries = _mm512_set1_epi32(static_cast<int>(t.entries));
  for (unsigned h = 0; h < 2; ++h) {
    const __m512i x = _mm512_sub_epi32(entries, below[h]);  // lanes 0 .. 7: vector 2 h, 8 .. 15: 2 h + 1
    const __m512i first = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    const __m512i second = _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
    g.x[2 * h] = (V8)_mm512_maskz_permutexvar_epi32(0xFFFF, first, x) & 0xFFFFFFFFULL;
    g.x[2 * h + 1] = (V8)_mm512_maskz_permutexvar_epi32(0xFFFF, second, x) & 0xFFFFFFFFULL;
  }
}

// H = floor(m R / 2^63), m = y (y + 2 k x) 2^(52 - 2 j) < 2^59, R = log2e_over_two_s0 < 2^127 (the
// same integer as acceptance_exponent), as the parts fixed_exp52 reads: with m = m1 2^52 + m0 and
// R = r2 2^104 + r1 2^52 + r0, the product's 52-bit limbs L1, L2, L3 (L0 only carries), and
// H's bits 9 .. 121 are the product's bits 72 .. 184.
EXACTDP_IFMA void exponent_parts(const HardenedRejectionPlan& plan, const Lanes& g, unsigned b, ExpInputs& in) noexcept {
  const V8 shifted_x = g.x[b] << (plan.j + 1);
  const V8 product = (V8)_mm512_mullo_epi64((__m512i)g.y[b], (__m512i)(g.y[b] + shifted_x));  // < 2^59
  const V8 m = product << (52 - 2 * plan.j);
  const V8 m0 = m & kMask52, m1 = m >> 52, zero = {};
  const uint128 big = plan.log2e_over_two_s0;
  const V8 r0 = splat(static_cast<std::uint64_t>(big) & kLimb52);
  const V8 r1 = splat(static_cast<std::uint64_t>(big >> 52) & kLimb52);
  const V8 r2 = splat(static_cast<std::uint64_t>(big >> 104));
  const V8 s1 = madd_low(madd_low(madd_high(zero, m0, r0), m0, r1), m1, r0);  // < 3 2^52
  const V8 s2 = madd_low(madd_low(madd_high(madd_high(s1 >> 52, m0, r1), m1, r0), m0, r2), m1, r1);
  const V8 l3 = madd_low(madd_high(madd_high(s2 >> 52, m0, r2), m1, r1), m1, r2);  // m1 r2 < 2^30
  const V8 l1 = s1 & kMask52, l2 = s2 & kMask52;
  in.r0[b] = ((l1 >> 20) | (l2 << 32)) & kMask52;  // H's bits 9 .. 60
  in.r1[b] = ((l2 >> 20) | (l3 << 32)) & kMask52;  // H's bits 61 .. 112
  in.index[b] = (l3 >> 20) & 15;
  in.n[b] = (l3 >> 24) & 31;  // five bits, as exp52_n (h < 22: hardened_rejection.h)
}

// The accept mask and the signed values of proposals 8 b .. 8 b + 7 given v (alpha before its
// shift): count = floor(alpha w_x / 2^80) from the limbs of alpha (< 2^80) and w_x (<= 2^80), the
// residual u - T_(x-1) below it, and never z = 0 with the sign set.
EXACTDP_IFMA __mmask8 accept(const HardenedRejectionPlan& plan, const Lanes& g, unsigned b, Limbs v, V8 n,
                             V8& value) noexcept {
  V8 alpha_low, alpha_high;
  alpha_words(v, n, alpha_low, alpha_high);
  const Brackets bracket = select_brackets(plan, g.x[b]);
  const V8 base_low = bracket.base_low, base_high = bracket.base_high;
  const V8 width_low = bracket.width_low, width_high = bracket.width_high;
  const V8 a0 = alpha_low & kMask52, a1 = (alpha_low >> 52) | (alpha_high << 12);
  const V8 w0 = width_low & kMask52, w1 = (width_low >> 52) | (width_high << 12), zero = {};
  // alpha w = c3 2^156 + c2 2^104 + c1 2^52 + (a0 w0 mod 2^52): floor(/ 2^80) = c3 2^76 + c2 2^24 + c1 / 2^28.
  const V8 c1 = madd_low(madd_low(madd_high(zero, a0, w0), a1, w0), a0, w1);
  const V8 c2 = madd_low(madd_high(madd_high(zero, a1, w0), a0, w1), a1, w1);
  const V8 c3 = madd_high(zero, a1, w1);
  const V8 count_low = (c1 >> 28) + (c2 << 24);
  const __mmask8 carry = _mm512_cmplt_epu64_mask((__m512i)count_low, (__m512i)(c2 << 24));
  const V8 count_high = (V8)_mm512_mask_add_epi64((__m512i)((c2 >> 40) + (c3 << 12)), carry,
                                                  (__m512i)((c2 >> 40) + (c3 << 12)), (__m512i)splat(1));
  const V8 ul = u_low(g, b);
  const __mmask8 borrow = _mm512_cmplt_epu64_mask((__m512i)ul, (__m512i)base_low);
  const V8 residual_low = ul - base_low;
  const V8 residual_high = (V8)_mm512_mask_sub_epi64((__m512i)(u_high(g, b) - base_high), borrow,
                                                     (__m512i)(u_high(g, b) - base_high), (__m512i)splat(1));
  const __mmask8 below = _mm512_cmplt_epu64_mask((__m512i)residual_high, (__m512i)count_high) |
                         (_mm512_cmpeq_epu64_mask((__m512i)residual_high, (__m512i)count_high) &
                          _mm512_cmplt_epu64_mask((__m512i)residual_low, (__m512i)count_low));
  const V8 z = (g.x[b] << plan.j) + g.y[b];
  const __mmask8 negative = _mm512_test_epi64_mask((__m512i)g.sign[b], (__m512i)g.sign[b]);
  const __mmask8 zero_negative = _mm512_mask_cmpeq_epu64_mask(negative, (__m512i)z, (__m512i)zero);
  value = (V8)_mm512_mask_sub_epi64((__m512i)z, negative, (__m512i)zero, (__m512i)z);
  return below & static_cast<__mmask8>(~zero_negative);
}

// Steps 1-2: windows, y and the sign; the table draws x.
EXACTDP_IFMA void table_draws(const HardenedRejectionPlan& plan, const unsigned char* bytes, unsigned start,
                              Lanes& g) noexcept {
  const unsigned p = plan.proposal_bits();
  for (unsigned b = 0; b < kVectors; ++b) {
    cut_windows(bytes, start, p, b, g);
    g.sign[b] = (g.low[b] >> 47) & 1;
    g.y[b] = (g.low[b] >> (47 - plan.j)) & ((1ULL << plan.j) - 1);
  }
  scan(plan.half_scan, g);
}

EXACTDP_IFMA std::size_t group_ifma(const HardenedRejectionPlan& plan, const unsigned char* bytes, unsigned start,
                                    std::size_t count, std::int64_t mean, std::int64_t* out) noexcept {
  Lanes g;
  table_draws(plan, bytes, start, g);
  ExpInputs in;
  for (unsigned b = 0; b < kVectors; ++b) exponent_parts(plan, g, b, in);
  Limbs v[kVectors];
  exp_v(plan.exp, in, v);
  std::size_t done = 0;
  for (unsigned b = 0; b < kVectors; ++b) {
    V8 value;
    const __mmask8 accepted = accept(plan, g, b, v[b], in.n[b], value);
    const std::size_t lanes = count > 8 * b ? count - 8 * b : 0;  // public
    const __mmask8 used = accepted & static_cast<__mmask8>(lanes >= 8 ? 0xFF : (1U << lanes) - 1);
    _mm512_mask_compressstoreu_epi64(out + done, used, (__m512i)(value + static_cast<unsigned long long>(mean)));
    done += static_cast<std::size_t>(__builtin_popcount(used));
  }
  return done;
}

}  // namespace

RejectionGroupFn rejection_group_ifma() noexcept { return cpu_has_ifma() ? group_ifma : nullptr; }
#else
RejectionGroupFn rejection_group_ifma() noexcept { return nullptr; }
#endif

}  // namespace exactdp::internal
