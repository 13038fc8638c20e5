// The rejection method's group of kScanGroup proposals on x86-64 CPUs with AVX2 and BMI2 but no
// AVX-512 IFMA (chosen when the plan is made: HardenedRejectionPlan::group). The steps of a
// proposal (hardened_rejection.h) run on four proposals a vector of 64-bit lanes where they are
// shifts, masks and small products: the windows (16-byte loads at public offsets of the group's
// bits), u's digits, y and the sign, the table draws (the group scan of
// hardened_scan.h), M = y (y + 2 k x) 2^(52 - 2 j) (y^2 and y x are 32 x 32-bit products), the
// brackets as 64-bit words (hardened_bracket.h), the acceptance count on 32-bit limbs and the
// decision. H = floor(M R / 2^63) stays scalar (two mulx, exponent_of_m), and the exponential is
// the plan's group evaluation (FixedExp52::group). The same exact integers as the portable group
// (acceptance_count, proposal_decision), so the same values and bits
// (tests/samplers/hardened_rejection_group_test.cc runs both on the same streams and on
// proposals placed on the acceptance boundary). No branch and no address depends on a secret;
// the accept bits are declassified once for the delivery loop (hardened_rejection.h).
#include <exactdp/samplers/internal/hardened_rejection.h>
#include <exactdp/core/cpu_level.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace exactdp::internal {

#if defined(__x86_64__)
namespace {

#define EXACTDP_AVX2_BMI2 __attribute__((target("avx2,bmi2")))

constexpr std::size_t kQuads = kScanGroup / 4;  // vectors of four proposals a group

// The fields of the group's proposals, lane s of each array for proposal s.
struct Fields {
  alignas(32) std::uint64_t high[kScanGroup];    // the windows
  alignas(32) std::uint64_t low[kScanGroup];
  alignas(32) std::uint64_t u_low[kScanGroup];   // u = u_high 2^64 + u_low, u_high < 2^16
  alignas(32) std::uint64_t u_high[kScanGroup];
  alignas(32) std::uint64_t y[kScanGroup];
  alignas(32) std::uint64_t sign[kScanGroup];
  alignas(32) std::uint64_t x[kScanGroup];
  alignas(32) std::uint64_t m[kScanGroup];       // M (acceptance_exponent)
  alignas(32) std::uint32_t digits[3 * kScanGroup];
  alignas(32) std::uint32_t below[kScanGroup];
  alignas(32) std::uint32_t x32[kScanGroup];
  alignas(32) uint128 exponent[kScanGroup];
  alignas(32) uint128 alpha[kScanGroup];
  BracketWords bracket;
  alignas(32) std::uint64_t accepted[kScanGroup];
  alignas(32) std::int64_t value[kScanGroup];
};

EXACTDP_AVX2_BMI2 inline __m256i load4(const std::uint64_t* p) noexcept {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
}
EXACTDP_AVX2_BMI2 inline void store4(std::uint64_t* p, __m256i v) noexcept {
  _mm256_store_si256(reinterpret_cast<__m256i*>(p), v);
}
// The low 32 bits of four 64-bit lanes into to[0 .. 3].
EXACTDP_AVX2_BMI2 inline void store_low_halves(std::uint32_t* to, __m256i v) noexcept {
  const __m256i packed = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
  _mm_store_si128(reinterpret_cast<__m128i*>(to), _mm256_castsi256_si128(packed));
}
// Four (low, high) pairs, l0 h0 l1 h1 in first and l2 h2 l3 h3 in second, as l0 l1 l2 l3 and
// h0 h1 h2 h3.
EXACTDP_AVX2_BMI2 inline void deinterleave(__m256i first, __m256i second, __m256i& low, __m256i& high) noexcept {
  low = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(first, second), 0xD8);
  high = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(first, second), 0xD8);
}

// The last window's 16 bytes lie inside the group's words (P <= 81 + 26).
static_assert((kScanGroup - 1) * (kRejectionWidthBits + 1 + 26) / 8 + 16 <= 8 * kRejectionGroupWords,
              "a window's bytes inside the group's words");

