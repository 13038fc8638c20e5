// internal/symmetric_table.h — the table-driven exact sampler of a centred symmetric law on Z,
// D(z) = w(z) / N, N = sum_{k in Z} w(k), for
//   the discrete Gaussian  w(z) = exp(-z^2 / (2 sigma2))   (N is a theta series), and
//   the discrete Laplace   w(z) = exp(-|z| / scale),
// for moderate parameters (discrete_gaussian.h / discrete_laplace.h say which;
// docs/BENCHMARK_HISTORY.md gives the measurements that chose the ranges).
//
// The law, exactly. Slots s = 0 .. 2T are the values z = s - T; slot 2T + 1 is the tail |z| > T.
// Their boundaries are B_i = sum_{s < i} D(s - T), i = 1 .. 2T + 1 (B_0 = 0, B_{2T+2} = 1). A
// uniform real U in [0, 1) given by the bit stream (first bit = 1/2) falls in slot
// #{i : B_i <= U}, which has probability B_{s+1} - B_s = D(s - T): inversion of the exact cdf.
// U is never formed; its bits are drawn only until the slot is certain:
//   * each B_i is stored as a certified interval lo_i <= 2^64 B_i <= hi_i (MPFR, directed
//     rounding: every exp, sum and quotient rounded outward; N is bounded above by its partial
//     sum to K plus the geometric bound w(K) r / (1 - r) of the remainder, r = exp(-K / sigma2)
//     (Gaussian: (K + j)^2 >= K^2 + 2 K j) or exp(-1 / scale) (Laplace: exact ratio)),
//     computed once per parameter object;
//   * with the first `len` bits u of U known, U lies in [u, u + 1) 2^-len; the slot is decided
//     when #{i : hi_i <= u 2^(64-len)} = #{i : lo_i < (u + 1) 2^(64-len)} (every boundary is then
//     certainly on one side of every point of that interval). A guide table holds this decision
//     for every prefix of `guide_bits` bits; an undecided prefix draws one more bit at a time
//     (the inversion machinery is internal::CumulativeTable, cumulative_table.h, shared with
//     the bucket sampler);
//   * after 64 bits, an undecided boundary (U within the uncertainty interval of B_i, probability
//     about 2^-60 per boundary) is compared exactly: B_i is recomputed as an MPFR interval at
//     128, 256, ... bits while U is extended by as many bits, until the interval of U lies
//     entirely on one side (Ziv's strategy). Every decision is a proven inequality between U and
//     B_i, so the slot returned is always the true slot of U; U = B_i has probability 0, so the
//     loop ends with probability 1 (expected O(1) rounds).
//   * the tail slot (probability below 2^-64 with the default T) draws |Z| = T + 1 + J exactly
//     from D conditioned on |Z| > T, then a fair sign (both tails have the same mass).
//     Gaussian: J ~ Geometric, P[J = j] ~ exp(-j (T + 1) / sigma2) (CKS20 Alg. 2's geometric,
//     integers only) accepted with probability exp(-j^2 / (2 sigma2)) (CKS20 Alg. 1), so
//     P[J = j] ~ exp(-((T + 1 + j)^2 - (T + 1)^2) / (2 sigma2)). Laplace: the law is memoryless,
//     J ~ Geometric(1 - exp(-1 / scale)) by the same construction, no acceptance step.
//     Hence the output law is D exactly, whatever T and whatever the stored precision (tests
//     build coarse tables and short T to exercise both escapes).
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
#include <exactdp/samplers/internal/cumulative_table.h>

namespace exactdp::internal {

struct SymmetricTableOptions {
  // Test knobs. bound_bits < 64 coarsens every stored bound outward to a multiple of
  // 2^(64 - bound_bits), so that the exact refinement runs often (the law stays exact).
  unsigned bound_bits = 64;
  // max_abs >= 0 sets T (the tail then has large probability); -1: the default T, the least
  // T >= 1 with w(T) <= exp(-45) (T^2 >= 90 sigma2, T >= 45 scale), so P[|Z| > T] < 2^-64.
  std::int64_t max_abs = -1;
  // false is a DELIBERATELY BROKEN sampler for the tests' power checks: an undecided draw takes
  // the lower slot instead of being refined.
  bool refine = true;
};

class SymmetricTable {
 public:
  enum class Shape { kGaussian, kLaplace };
  // The default ranges (measured, docs/BENCHMARK_HISTORY.md "Speed"): the table serves
  // 2^-20 <= sigma2 <= kMaxSigma2 and 2^-20 <= scale <= kMaxScale, numerator and denominator of
  // at most 256 bits each; outside them build_* returns nullptr (the CKS20 path serves them).
  static constexpr unsigned long kMaxSigma2 = 10000;
  static constexpr unsigned long kMaxScale = 50;
  [[nodiscard]] static std::shared_ptr<const SymmetricTable> build_gaussian(const mpq_class& sigma2);
  [[nodiscard]] static std::shared_ptr<const SymmetricTable> build_laplace(const mpq_class& scale);
  // Always builds (tests); requires 0 < parameter <= 2^20 and a T (default or max_abs) <= 30000.
  [[nodiscard]] static std::shared_ptr<const SymmetricTable> build(Shape shape, const mpq_class& parameter,
                                                                   const SymmetricTableOptions& options);

  // One draw of Z ~ D: returns |Z| and sets `negative` (never true for 0).
  [[nodiscard]] uint128 draw(BitSource& bits, bool& negative) const {
    const std::uint32_t slot = cdf_->draw(bits);
    if (slot <= 2 * static_cast<std::uint64_t>(max_abs_)) {
      const std::int64_t z = static_cast<std::int64_t>(slot) - max_abs_;
      negative = z < 0;
      return static_cast<uint128>(z < 0 ? -z : z);
    }
    return draw_tail(bits, negative);
  }

  [[nodiscard]] std::int64_t max_abs() const noexcept { return max_abs_; }
  [[nodiscard]] unsigned guide_bits() const noexcept { return cdf_->guide_bits(); }
  // Stored bounds of 2^64 B_i, i = 1 .. 2T + 1 (index i - 1).
  [[nodiscard]] const std::vector<uint128>& lower() const noexcept { return cdf_->lower(); }
  [[nodiscard]] const std::vector<uint128>& upper() const noexcept { return cdf_->upper(); }

 private:
  SymmetricTable() = default;
  uint128 draw_tail(BitSource& bits, bool& negative) const;

  Shape shape_ = Shape::kGaussian;
  mpq_class param_;           // sigma2 or scale
  std::int64_t max_abs_ = 0;  // T
  // Inversion of the cdf (guide table, certified bounds, exact refinement).
  std::unique_ptr<const CumulativeTable> cdf_;
};

}  // namespace exactdp::internal
