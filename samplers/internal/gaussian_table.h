// internal/gaussian_table.h — the table-driven exact sampler of the centred discrete Gaussian
// D(z) = exp(-z^2 / (2 sigma2)) / N, N = sum_{k in Z} exp(-k^2 / (2 sigma2)) (a theta series),
// for moderate sigma2 (discrete_gaussian.h says which; docs/SPEED.md gives the measurements).
//
// The law, exactly. Slots s = 0 .. 2T are the values z = s - T; slot 2T + 1 is the tail |z| > T.
// Their boundaries are B_i = sum_{s < i} D(s - T), i = 1 .. 2T + 1 (B_0 = 0, B_{2T+2} = 1). A
// uniform real U in [0, 1) given by the bit stream (first bit = 1/2) falls in slot
// #{i : B_i <= U}, which has probability B_{s+1} - B_s = D(s - T): inversion of the exact cdf.
// U is never formed; its bits are drawn only until the slot is certain:
//   * each B_i is stored as a certified interval lo_i <= 2^64 B_i <= hi_i (MPFR, directed
//     rounding: every exp, sum and quotient rounded outward; the theta series N is bounded above
//     by its partial sum plus a geometric bound of the remainder), computed once per parameter;
//   * with the first `len` bits u of U known, U lies in [u, u + 1) 2^-len; the slot is decided
//     when #{i : hi_i <= u 2^(64-len)} = #{i : lo_i < (u + 1) 2^(64-len)} (every boundary is then
//     certainly on one side of every point of that interval). A guide table holds this decision
//     for every prefix of `guide_bits` bits; an undecided prefix draws one more bit at a time;
//   * after 64 bits, an undecided boundary (U within the uncertainty interval of B_i, probability
//     about 2^-60 per boundary) is compared exactly: B_i is recomputed as an MPFR interval at
//     128, 256, ... bits while U is extended by as many bits, until the interval of U lies
//     entirely on one side (Ziv's strategy). Every decision is a proven inequality between U and
//     B_i, so the slot returned is always the true slot of U; U = B_i has probability 0, so the
//     loop ends with probability 1 (expected O(1) rounds).
//   * the tail slot (probability below 2^-64 with the default T) draws |Z| = T + 1 + J exactly
//     from D conditioned on |Z| > T: J ~ Geometric, P[J = j] ~ exp(-j (T + 1) / sigma2) (CKS20
//     Alg. 2's geometric, integers only) accepted with probability exp(-j^2 / (2 sigma2))
//     (CKS20 Alg. 1), so P[J = j] ~ exp(-((T + 1 + j)^2 - (T + 1)^2) / (2 sigma2)); then a fair
//     sign. Hence the output law is D exactly, whatever T and whatever the stored precision
//     (tests build coarse tables and short T to exercise both escapes).
// Bits: guide_bits per draw plus, with probability about (2T + 2) 2^-guide_bits, ~2 more.
// Allocation: none per draw except in the two rare escapes (MPFR/GMP scratch).
// Thread-safety: immutable after build(); share freely.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::internal {

struct GaussianTableOptions {
  // Test knobs. bound_bits < 64 coarsens every stored bound outward to a multiple of
  // 2^(64 - bound_bits), so that the exact refinement runs often (the law stays exact).
  unsigned bound_bits = 64;
  // max_abs >= 0 sets T (the tail then has large probability); -1: the default T, the least
  // T with T^2 >= 90 sigma2 (so P[|Z| > T] < 2^-64).
  std::int64_t max_abs = -1;
  // false is a DELIBERATELY BROKEN sampler for the tests' power checks: an undecided draw takes
  // the lower slot instead of being refined.
  bool refine = true;
};

class GaussianTable {
 public:
  // The largest sigma2 served by the table by default (measured, docs/SPEED.md).
  static constexpr unsigned long kMaxSigma2 = 10000;
  // nullptr when sigma2 is outside the table's range (2^-20 <= sigma2 <= kMaxSigma2 with
  // numerator and denominator of at most 256 bits each) and no options force it.
  [[nodiscard]] static std::shared_ptr<const GaussianTable> build(const mpq_class& sigma2);
  // Always builds (tests); requires 0 < sigma2 <= 2^20 and max_abs <= 30000.
  [[nodiscard]] static std::shared_ptr<const GaussianTable> build(const mpq_class& sigma2,
                                                                  const GaussianTableOptions& options);

  // One draw of Z ~ D: returns |Z| and sets `negative` (never true for 0).
  [[nodiscard]] uint128 draw(BitSource& bits, bool& negative) const {
    const std::uint64_t prefix = bits.bits(guide_bits_);
    std::uint32_t slot = guide_[prefix];  // uint16 entries: kUndecided is 0xffff
    if (slot == kUndecided) slot = locate(bits, prefix);
    if (slot <= 2 * static_cast<std::uint64_t>(max_abs_)) {
      const std::int64_t z = static_cast<std::int64_t>(slot) - max_abs_;
      negative = z < 0;
      return static_cast<uint128>(z < 0 ? -z : z);
    }
    return draw_tail(bits, negative);
  }

  [[nodiscard]] std::int64_t max_abs() const noexcept { return max_abs_; }
  [[nodiscard]] unsigned guide_bits() const noexcept { return guide_bits_; }
  // Stored bounds of 2^64 B_i, i = 1 .. 2T + 1 (index i - 1).
  [[nodiscard]] const std::vector<uint128>& lower() const noexcept { return lo_; }
  [[nodiscard]] const std::vector<uint128>& upper() const noexcept { return hi_; }
  // Exact comparison U < B_i (i = 1 .. 2T + 1) for U whose first `len` bits are `u`, extending u
  // from `bits` as needed (the refinement step; public for tests).
  [[nodiscard]] bool below_boundary(BitSource& bits, mpz_class& u, unsigned long& len,
                                    std::size_t i) const;

 private:
  static constexpr std::uint32_t kUndecided = 0xffffU;
  GaussianTable() = default;
  std::uint32_t locate(BitSource& bits, std::uint64_t prefix) const;
  std::uint32_t refine(BitSource& bits, std::uint64_t u64, std::uint32_t first, std::uint32_t last) const;
  uint128 draw_tail(BitSource& bits, bool& negative) const;

  mpq_class sigma2_;
  std::int64_t max_abs_ = 0;  // T
  unsigned guide_bits_ = 0;
  bool refine_ = true;
  std::vector<uint128> lo_, hi_;       // nondecreasing
  std::vector<std::uint16_t> guide_;   // slot of each guide_bits prefix, or kUndecided
};

}  // namespace exactdp::internal
