// The rejection method's group of kScanGroup proposals on x86-64 CPUs with AVX2 and BMI2 but no
// AVX-512 IFMA (chosen when the plan is made: HardenedRejectionPlan::group). The steps of a
// proposal (hardened_rejection.h) run on four proposals a vector of 64-bit lanes where they are
// shifts, masks and small products: the windows (16-byte loads at public offsets of the group's
// bytes), u's digits, y and the sign, the table draws (the group scan of hardened_scan.h),
// M = y (y + 2 k x) 2^(52 - 2 j) (y^2 and y x are 32 x 32-bit products), the brackets as 32-bit
// words (hardened_bracket.h), the acceptance test on 32-bit limbs. H = floor(M R / 2^63) stays
// scalar (two mulx, exponent_of_m), and the exponential is the plan's group evaluation
// (FixedExp52::group). The same exact integers as the portable group (acceptance_count,
// proposal_decision), so the same values and bits (tests/samplers/hardened_rejection_group_test.cc
// runs both on the same streams and on proposals placed on the acceptance boundary). No branch and
// no address depends on a secret; the accept bits are declassified once for the delivery loop
// (hardened_rejection.h).
//
// Lane order: the passes work on eight proposals s .. s + 7 at a time. Where a vector holds them
// as 32-bit lanes (u's digits, the table draws, the brackets), lane 2 i is proposal s + i and lane
// 2 i + 1 proposal s + 4 + i, so that the low halves of its 64-bit lanes are the first four and the
// high halves the other four: a mask or a shift moves them to 64-bit lanes, no permute.
#include <exactdp/samplers/internal/hardened_rejection.h>
#include <exactdp/core/cpu_level.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace exactdp::internal {

#if defined(__x86_64__)
namespace {

#define EXACTDP_AVX2_BMI2 __attribute__((target("avx2,bmi2")))

// Four proposals as GCC vectors of 64-bit lanes (the operators give the shifts, masks, sums and
// comparisons, which yield -1 or 0 a lane, never a branch); the products are intrinsics.
using V4 = unsigned long long __attribute__((vector_size(32)));
constexpr unsigned long long kLow32 = 0xFFFFFFFFULL;

// The fields of the group's proposals: 64-bit arrays in proposal order, 32-bit arrays in the
// lane order above. Each pass writes what a later one reads as whole 32-byte vectors (a vector
// load from narrower stores waits for them to reach the cache).
struct Fields {
  alignas(32) std::uint64_t u_scaled[3][kScanGroup];  // 2^16 u (< 2^96) as three 32-bit limbs
  alignas(32) std::uint64_t y[kScanGroup];
  alignas(32) std::uint64_t sign[kScanGroup];
  alignas(32) std::uint32_t digits[3 * kScanGroup];   // u's 31-bit digits (the group scan's input)
  alignas(32) std::uint32_t below[kScanGroup];
  alignas(32) std::uint32_t x[kScanGroup];
  alignas(32) std::uint64_t m[kScanGroup];             // M (acceptance_exponent)
  alignas(32) std::int64_t value[kScanGroup];          // +-z
  alignas(32) std::uint64_t allowed[kScanGroup];       // 0 for z = 0 with the sign set, else 1
  alignas(32) uint128 exponent[kScanGroup];
  alignas(32) uint128 alpha[kScanGroup];
  alignas(32) std::uint32_t bracket[kBracketPlanes][kScanGroup];  // BracketTable::scaled of x
  alignas(32) std::uint64_t accepted[kScanGroup];
};

EXACTDP_AVX2_BMI2 inline V4 load4(const void* p) noexcept {
  return (V4)_mm256_load_si256(static_cast<const __m256i*>(p));
}
EXACTDP_AVX2_BMI2 inline void store4(void* p, V4 v) noexcept { _mm256_store_si256(static_cast<__m256i*>(p), (__m256i)v); }
// a b for a, b < 2^32 (the low halves of the lanes; the high halves are ignored).
EXACTDP_AVX2_BMI2 inline V4 product(V4 a, V4 b) noexcept { return (V4)_mm256_mul_epu32((__m256i)a, (__m256i)b); }
// The first (low halves) and second (high halves) four proposals of an eight-lane vector.
EXACTDP_AVX2_BMI2 inline V4 first_four(V4 v) noexcept { return v & kLow32; }
EXACTDP_AVX2_BMI2 inline V4 second_four(V4 v) noexcept { return v >> 32; }
// The low 32 bits of the lanes of first and second as one vector in the lane order above.
EXACTDP_AVX2_BMI2 inline void store_eight(std::uint32_t* to, V4 first, V4 second) noexcept {
  store4(to, (V4)_mm256_blend_epi32((__m256i)first, (__m256i)(second << 32), 0xAA));
}

// The last window's 16 bytes lie inside the group's bytes (P <= 81 + 26, first <= 7).
static_assert((7 + (kScanGroup - 1) * (kRejectionWidthBits + 1 + 26)) / 8 + 16 <= 8 * kRejectionGroupWords,
              "a window's bytes inside the group's bytes");

// The windows of proposals s and s + 1 as the 64-bit lanes low, high, low, high: the 16 bytes
// from byte at / 8 (at = s P, public) reversed into a 128-bit number, shifted left by at % 8 (the
// carry between its halves moved up by a byte shift). `bit` holds at, at, next, next (next =
// at + P). Bits 0 .. 120 of each window are the stream's from bit at on (P <= 107 are used), the
// rest zero.
EXACTDP_AVX2_BMI2 inline V4 window_pair(const unsigned char* bytes, std::size_t at, std::size_t next, V4 bit) noexcept {
  const __m256i reverse = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                           10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at / 8));
  const __m128i second = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + next / 8));
  const V4 x = (V4)_mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(first), second, 1), reverse);
  const V4 shift = bit & 7;
  const V4 carry = (V4)_mm256_srlv_epi64((__m256i)x, (__m256i)(64 - shift));
  return (V4)_mm256_sllv_epi64((__m256i)x, (__m256i)shift) | (V4)_mm256_slli_si256((__m256i)carry, 8);
}

