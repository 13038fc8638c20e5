// discrete_gaussian.h — sample_discrete_gaussian: X in Z with
//   P[X = x] proportional to exp(-(x - mean)^2 / (2 sigma2)),
// for an exact rational sigma2 > 0 and an integer mean of any size (CKS20 Algorithm 3).
//
// Exactness (CKS20 Prop. 7 / Thm. 8): with t = floor(sqrt(floor(sigma2))) + 1 (computed exactly
// with integer square roots), draw Y ~ Lap_Z(t) (discrete_laplace.h) and accept it with
// probability exp(-(|Y| - sigma2/t)^2 / (2 sigma2)) (bernoulli_exp.h). The accepted Y has the
// discrete Gaussian law exactly: the acceptance probability times the Laplace pmf is
// proportional to exp(-Y^2 / (2 sigma2)) (the exponents differ by a constant). The acceptance
// exponent is the exact rational (|Y| q t - p)^2 / (2 p q t^2) for sigma2 = p/q.
// Random bits: expected O(log t + log q) per sample; the expected number of Laplace draws is
// O(1) (acceptance probability >= a constant for every sigma2; CKS20 Sec. 5.3).
// Time: expected O(1) big-integer operations on numbers of O(log sigma2 + log q) bits (per
// Laplace draw one squaring; the rest is linear: bernoulli_exp.h); worst case unbounded
// (geometric tails).
// Fast path: when p and q*t fit in 64 bits and 2 p q t^2 in 128 bits (e.g. every integer sigma2
// up to 1.8 * 10^19), the same algorithm runs on 128-bit integers without heap allocation; it
// reads exactly the same bits and returns the same values as the GMP path (tested). A draw whose
// intermediate would overflow finishes that step on the GMP path at the same stream position.
// Timing: NOT constant-time; duration grows with |X| and with rejections (SECURITY.md, "Timing").
// Errors: DiscreteGaussianParams::make throws ParameterError unless sigma2 > 0.
// Thread-safety: params are immutable and shareable; a BitSource is one per thread.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <memory>
#include <optional>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>

namespace exactdp {

namespace internal {
struct DiscreteGaussianTerms;  // samplers/internal/sampler_terms.h
}  // namespace internal

class DiscreteGaussianParams {
 public:
  [[nodiscard]] static DiscreteGaussianParams make(const mpq_class& sigma2, const mpz_class& mean = 0);
  [[nodiscard]] const mpq_class& sigma2() const noexcept { return sigma2_; }
  [[nodiscard]] const mpz_class& mean() const noexcept { return mean_; }
  // CKS20 Alg. 3: t = floor(sqrt(floor(sigma2))) + 1, the scale of the proposal Laplace.
  [[nodiscard]] const mpz_class& t() const noexcept { return t_; }
  [[nodiscard]] bool fast_path() const noexcept { return fast_; }
  // The sampler's precomputed terms (internal/sampler_terms.h).
  [[nodiscard]] const internal::DiscreteGaussianTerms& terms() const noexcept { return *terms_; }

 private:
  DiscreteGaussianParams() = default;
  mpq_class sigma2_;
  mpz_class mean_;
  mpz_class t_;
  bool fast_ = false;
  std::shared_ptr<const internal::DiscreteGaussianTerms> terms_;
};

[[nodiscard]] mpz_class sample_discrete_gaussian(BitSource& bits, const DiscreteGaussianParams& params);
void sample_discrete_gaussian(BitSource& bits, const DiscreteGaussianParams& params, mpz_class& out);
// One draw as int64; std::nullopt when the value does not fit (the draw is spent).
[[nodiscard]] std::optional<std::int64_t> sample_discrete_gaussian_int64(
    BitSource& bits, const DiscreteGaussianParams& params);
// Always the GMP path (the reference the fast path is tested against).
[[nodiscard]] mpz_class sample_discrete_gaussian_gmp(BitSource& bits, const DiscreteGaussianParams& params);

}  // namespace exactdp