// The group's words as bytes in stream order (word k's most significant byte first): a window
// is then one unaligned 16-byte load at a public byte offset.
EXACTDP_AVX2_BMI2 void stream_bytes(const std::uint64_t* words, unsigned char* bytes) noexcept {
  const __m256i reverse = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
                                           1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  for (std::size_t k = 0; k < kRejectionGroupWords; k += 4) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + k));
    _mm256_store_si256(reinterpret_cast<__m256i*>(bytes + 8 * k), _mm256_shuffle_epi8(v, reverse));
  }
}

// The windows of proposals s and s + 1 as the 64-bit lanes low, high, low, high: the 16 bytes
// from byte at / 8 (at = s P, public) reversed into a 128-bit number, shifted left by at % 8 (the
// carry between its halves moved up by a byte shift). Bits 0 .. 120 of each window are the
// stream's from bit at on (P <= 107 are used), the rest zero.
EXACTDP_AVX2_BMI2 inline __m256i window_pair(const unsigned char* bytes, std::size_t at, std::size_t next) noexcept {
  const __m256i reverse = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                           10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at / 8));
  const __m128i second = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + next / 8));
  const __m256i x = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(first), second, 1), reverse);
  const auto a = static_cast<long long>(at % 8), b = static_cast<long long>(next % 8);
  const __m256i shift = _mm256_setr_epi64x(a, a, b, b);
  const __m256i carry = _mm256_srlv_epi64(x, _mm256_sub_epi64(_mm256_set1_epi64x(64), shift));
  return _mm256_or_si256(_mm256_sllv_epi64(x, shift), _mm256_slli_si256(carry, 8));
}

// The windows (the first bit at bit 127 of high:low, as rejection_proposal's) of the group's
// proposals, four at a time from the stream's bytes. Byte loads at public offsets: a gather of the
// words, or scalar shifts, cost more (gathers are slow or microcode-mitigated on some CPUs).
EXACTDP_AVX2_BMI2 void cut_windows(const HardenedRejectionPlan& plan, const std::uint64_t* words, Fields& f) noexcept {
  alignas(32) unsigned char bytes[8 * kRejectionGroupWords];
  stream_bytes(words, bytes);
  const std::size_t p = plan.proposal_bits();
  for (std::size_t q = 0; q < kQuads; ++q) {
    const std::size_t at = 4 * q * p;
    __m256i low, high;
    deinterleave(window_pair(bytes, at, at + p), window_pair(bytes, at + 2 * p, at + 3 * p), low, high);
    store4(f.low + 4 * q, low);
    store4(f.high + 4 * q, high);
  }
}

// Proposals 4 q .. 4 q + 3: u, its three 31-bit digits, the sign and y from their windows.
EXACTDP_AVX2_BMI2 void cut_fields(const HardenedRejectionPlan& plan, std::size_t q, Fields& f) noexcept {
  const __m256i high = load4(f.high + 4 * q), low = load4(f.low + 4 * q);
  const __m256i u_low = _mm256_or_si256(_mm256_slli_epi64(high, 16), _mm256_srli_epi64(low, 48));
  const __m256i u_high = _mm256_srli_epi64(high, 48);
  const __m256i digit = _mm256_set1_epi64x((1LL << kScanDigitBits) - 1);
  const std::size_t s = 4 * q;
  store4(f.u_low + s, u_low);
  store4(f.u_high + s, u_high);
  store4(f.sign + s, _mm256_and_si256(_mm256_srli_epi64(low, 47), _mm256_set1_epi64x(1)));
  const __m128i y_shift = _mm_cvtsi32_si128(static_cast<int>(47 - plan.j));
  store4(f.y + s, _mm256_and_si256(_mm256_srl_epi64(low, y_shift), _mm256_set1_epi64x((1LL << plan.j) - 1)));
  store_low_halves(f.digits + s, _mm256_and_si256(u_low, digit));
  store_low_halves(f.digits + kScanGroup + s, _mm256_and_si256(_mm256_srli_epi64(u_low, kScanDigitBits), digit));
  store_low_halves(f.digits + 2 * kScanGroup + s,
                   _mm256_or_si256(_mm256_srli_epi64(u_low, 2 * kScanDigitBits), _mm256_slli_epi64(u_high, 2)));
}