// u's three 31-bit digits of four proposals.
struct Digits4 {
  V4 d0, d1, d2;
};

// Proposals s .. s + 3 (the first bit of each at bit 127 of its window high:low, as
// rejection_proposal's): 2^16 u's limbs, the sign and y stored, u's digits returned. u is bits
// 48 .. 127 of the window, so 2^16 u is bits 32 .. 127 with the low 16 cleared.
// `bit` holds at, at, at + P, at + P for at = first + s P (the group's first bit at bit 7 - first
// of bytes[0]).
EXACTDP_AVX2_BMI2 inline Digits4 cut_quad(const HardenedRejectionPlan& plan, const unsigned char* bytes,
                                          unsigned first, std::size_t s, V4 bit, Fields& f) noexcept {
  const std::size_t p = plan.proposal_bits(), at = first + s * p;
  const __m256i pair0 = (__m256i)window_pair(bytes, at, at + p, bit);
  const __m256i pair1 = (__m256i)window_pair(bytes, at + 2 * p, at + 3 * p, bit + 2 * p);
  const V4 low = (V4)_mm256_permute4x64_epi64(_mm256_unpacklo_epi64(pair0, pair1), 0xD8);
  const V4 high = (V4)_mm256_permute4x64_epi64(_mm256_unpackhi_epi64(pair0, pair1), 0xD8);
  store4(f.u_scaled[0] + s, (low >> 32) & 0xFFFF0000ULL);
  store4(f.u_scaled[1] + s, high & kLow32);
  store4(f.u_scaled[2] + s, high >> 32);
  store4(f.sign + s, (low >> 47) & 1);
  store4(f.y + s, (low >> (47 - plan.j)) & ((1ULL << plan.j) - 1));
  const V4 u_low = (high << 16) | (low >> 48), u_high = high >> 48;
  constexpr unsigned long long kDigit = (1ULL << kScanDigitBits) - 1;
  return {u_low & kDigit, (u_low >> kScanDigitBits) & kDigit, (u_low >> (2 * kScanDigitBits)) | (u_high << 2)};
}

// The fields of the group's proposals, eight at a time from the group's bytes, in stream order as
// the Reader copies them (unaligned 16-byte loads at public offsets: a gather of the words, or
// scalar shifts, cost more; gathers are slow or microcode-mitigated on some CPUs), u's digits as the
// group scan reads them.
EXACTDP_AVX2_BMI2 void cut_fields(const HardenedRejectionPlan& plan, const unsigned char* bytes, unsigned first,
                                  Fields& f) noexcept {
  const unsigned long long p = plan.proposal_bits();
  V4 bit = {first, first, first + p, first + p};
  for (std::size_t s = 0; s < kScanGroup; s += 8, bit += 8 * p) {
    const Digits4 low = cut_quad(plan, bytes, first, s, bit, f);
    const Digits4 high = cut_quad(plan, bytes, first, s + 4, bit + 4 * p, f);
    store_eight(f.digits + s, low.d0, high.d0);
    store_eight(f.digits + kScanGroup + s, low.d1, high.d1);
    store_eight(f.digits + 2 * kScanGroup + s, low.d2, high.d2);
  }
}

