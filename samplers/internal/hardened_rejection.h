// internal/hardened_rejection.h — the hardened discrete Gaussian by rejection (not installed):
// Hardening::method == HardenedMethod::kRejection, for 2^10 <= sigma2 < 2^56 and
// tau_bits <= 64 (hardened_discrete_gaussian.h; elsewhere the fixed-work convolution).
//
// Law (docs/HARDENED.md, "The rejection method"): sigma2 = 4^j s0 with the integer j chosen so
// that 4 <= s0 < 16 (s0 = sigma0^2, exact rational), k = 2^j. One proposal:
//   x ~ the half discrete Gaussian on {0, 1, ...} of variance parameter s0, from an 80-bit uniform u
//       and a table T (x = #{i : u >= T_i}, scanned whole: internal/hardened_scan.h),
//   y uniform on [0, k), a sign bit b, z = k x + y;
//   accept with probability exp(-y (y + 2 k x) / (2 sigma2)) (= rho_sigma(z) / rho_sigma0(x) <= 1):
//       alpha = that probability in 80-bit fixed point (internal/fixed_exp52.h); accept when the
//       residual r = u - T_(x-1), uniform on [0, w_x) given x (internal/hardened_bracket.h), is
//       below floor(alpha w_x / 2^80), and reject z = 0 with b = 1;
// else draw a new proposal. The output is mean + (b ? -z : z).
// Exactness: with exact tables and exact acceptance the accepted value follows D_{Z, sigma}
// exactly (rejection sampling: proposal weight rho_sigma0(x) / k, acceptance rho_sigma(z) /
// rho_sigma0(x)). The table's distance delta_b, alpha's error (E = kFixedExp52AlphaErrorUnits units
// of 2^-80, and H's) and the residual's floor (at most 1 / w_x given x: (K + 1) 2^-80 on average) give
// tau_upper = (2 delta_b + (E + 1) 2^-80 + (K + 1) 2^-80) / A_lower, A_lower a certified lower bound of
// the acceptance rate A ~ 0.83 .. 0.9.
// Random bits: P = 81 + j a proposal (kRejectionWidthBits + 1 + j), in stream order u (most
// significant bit first), b, y. 1 / A proposals a draw on average (118 bits at sigma2 = 2^36).
// Timing: every proposal executes the same instructions and reads the same bits; the number of
// proposals is geometric and, for the exact law, INDEPENDENT of the accepted value (the standard
// property of rejection sampling; for the fixed-point law the pair (count, value) is within
// tau_upper of that, the proof in docs/HARDENED.md). So time reveals nothing about the output.
// The accept bit is the only branch; the valgrind test declassifies it (ctgrind_probe).
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/fixed_exp52.h>
#include <exactdp/samplers/internal/hardened_bracket.h>
#include <exactdp/samplers/internal/hardened_scan.h>
#include <exactdp/samplers/internal/hardened_tables.h>

// The accept bits are the one value the rejection method branches on; they are independent of the
// accepted output (above), so the valgrind constant-time test is told they are public.
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define EXACTDP_DECLASSIFY(v) VALGRIND_MAKE_MEM_DEFINED(&(v), sizeof(v))
#else
#define EXACTDP_DECLASSIFY(v) ((void)0)
#endif