// x = entries - below and M = (y y + ((y x) << (j + 1))) << (52 - 2 j) for proposals 4 q .. 4 q + 3:
// y < 2^26 and x < 64, so y y and y x are exact 32 x 32-bit products, and the sum is
// y (y + (x << (j + 1))) < 2^59, the integer acceptance_exponent forms.
EXACTDP_AVX2_BMI2 void exponent_products(const HardenedRejectionPlan& plan, std::size_t q, Fields& f) noexcept {
  const std::size_t s = 4 * q;
  const __m256i below = _mm256_cvtepu32_epi64(_mm_load_si128(reinterpret_cast<const __m128i*>(f.below + s)));
  const __m256i x = _mm256_sub_epi64(_mm256_set1_epi64x(static_cast<long long>(plan.half_scan.entries)), below);
  const __m256i y = load4(f.y + s);
  const __m128i up = _mm_cvtsi32_si128(static_cast<int>(plan.j + 1));
  const __m128i scale = _mm_cvtsi32_si128(static_cast<int>(52 - 2 * plan.j));
  const __m256i sum = _mm256_add_epi64(_mm256_mul_epu32(y, y), _mm256_sll_epi64(_mm256_mul_epu32(y, x), up));
  store4(f.x + s, x);
  store4(f.m + s, _mm256_sll_epi64(sum, scale));
  store_low_halves(f.x32 + s, x);
}

// Four proposals as GCC vectors of 64-bit lanes (the operators give the shifts, masks and unsigned
// comparisons, which yield -1 or 0 a lane, never a branch); the products are intrinsics.
using V4 = unsigned long long __attribute__((vector_size(32)));
using Mask4 = long long __attribute__((vector_size(32)));
constexpr unsigned long long kLow32 = 0xFFFFFFFFULL;

EXACTDP_AVX2_BMI2 inline V4 load_v4(const std::uint64_t* p) noexcept { return (V4)load4(p); }
// a b for a, b < 2^32 (the low halves of the lanes).
EXACTDP_AVX2_BMI2 inline V4 product(V4 a, V4 b) noexcept { return (V4)_mm256_mul_epu32((__m256i)a, (__m256i)b); }

// The acceptance count floor(alpha w / 2^80) (acceptance_count, hardened_rejection.h) of four lanes
// on 32-bit limbs: alpha = a2 2^64 + a1 2^32 + a0 (a2 < 2^16), w the same (w2 <= 2^16), the
// products p_ij = a_i w_j < 2^64 summed by column with their carries:
//   c1 = p00 / 2^32 + (p01 mod 2^32) + (p10 mod 2^32) < 3 2^32,
//   c2 = c1 / 2^32 + p01 / 2^32 + p10 / 2^32 + (p11 mod 2^32) + p02 + p20 < 2^50,
//   c3 = p11 / 2^32 + p12 + p21 < 2^50 (floors), so that
//   T = floor(alpha w / 2^64) = c2 + c3 2^32 + p22 2^64 exactly, and the count is floor(T / 2^16)
// as a low and a high word (T < 2^97).
struct Count4 {
  V4 low, high;
};
EXACTDP_AVX2_BMI2 inline Count4 acceptance_count4(V4 alpha_low, V4 alpha_high, V4 width_low, V4 width_high) noexcept {
  const V4 a0 = alpha_low & kLow32, a1 = alpha_low >> 32, a2 = alpha_high;
  const V4 w0 = width_low & kLow32, w1 = width_low >> 32, w2 = width_high;
  const V4 p01 = product(a0, w1), p10 = product(a1, w0), p11 = product(a1, w1);
  const V4 c1 = (product(a0, w0) >> 32) + (p01 & kLow32) + (p10 & kLow32);
  const V4 c2 = (c1 >> 32) + (p01 >> 32) + (p10 >> 32) + (p11 & kLow32) + product(a0, w2) + product(a2, w0);
  const V4 c3 = (p11 >> 32) + product(a1, w2) + product(a2, w1);
  const V4 t_low = c2 + (c3 << 32);
  const V4 carry = (V4)(t_low < c2) & 1;  // the comparison's -1 a lane where the sum wrapped
  const V4 t_high = (c3 >> 32) + product(a2, w2) + carry;
  return {(t_low >> 16) | (t_high << 48), t_high >> 16};
}

