// internal/hardened_rejection.h — the hardened discrete Gaussian by rejection (not installed):
// Hardening::method == HardenedMethod::kRejection, for 2^10 <= sigma2 < 2^56 and
// tau_bits <= 64 (hardened_discrete_gaussian.h; elsewhere the fixed-work convolution).
//
// Law (docs/HARDENED.md, "The rejection method"): sigma2 = 4^j s0 with the integer j chosen so
// that 4 <= s0 < 16 (s0 = sigma0^2, exact rational), k = 2^j. One proposal:
//   x ~ the half discrete Gaussian on {0, 1, ...} of variance parameter s0 (a W = 80-bit table,
//       scanned whole: internal/hardened_scan.h),
//   y uniform on [0, k), a sign bit b, z = k x + y;
//   accept with probability exp(-y (y + 2 k x) / (2 sigma2)) (= rho_sigma(z) / rho_sigma0(x) <= 1),
//       computed in fixed point (internal/fixed_exp.h) and compared with an 80-bit uniform,
//       and reject z = 0 with b = 1;
// else draw a new proposal. The output is mean + (b ? -z : z).
// Exactness: with exact tables and exact acceptance the accepted value follows D_{Z, sigma}
// exactly (rejection sampling: proposal weight rho_sigma0(x) / k, acceptance rho_sigma(z) /
// rho_sigma0(x)). The table's distance delta_b and the acceptance error eps_a <= 2^-74 give
// tau_upper = (2 delta_b + eps_a) / A_lower, A_lower a certified lower bound of the acceptance
// rate A ~ 0.83 .. 0.9.
// Random bits: 192 a proposal, three 64-bit words in stream order: w0 = the table uniform's low 64
// bits; w1 = the acceptance uniform's low 64 bits; w2 = the table uniform's top 16 bits, the
// acceptance uniform's top 16 bits, the sign b, 5 unused bits, then y in the low j bits.
// 1 / A proposals a draw on average (230 bits at sigma2 = 2^36).
// Timing: every proposal executes the same instructions and reads the same bits; the number of
// proposals is geometric and, for the exact law, INDEPENDENT of the accepted value (the standard
// property of rejection sampling; for the fixed-point law the pair (count, value) is within
// tau_upper of that, the proof in docs/HARDENED.md). So time reveals nothing about the output.
// The accept bit is the only branch; the valgrind test declassifies it (ctgrind_probe).
#pragma once

#include <gmpxx.h>

#include <cstdint>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/internal/fixed_exp.h>
#include <exactdp/samplers/internal/hardened_scan.h>
#include <exactdp/samplers/internal/hardened_tables.h>

namespace exactdp::internal {

inline constexpr long kRejectionMinSigma2Log2 = 10;
inline constexpr long kRejectionMaxSigma2Log2 = 56;
inline constexpr unsigned kRejectionMaxTauBits = 64;
inline constexpr unsigned kRejectionWidthBits = 80;  // the half table's thresholds
inline constexpr long kRejectionTailLog2 = -72;      // the half table's cut tail

struct HardenedRejectionPlan {
  unsigned j = 0;            // k = 2^j, 3 <= j <= 26
  mpq_class sigma0_squared;  // s0 = sigma2 / 4^j, 4 <= s0 < 16
  FixedWidth width;          // kRejectionWidthBits
  ThresholdTable half;       // the half discrete Gaussian of s0
  ScanTable half_scan;
  uint128 log2e_over_two_s0 = 0;  // round(2^128 log2(e) / (2 s0)), < 2^127
  FixedExpTables exp;
  mpq_class table_tv_upper;      // delta_b
  mpq_class acceptance_lower;    // A_lower
  mpq_class tau_upper;           // (2 delta_b + 2^-74) / A_lower
};

// Whether the rejection method covers sigma2 (exact rational) at tau_bits.
[[nodiscard]] bool rejection_covers(const mpq_class& sigma2, unsigned tau_bits);

// The plan for sigma2 (rejection_covers(sigma2, ...) must hold; std::logic_error otherwise).
[[nodiscard]] HardenedRejectionPlan make_rejection_plan(const mpq_class& sigma2);

// floor(2^80 exp(-y (y + 2 k x) / (2 sigma2))) as the fixed-point code computes it (x <= the half
// table's entries, y < k): a proposal (x, y) is accepted when its 80-bit uniform is below it.
//   exp(-gamma) = 2^-h, h = gamma log2(e) = M R / 2^180 with M = y (y + 2 k x) 2^(52 - 2 j)
//   < 121 2^52 and R = round(2^128 log2(e) / (2 s0)) < 2^127; H = floor(M R / 2^63) = h 2^117 (to
//   within 2^-117 in h), below 2^122 (h < 121 log2(e) / 8 < 22); then fixed_exp.h.
// acceptance_exponent is H, acceptance_threshold the whole; the batch selects the table entries
// of a group at once (FixedExpTables::select_group) and finishes with fixed_exp2_neg_at.
[[gnu::always_inline]] inline uint128 acceptance_exponent(const HardenedRejectionPlan& plan, std::uint64_t x,
                                                          std::uint64_t y) noexcept {
  const std::uint64_t m = (y * (y + (x << (plan.j + 1)))) << (52 - 2 * plan.j);
  const uint128 high = uint128{m} * static_cast<std::uint64_t>(plan.log2e_over_two_s0 >> 64);
  const uint128 low = uint128{m} * static_cast<std::uint64_t>(plan.log2e_over_two_s0);
  return (high << 1) + (low >> 63);
}
[[gnu::always_inline]] inline uint128 acceptance_threshold(const HardenedRejectionPlan& plan, std::uint64_t x,
                                                           std::uint64_t y) noexcept {
  return fixed_exp2_neg(acceptance_exponent(plan, x, y), plan.exp) >> 47;
}

// One proposal from the three words w0, w1, w2 (192 bits): writes the signed value to *value and
// returns 1 if accepted, else 0. Branch-free, no secret address.
[[nodiscard]] std::uint64_t rejection_proposal(const HardenedRejectionPlan& plan, std::uint64_t w0, std::uint64_t w1,
                                               std::uint64_t w2, std::int64_t* value) noexcept;

// One draw: proposals until one is accepted. mean + value.
[[nodiscard]] std::int64_t draw_hardened_rejection(BitSource& bits, const HardenedRejectionPlan& plan,
                                                   std::int64_t mean) noexcept;

// n draws into out: exactly the values and the bits of n successive draws (the accepted
// proposals of the same stream, in order): kScanGroup proposals at a time (one group scan of the
// table) while at least kScanGroup draws are left, so that every accepted proposal of a group is
// delivered, then one at a time.
void draw_hardened_rejection_n(BitSource& bits, const HardenedRejectionPlan& plan, std::int64_t mean,
                               std::int64_t* out, std::size_t n) noexcept;

}  // namespace exactdp::internal