namespace exactdp::internal {

inline constexpr long kRejectionMinSigma2Log2 = 10;
inline constexpr long kRejectionMaxSigma2Log2 = 56;
inline constexpr unsigned kRejectionMaxTauBits = 64;
inline constexpr unsigned kRejectionWidthBits = 80;  // the half table's thresholds and u
inline constexpr long kRejectionTailLog2 = -72;      // the half table's cut tail

struct HardenedRejectionPlan;
// The group of `count` <= kScanGroup proposals whose bits start at bit `first` (0 .. 7) of bytes[0],
// in stream order (one read, BitSource::Reader::stream_bytes: bit i of the group at bit
// 7 - (first + i) % 8 of bytes[(first + i) / 8]; 8 kRejectionGroupWords bytes, zeros around the
// bits, no alignment asked): writes the accepted values (mean added) to out in order and returns
// how many.
using RejectionGroupFn = std::size_t (*)(const HardenedRejectionPlan& plan, const unsigned char* bytes, unsigned first,
                                         std::size_t count, std::int64_t mean, std::int64_t* out) noexcept;
inline constexpr std::size_t kRejectionGroupWords = 64;

struct HardenedRejectionPlan {
  unsigned j = 0;            // k = 2^j, 3 <= j <= 26
  mpq_class sigma0_squared;  // s0 = sigma2 / 4^j, 4 <= s0 < 16
  FixedWidth width;          // kRejectionWidthBits
  ThresholdTable half;       // the half discrete Gaussian of s0
  ScanTable half_scan;
  BracketTable brackets;     // (T_(x-1), w_x) of the half table
  // The same brackets as 64-bit words for the whole-group kernel's register permutes: the low and
  // high words of T_(x-1), then of w_x, entries past K zero.
  alignas(64) std::uint64_t bracket_words[4][kMaxBracketEntries] = {};
  uint128 log2e_over_two_s0 = 0;  // round(2^128 log2(e) / (2 s0)), < 2^127
  FixedExp52 exp;
  mpq_class table_tv_upper;      // delta_b
  mpq_class acceptance_lower;    // A_lower
  mpq_class tau_upper;           // (2 delta_b + (E + 1 + K + 1) 2^-80) / A_lower
  // The whole-group kernel of this CPU (rejection_group_ifma, else rejection_group_avx2), nullptr
  // for the portable group (scan, exponential and select each with their own CPU choice): the same
  // values and bits.
  RejectionGroupFn group = nullptr;
  // The bits of one proposal: 81 + j.
  [[nodiscard]] unsigned proposal_bits() const noexcept { return kRejectionWidthBits + 1 + j; }
};

// Whether the rejection method covers sigma2 (exact rational) at tau_bits.
[[nodiscard]] bool rejection_covers(const mpq_class& sigma2, unsigned tau_bits);

// The plan for sigma2 (rejection_covers(sigma2, ...) must hold; std::logic_error otherwise).
[[nodiscard]] HardenedRejectionPlan make_rejection_plan(const mpq_class& sigma2);

// alpha = floor(2^80 exp(-y (y + 2 k x) / (2 sigma2))) as the fixed-point code computes it
// (x <= the half table's entries, y < k):
//   exp(-gamma) = 2^-h, h = gamma log2(e) = M R / 2^180 with M = y (y + 2 k x) 2^(52 - 2 j)
//   < 121 2^52 and R = round(2^128 log2(e) / (2 s0)) < 2^127; H = floor(M R / 2^63) = h 2^117 (to
//   within 2^-117 in h), below 2^122 (h < 121 log2(e) / 8 < 22); then fixed_exp52.h.
// acceptance_exponent is H, acceptance_fraction alpha; the batch evaluates a group's alphas at
// once (FixedExp52::group: AVX-512 IFMA where the CPU has it, the same bits).
// exponent_of_m is H from M (the AVX2 group computes M on vector lanes, acceptance_exponent below):
// with R = R1 2^64 + R0, H = M (2 R1) + floor((2 M) R0 / 2^64), two 64 x 64-bit products and no
// shift (2 R1 < 2^64 as R < 2^127, 2 M < 2^60).
[[gnu::always_inline]] inline uint128 exponent_of_m(const HardenedRejectionPlan& plan, std::uint64_t m) noexcept {
  const auto twice_high = static_cast<std::uint64_t>(plan.log2e_over_two_s0 >> 64) << 1;
  const auto low = static_cast<std::uint64_t>(plan.log2e_over_two_s0);
  return uint128{m} * twice_high + static_cast<std::uint64_t>((uint128{m << 1} * low) >> 64);
}
[[gnu::always_inline]] inline uint128 acceptance_exponent(const HardenedRejectionPlan& plan, std::uint64_t x,
                                                          std::uint64_t y) noexcept {
  return exponent_of_m(plan, (y * (y + (x << (plan.j + 1)))) << (52 - 2 * plan.j));
}
[[gnu::always_inline]] inline uint128 acceptance_fraction(const HardenedRejectionPlan& plan, std::uint64_t x,
                                                          std::uint64_t y) noexcept {
  return fixed_exp52_alpha(acceptance_exponent(plan, x, y), plan.exp);
}

// floor(alpha w / 2^80) for alpha <= 2^80 and w <= 2^80, exactly: with alpha = a1 2^64 + a0 and
// w = w1 2^64 + w0 (a1, w1 <= 2^16), alpha w = a1 w1 2^128 + (a1 w0 + a0 w1) 2^64 + a0 w0, and
// floor(alpha w / 2^80) = floor((a1 w1 2^64 + a1 w0 + a0 w1 + floor(a0 w0 / 2^64)) / 2^16), the sum
// below 2^98 (no wrap). The residual r (uniform on [0, w) given x) is accepted when below it.
[[gnu::always_inline]] inline uint128 acceptance_count(uint128 alpha, uint128 w) noexcept {
  const auto a1 = static_cast<std::uint64_t>(alpha >> 64), a0 = static_cast<std::uint64_t>(alpha);
  const auto w1 = static_cast<std::uint64_t>(w >> 64), w0 = static_cast<std::uint64_t>(w);
  const uint128 sum = (uint128{a1 * w1} << 64) + uint128{a1} * w0 + uint128{a0} * w1 +
                      static_cast<std::uint64_t>((uint128{a0} * w0) >> 64);
  return sum >> 16;
}

// The decision of a proposal given its fields (x, y, the sign bit, u) and x's alpha and bracket
// (T_(x-1), w_x): 1 when the residual u - T_(x-1) is below acceptance_count(alpha, w_x) and not
// z = 0 with the sign set, else 0; *value = +-z, z = k x + y. Branch-free (the portable paths' last
// step; the AVX2 group computes the same on vector lanes).
[[gnu::always_inline]] inline std::uint64_t proposal_decision(const HardenedRejectionPlan& plan, std::uint64_t x,
                                                              std::uint64_t y, std::uint64_t sign, uint128 u,
                                                              uint128 alpha, uint128 base, uint128 width,
                                                              std::int64_t* value) noexcept {
  const uint128 residual = u - base;  // < w_x < 2^81
  const auto below_acceptance = static_cast<std::uint64_t>((residual - acceptance_count(alpha, width)) >> 127);
  const std::uint64_t z = (x << plan.j) + y;
  const std::uint64_t zero = 1 ^ ((z | (0 - z)) >> 63);
  *value = ct_negate_if(static_cast<std::int64_t>(z), sign);
  return below_acceptance & (1 ^ (zero & sign));
}

// The accepted values among the first `count` of a group (accepted[s] 0 or 1, declassified by
// the caller), mean added, in order into out; returns how many. Every value is written, the next
// one over it if rejected (done <= s < count: inside out). The portable and AVX2 groups' last step.
[[gnu::always_inline]] inline std::size_t compact_accepted(const std::int64_t* value, const std::uint64_t* accepted,
                                                           std::size_t count, std::int64_t mean,
                                                           std::int64_t* out) noexcept {
  std::size_t done = 0;
  for (std::size_t s = 0; s < count; ++s) {
    out[done] = value[s] + mean;
    done += accepted[s];
  }
  return done;
}

// The acceptance count of (x, y) as a draw computes it: floor(alpha w_x / 2^80), so that a
// proposal (x, y) is accepted with probability acceptance_count / w_x (for the exact-law test).
[[nodiscard]] uint128 acceptance_count(const HardenedRejectionPlan& plan, std::uint64_t x, std::uint64_t y) noexcept;

// One proposal from its P = proposal_bits() bits, the first bit of the stream at bit 127 of
// `window` (u = window >> 48, b = bit 47, y = the j bits below b; the low 128 - P bits are
// ignored): writes the signed value to *value and returns 1 if accepted, else 0. Branch-free, no
// secret address.
[[nodiscard]] std::uint64_t rejection_proposal(const HardenedRejectionPlan& plan, uint128 window,
                                               std::int64_t* value) noexcept;

// One draw: proposals until one is accepted. mean + value.
[[nodiscard]] std::int64_t draw_hardened_rejection(BitSource& bits, const HardenedRejectionPlan& plan,
                                                   std::int64_t mean) noexcept;

// The AVX-512 IFMA whole-group kernel (hardened_rejection_ifma.cc) where the CPU has it, else nullptr.
[[nodiscard]] RejectionGroupFn rejection_group_ifma() noexcept;
// The AVX2 group (hardened_rejection_avx2.cc: AVX2 and BMI2, the exponential through the plan's
// FixedExp52::group) where the CPU has them, else nullptr. A plan takes the IFMA kernel, else this.
[[nodiscard]] RejectionGroupFn rejection_group_avx2() noexcept;

// n draws into out: exactly the values and the bits of n successive draws (the accepted
// proposals of the same stream, in order): kScanGroup proposals at a time (one group scan of the
// table) while at least kScanGroup draws are left, so that every accepted proposal of a group is
// delivered; then one group of exactly m proposals when m (>= 8) draws are left; then one at a time.
void draw_hardened_rejection_n(BitSource& bits, const HardenedRejectionPlan& plan, std::int64_t mean,
                               std::int64_t* out, std::size_t n) noexcept;

}  // namespace exactdp::internal