// Lanes 4 q .. 4 q + 3 of the uint128 array v as their low and high words.
EXACTDP_AVX2_BMI2 inline void split_words(const uint128* v, V4& low, V4& high) noexcept {
  const __m256i first = _mm256_load_si256(reinterpret_cast<const __m256i*>(v));      // l0 h0 l1 h1
  const __m256i second = _mm256_load_si256(reinterpret_cast<const __m256i*>(v + 2));  // l2 h2 l3 h3
  __m256i l, h;
  deinterleave(first, second, l, h);
  low = (V4)l;
  high = (V4)h;
}

// The decisions and signed values of proposals 4 q .. 4 q + 3 (proposal_decision on four lanes):
// the residual u - T_(x-1) below the count, and never z = 0 with the sign set.
EXACTDP_AVX2_BMI2 void decide(const HardenedRejectionPlan& plan, std::size_t q, Fields& f) noexcept {
  const std::size_t s = 4 * q;
  const BracketWords& b = f.bracket;
  V4 alpha_low, alpha_high;
  split_words(f.alpha + s, alpha_low, alpha_high);
  const Count4 count = acceptance_count4(alpha_low, alpha_high, load_v4(b.width_low + s), load_v4(b.width_high + s));
  const V4 u_low = load_v4(f.u_low + s), base_low = load_v4(b.base_low + s);
  const V4 residual_low = u_low - base_low;
  const V4 residual_high = load_v4(f.u_high + s) - load_v4(b.base_high + s) + (V4)(u_low < base_low);
  const Mask4 below = (residual_high < count.high) | ((residual_high == count.high) & (residual_low < count.low));
  const V4 z = (load_v4(f.x + s) << plan.j) + load_v4(f.y + s);
  const V4 negative = V4{} - load_v4(f.sign + s);  // -1 where the sign bit is set
  const V4 value = (z ^ negative) - negative;
  const V4 accepted = (V4)(below & ~((Mask4)(z == V4{}) & (Mask4)negative)) & 1;
  _mm256_store_si256(reinterpret_cast<__m256i*>(f.value + s), (__m256i)value);
  store4(f.accepted + s, (__m256i)accepted);
}

EXACTDP_AVX2_BMI2 std::size_t group_avx2(const HardenedRejectionPlan& plan, const std::uint64_t* words,
                                         std::size_t count, std::int64_t mean, std::int64_t* out) noexcept {
  Fields f;
  cut_windows(plan, words, f);
  for (std::size_t q = 0; q < kQuads; ++q) cut_fields(plan, q, f);
  const ScanTable& t = plan.half_scan;
  t.count_group(t.digits.data(), t.padded, t.entries, f.digits, f.below);
  for (std::size_t q = 0; q < kQuads; ++q) exponent_products(plan, q, f);
  for (std::size_t s = 0; s < kScanGroup; ++s) f.exponent[s] = exponent_of_m(plan, f.m[s]);
  plan.exp.group(plan.exp, f.exponent, f.alpha);
  select_bracket_words_avx2(plan.brackets, f.x32, f.bracket);
  for (std::size_t q = 0; q < kQuads; ++q) decide(plan, q, f);
  EXACTDP_DECLASSIFY(f.accepted);
  return compact_accepted(f.value, f.accepted, count, mean, out);
}

}  // namespace

RejectionGroupFn rejection_group_avx2() noexcept {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && cpu_level_allows(CpuLevel::kAvx2)
             ? group_avx2
             : nullptr;
}
#else
RejectionGroupFn rejection_group_avx2() noexcept { return nullptr; }
#endif

}  // namespace exactdp::internal
