// hardened_discrete_laplace.h — sample_discrete_laplace with HardenedDiscreteLaplaceParams: the
// isochronous discrete Laplace. Every call executes the same instructions, touches the same
// memory and reads the same number of random bits (bits_per_sample()), whatever the output and
// whatever the random bits; its law is within a certified total-variation distance tau of the
// exact law (hardening.h): tau_upper() <= 2^-tau_bits, 2^-64 by default.
//
// Law (docs/HARDENED.md): X = mean + S B (1 + G): B ~ Bernoulli(2 rho / (1 + rho)) says X != mean,
// G ~ Geometric (P[G = g] = (1 - rho) rho^g, rho = exp(-1/scale)) is |X - mean| - 1, S a fair
// sign; then P[X = x] = (1 - rho) / (1 + rho) rho^|x - mean| exactly. The binary digits of G are
// independent: P[G = g] ~ prod_i (rho^(2^i))^(g_i), so digit i is Bernoulli(q_i),
// q_i = 1 / (1 + exp(2^i / scale)) (and 2 rho / (1 + rho) = 2 q_0). A draw compares K + 1 fresh
// uniform W-bit numbers with the thresholds round(2^W 2 q_0), round(2^W q_i) for i < K
// (W = tau_bits + 16; K the least K >= 1 with rho^(2^K) <= 2^-(tau_bits + 8)).
// Exactness: tau_upper() = sum over the K + 1 thresholds of |T / 2^W - p| + rho^(2^K) (a draw
// differs from the exact one only if one of its Bernoulli draws does or G >= 2^K), computed with
// MPFR and directed rounding when the parameters are built.
// Random bits: exactly (K + 1) W + 1 per sample (801 at scale 10, default tau).
// Time: fixed: K + 1 comparisons of W-bit numbers; K <= 37 for scale <= 10^9, K <= 57 for 2^50.
// Timing: isochronous given a BitSource whose refills are data-independent (both sources here
//   are); see hardened_discrete_gaussian.h and SECURITY.md.
// Range: 1/100 <= scale <= 2^50 (hardening.h, kHardenedMaxScaleLog2) with numerator and
//   denominator below 2^128, |mean| <= 2^62; otherwise make() throws ParameterError naming scale
//   (with the range) or mean (never a silent fallback). |X - mean| <= 2^57 on every draw.
// Thread-safety: params are immutable and shareable; a BitSource is one per thread.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <memory>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/hardening.h>

namespace exactdp {

namespace internal {
struct HardenedLaplacePlan;  // samplers/internal/hardened_plans.h
}  // namespace internal

class HardenedDiscreteLaplaceParams {
 public:
  [[nodiscard]] static HardenedDiscreteLaplaceParams make(const mpq_class& scale,
                                                          const mpz_class& mean = 0,
                                                          Hardening hardening = {});
  [[nodiscard]] const mpq_class& scale() const noexcept { return scale_; }
  [[nodiscard]] std::int64_t mean() const noexcept { return mean_; }
  [[nodiscard]] unsigned tau_bits() const noexcept { return tau_bits_; }
  // Certified: TV(law of this sampler, the discrete Laplace law) <= tau_upper() <= 2^-tau_bits.
  [[nodiscard]] const mpq_class& tau_upper() const noexcept { return tau_upper_; }
  [[nodiscard]] std::uint64_t bits_per_sample() const noexcept;
  // The sampler's table (internal/hardened_plans.h; tests compute the exact law of the
  // hardened sampler from it).
  [[nodiscard]] const internal::HardenedLaplacePlan& plan() const noexcept { return *plan_; }

 private:
  HardenedDiscreteLaplaceParams() = default;
  mpq_class scale_;
  std::int64_t mean_ = 0;
  unsigned tau_bits_ = kDefaultTauBits;
  mpq_class tau_upper_;
  std::shared_ptr<const internal::HardenedLaplacePlan> plan_;
};

// One isochronous draw (noexcept: nothing on the per-sample path can fail).
[[nodiscard]] std::int64_t sample_discrete_laplace(BitSource& bits,
                                                   const HardenedDiscreteLaplaceParams& params) noexcept;

}  // namespace exactdp