// For proposals s .. s + 3 with their table draws x: M = (y y + ((y x) << (j + 1))) << (52 - 2 j)
// (y < 2^26 and x < 64, so y y and y x are exact 32 x 32-bit products, and the sum is
// y (y + (x << (j + 1))) < 2^59, the integer acceptance_exponent forms), the signed value +-z,
// z = (x << j) + y, and whether it may be accepted (not z = 0 with the sign set).
EXACTDP_AVX2_BMI2 inline void quad_products(const HardenedRejectionPlan& plan, V4 x, std::size_t s,
                                            Fields& f) noexcept {
  const V4 y = load4(f.y + s);
  const V4 sum = product(y, y) + (product(y, x) << (plan.j + 1));
  store4(f.m + s, sum << (52 - 2 * plan.j));
  const V4 z = (x << plan.j) + y;
  const V4 negative = V4{} - load4(f.sign + s);  // -1 where the sign is set
  store4(f.value + s, (z ^ negative) - negative);
  store4(f.allowed + s, ~((V4)(z == V4{}) & negative) & 1);
}

// The table draws x = entries - below (for the bracket select) and quad_products of the group.
EXACTDP_AVX2_BMI2 void exponent_products(const HardenedRejectionPlan& plan, Fields& f) noexcept {
  const __m256i entries = _mm256_set1_epi32(static_cast<int>(plan.half_scan.entries));
  for (std::size_t s = 0; s < kScanGroup; s += 8) {
    const __m256i below = _mm256_load_si256(reinterpret_cast<const __m256i*>(f.below + s));
    const V4 x = (V4)_mm256_sub_epi32(entries, below);
    store4(f.x + s, x);
    quad_products(plan, first_four(x), s, f);
    quad_products(plan, second_four(x), s + 4, f);
  }
}

// The acceptance test of four proposals: the residual r = u - T_(x-1) below the count
// floor(alpha w / 2^80) (acceptance_count, hardened_rejection.h). On 32-bit limbs: alpha =
// a2 2^64 + a1 2^32 + a0 (a2 < 2^16), w the same (w2 < 2^16), the products p_ij = a_i w_j < 2^64
// summed by column with their carries,
//   c1 = p00 / 2^32 + (p01 mod 2^32) + (p10 mod 2^32) < 3 2^32,
//   c2 = c1 / 2^32 + p01 / 2^32 + p10 / 2^32 + (p11 mod 2^32) + p02 + p20 < 2^50,
//   c3 = p11 / 2^32 + p12 + p21 < 2^50 (floors),
// so that T = floor(alpha w / 2^64) = c2 + c3 2^32 + p22 2^64 exactly. r < floor(T / 2^16) exactly
// when E = T - 2^16 (r + 1) >= 0: with 2^16 u = U2 2^64 + U1 2^32 + U0 and 2^16 T_(x-1) = B2 2^64 +
// B1 2^32 + B0 (32-bit limbs; BracketTable::scaled), E's columns e0 = c2 - U0 + B0 - 2^16,
// e1 = c3 - U1 + B1 + floor(e0 / 2^32), e2 = p22 - U2 + B2 + floor(e1 / 2^32) lie within +-2^51,
// and E >= 0 exactly when e2 >= 0. The floors of the signed e0, e1 are logical shifts of e + 2^34
// (>= 0), less 4.
EXACTDP_AVX2_BMI2 inline V4 accepted4(V4 alpha_low, V4 alpha_high, const V4 (&w)[3], const V4 (&b)[3],
                                      const Fields& f, std::size_t s) noexcept {
  const V4 a0 = alpha_low, a1 = alpha_low >> 32, a2 = alpha_high;
  const V4 p01 = product(a0, w[1]), p10 = product(a1, w[0]), p11 = product(a1, w[1]);
  const V4 c1 = (product(a0, w[0]) >> 32) + (p01 & kLow32) + (p10 & kLow32);
  const V4 c2 = (c1 >> 32) + (p01 >> 32) + (p10 >> 32) + (p11 & kLow32) + product(a0, w[2]) + product(a2, w[0]);
  const V4 c3 = (p11 >> 32) + product(a1, w[2]) + product(a2, w[1]);
  constexpr unsigned long long kOffset = 1ULL << 34;
  const V4 e0 = c2 + b[0] - load4(f.u_scaled[0] + s) + (kOffset - (1ULL << 16));
  const V4 e1 = c3 + b[1] - load4(f.u_scaled[1] + s) + (e0 >> 32) + (kOffset - 4);
  const V4 e2 = product(a2, w[2]) + b[2] - load4(f.u_scaled[2] + s) + (e1 >> 32) - 4;
  return ~(e2 >> 63) & load4(f.allowed + s);  // e2's sign bit clear, and allowed
}

