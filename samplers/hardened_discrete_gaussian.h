// hardened_discrete_gaussian.h — sample_discrete_gaussian with HardenedDiscreteGaussianParams:
// the isochronous discrete Gaussian. Every call executes the same instructions, touches the same
// memory and reads the same number of random bits (bits_per_sample()), whatever the output and
// whatever the random bits. The price is a law within a certified total-variation distance tau
// of D_{Z, sigma} (hardening.h): tau_upper() <= 2^-tau_bits, 2^-64 by default.
//
// Law (docs/HARDENED.md): X = mean + Z_0 + m Z_1 + ... + m^(L-1) Z_(L-1) + m^L Z_base, m = 4,
// with independent table draws Z_j ~ D_{Z, sqrt(s)} (the fine table, one shared integer
// variance s fixed by tau_bits) and Z_base ~ D_{Z, sqrt(v_L)}, v_0 = sigma2,
// v_(j+1) = (v_j - s) / m^2, L the least j with v_j <= 3 s (L = 0: one table draw). A table draw
// is a full scan of a cumulative table of W-bit thresholds (W = tau_bits + 16), eight thresholds at
// a time in 31-bit SIMD lanes (internal/hardened_scan.h), and a fair sign.
// Exactness: each table is within a certified distance of its discrete Gaussian (rounding of
// thresholds, cut tail); each convolution step Z + m Y is within eps / (1 - eps) of D_{Z, sqrt(v)},
// eps = 2 sum_k exp(-2 pi^2 k^2 s (v - s) / (v m^2)) (Poisson summation); tau_upper() is the sum,
// computed with MPFR and directed rounding when the parameters are built.
// Random bits: exactly (L + 1)(W + 1) per sample (81 at sigma2 <= 186 with the default tau, 810
//   at 10^12, 2,025 at 2^100).
// Time: fixed: (L + 1) table scans of about 10 sqrt(variance) entries; L = 0 for
//   sigma2 <= 3 s (186 with the default tau), L <= 9 for sigma2 <= 10^12, L <= 24 for 2^100.
// Timing: isochronous given a BitSource whose refills are data-independent (both sources here
//   are): no branch, address or loop count depends on a secret (checked under valgrind and by
//   the timing audit, `exactdp audit-timing --hardened`; SECURITY.md says what is not covered).
// Range: 1/100 <= sigma2 <= 2^100 (hardening.h, kHardenedMaxSigma2Log2) with numerator and
//   denominator below 2^128, |mean| <= 2^62; otherwise make() throws ParameterError naming sigma2
//   (with the range) or mean (never a silent fallback). |X - mean| < 2^61 on every draw.
// Method: the above is HardenedMethod::kFixedWork (hardening.h). With kRejection and
//   2^10 <= sigma2 < 2^56, tau_bits <= 64 the draws come from the rejection method instead
//   (internal/hardened_rejection.h, docs/HARDENED.md "The rejection method"): same interface, a
//   different hardened law (tau_upper about 2^-72), a varying number of 192-bit proposals
//   (bits_per_sample() = 0) whose count is independent of the output; several times faster at
//   large sigma2. Outside that range kRejection builds the fixed-work sampler.
// Build: O(sqrt(s) + sqrt(3 s)) MPFR exponentials: 1 to 6 ms (BENCHMARKS.md, "Hardened samplers").
// Thread-safety: params are immutable and shareable; a BitSource is one per thread.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/hardening.h>

namespace exactdp {

namespace internal {
struct HardenedGaussianPlan;  // samplers/internal/hardened_plans.h
}  // namespace internal

class HardenedDiscreteGaussianParams {
 public:
  [[nodiscard]] static HardenedDiscreteGaussianParams make(const mpq_class& sigma2,
                                                           const mpz_class& mean = 0,
                                                           Hardening hardening = {});
  [[nodiscard]] const mpq_class& sigma2() const noexcept { return sigma2_; }
  [[nodiscard]] std::int64_t mean() const noexcept { return mean_; }
  [[nodiscard]] unsigned tau_bits() const noexcept { return tau_bits_; }
  // Certified: TV(law of this sampler, D_{Z, sigma} + mean) <= tau_upper() <= 2^-tau_bits.
  [[nodiscard]] const mpq_class& tau_upper() const noexcept { return tau_upper_; }
  // Random bits of every draw; 0 for the rejection method (the count varies).
  [[nodiscard]] std::uint64_t bits_per_sample() const noexcept;
  // The sampler's tables (internal/hardened_plans.h; tests compute the exact law of the
  // hardened sampler from them).
  [[nodiscard]] const internal::HardenedGaussianPlan& plan() const noexcept { return *plan_; }

 private:
  HardenedDiscreteGaussianParams() = default;
  mpq_class sigma2_;
  std::int64_t mean_ = 0;
  unsigned tau_bits_ = kDefaultTauBits;
  mpq_class tau_upper_;
  std::shared_ptr<const internal::HardenedGaussianPlan> plan_;
};

// One isochronous draw (noexcept: nothing on the per-sample path can fail).
[[nodiscard]] std::int64_t sample_discrete_gaussian(BitSource& bits,
                                                    const HardenedDiscreteGaussianParams& params) noexcept;

// n isochronous draws into out[0..n): exactly the values and the bits of n successive
// sample_discrete_gaussian calls (n * bits_per_sample() bits), computed a group of 32 draws at
// a time: the group's bits read in one pass and every table scanned once per group
// (internal/hardened_batch.h; several times faster per draw, BENCHMARKS.md "Hardened samplers").
// Isochronous for a given n: the work depends only on n and the parameters. No allocation.
void sample_discrete_gaussian_n(BitSource& bits, const HardenedDiscreteGaussianParams& params, std::int64_t* out,
                                std::size_t n) noexcept;

}  // namespace exactdp