// alpha of proposals s .. s + 3 (uint128 words low, high, low, high) as its low and high words.
EXACTDP_AVX2_BMI2 inline void split_alpha(const uint128* v, V4& low, V4& high) noexcept {
  const __m256i first = _mm256_load_si256(reinterpret_cast<const __m256i*>(v));
  const __m256i second = _mm256_load_si256(reinterpret_cast<const __m256i*>(v + 2));
  low = (V4)_mm256_permute4x64_epi64(_mm256_unpacklo_epi64(first, second), 0xD8);
  high = (V4)_mm256_permute4x64_epi64(_mm256_unpackhi_epi64(first, second), 0xD8);
}

// The decisions of proposals s .. s + 7 from their brackets (eight-lane vectors) and alphas.
EXACTDP_AVX2_BMI2 void decide(std::size_t s, Fields& f) noexcept {
  V4 plane[kBracketPlanes];
#pragma GCC unroll 6
  for (unsigned p = 0; p < kBracketPlanes; ++p) plane[p] = load4(f.bracket[p] + s);
  V4 alpha_low, alpha_high;
  split_alpha(f.alpha + s, alpha_low, alpha_high);
  const V4 w_first[3] = {plane[3], plane[4], plane[5]};  // products read the low halves only
  const V4 b_first[3] = {first_four(plane[0]), first_four(plane[1]), first_four(plane[2])};
  store4(f.accepted + s, accepted4(alpha_low, alpha_high, w_first, b_first, f, s));
  split_alpha(f.alpha + s + 4, alpha_low, alpha_high);
  const V4 w_second[3] = {second_four(plane[3]), second_four(plane[4]), second_four(plane[5])};
  const V4 b_second[3] = {second_four(plane[0]), second_four(plane[1]), second_four(plane[2])};
  store4(f.accepted + s + 4, accepted4(alpha_low, alpha_high, w_second, b_second, f, s + 4));
}

// For each 4-bit accept mask, the 32-bit lanes that move its accepted 64-bit lanes to the front,
// in order (the rest after them).
struct CompactionTable {
  alignas(32) std::int32_t lanes[16][8];
};
constexpr CompactionTable make_compaction_table() {
  CompactionTable t{};
  for (unsigned mask = 0; mask < 16; ++mask) {
    unsigned next = 0;
    for (unsigned pass = 0; pass < 2; ++pass) {
      for (unsigned lane = 0; lane < 4; ++lane) {
        if (((mask >> lane) & 1) != 1 - pass) continue;
        t.lanes[mask][2 * next] = static_cast<std::int32_t>(2 * lane);
        t.lanes[mask][2 * next + 1] = static_cast<std::int32_t>(2 * lane + 1);
        ++next;
      }
    }
  }
  return t;
}
constexpr CompactionTable kCompaction = make_compaction_table();

// compact_accepted (hardened_rejection.h) four proposals at a time while four more fit below
// count: the accepted values (mean added) moved to the front of a vector by a register permute
// chosen by the accept bits (declassified: public), stored whole at out + done (done <= s, so the
// store ends inside out[0 .. count)); the rest one at a time.
EXACTDP_AVX2_BMI2 std::size_t compact_group(const Fields& f, std::size_t count, std::int64_t mean,
                                            std::int64_t* out) noexcept {
  const __m256i shift = _mm256_set1_epi64x(mean);
  std::size_t done = 0, s = 0;
  for (; s + 4 <= count; s += 4) {
    const __m256i accepted = _mm256_load_si256(reinterpret_cast<const __m256i*>(f.accepted + s));
    const auto mask = static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_slli_epi64(accepted, 63))));
    const __m256i lanes = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompaction.lanes[mask]));
    const __m256i value = _mm256_add_epi64(_mm256_load_si256(reinterpret_cast<const __m256i*>(f.value + s)), shift);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + done), _mm256_permutevar8x32_epi32(value, lanes));
    done += static_cast<std::size_t>(__builtin_popcount(mask));
  }
  return done + compact_accepted(f.value + s, f.accepted + s, count - s, mean, out + done);
}

EXACTDP_AVX2_BMI2 std::size_t group_avx2(const HardenedRejectionPlan& plan, const unsigned char* bytes, unsigned first,
                                         std::size_t count, std::int64_t mean, std::int64_t* out) noexcept {
  Fields f;
  cut_fields(plan, bytes, first, f);
  const ScanTable& t = plan.half_scan;
  t.count_group(t.digits.data(), t.padded, t.entries, f.digits, f.below);
  exponent_products(plan, f);
  for (std::size_t s = 0; s < kScanGroup; ++s) f.exponent[s] = exponent_of_m(plan, f.m[s]);
  plan.exp.group(plan.exp, f.exponent, f.alpha);
  select_planes_avx2(plan.brackets.scaled, plan.brackets.blocks, f.x, f.bracket);
  for (std::size_t s = 0; s < kScanGroup; s += 8) decide(s, f);
  EXACTDP_DECLASSIFY(f.accepted);
  return compact_group(f, count, mean, out);
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
