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
// Table path (the default for 2^-20 <= sigma2 <= 10^4 with numerator and denominator of at most
// 256 bits; internal/symmetric_table.h holds the full argument): inversion of the exact cdf of
// the centred law, each cdf point kept as a certified 64-bit interval (MPFR, outward rounding,
// the theta-series normaliser bounded above by a rigorous remainder); the uniform U is drawn
// lazily, bit by bit after a guide-table prefix, until its slot is proven; a draw that lands in
// an interval's uncertainty (probability about 2^-60) compares U with the cdf point exactly at
// 128, 256, ... bits of precision (Ziv); the tail |Z| > T (probability below 2^-64) is drawn
// from the law conditioned on it (a geometric proposal with an exact CKS20 Bernoulli
// acceptance). So the law is the discrete Gaussian exactly, with no approximation anywhere.
// It reads different bits than CKS20: its values for a given seed differ from the CKS20 path's
// (sample_discrete_gaussian_cks20 keeps that algorithm). Bits: about log2(#slots) + 6 per draw
// (14 at sigma2 = 100); no heap allocation per draw (the two rare escapes aside).
// The table is built once by make() (about 2T + 2 MPFR exponentials, T ~ sqrt(90 sigma2), and a
// guide of at most 2^16 two-byte entries).
// Bucket path (the default for sigma2 > 10^4 with numerator and denominator of at most 4096
// bits; internal/bucket_gaussian.h holds the full argument): exact rejection from a bucketed
// envelope — a bucket of width W ~ sigma/64..sigma/128 (or the tail beyond ~10 sigma) chosen by
// the same certified exact inversion as the table path, a uniform point in it, accepted with
// probability exp(-(x^2 - x0^2)/(2 sigma2)) by the exact CKS20 Bernoulli (about 99 % accepted).
// 128-bit when every intermediate fits (integer sigma2 up to ~10^36), else GMP with per-thread
// scratch integers; both read the same bits and return the same values (tested). Bits: about
// 30 at sigma2 = 10^12, 178 at 10^100; values differ from CKS20's for a given seed. Built once
// by make() (~1,300 buckets, two MPFR products each, ~75 KB). Beyond 4096-bit parameters CKS20
// serves.
// Timing: NOT constant-time; duration grows with |X| and with rejections (SECURITY.md, "Timing").
// Errors: DiscreteGaussianParams::make throws ParameterError unless sigma2 > 0.
// Thread-safety: params are immutable and shareable; a BitSource is one per thread.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <vector>
#include <memory>
#include <optional>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/wide_value.h>
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
// CKS20 Algorithm 3 alone, whatever sigma2 (the algorithm of every sigma2 outside the table's
// and the buckets' ranges): 128-bit where params.fast_path(), else GMP.
// (Every draw with every integer step on GMP, the reference the 128-bit paths are tested
// against, is internal: samplers/internal/gmp_reference_paths.h.)
[[nodiscard]] mpz_class sample_discrete_gaussian_cks20(BitSource& bits, const DiscreteGaussianParams& params);

// Batch: n draws into out[0..n), exactly the values n calls of sample_discrete_gaussian_int64
// would give from the same bits, without their per-call overhead. Returns n, or the index of the
// first draw that does not fit in int64 (that draw is spent; out[i..n) is not written).
std::size_t sample_n(BitSource& bits, const DiscreteGaussianParams& params, std::int64_t* out,
                     std::size_t n);
// Batch for callers that need every value (the Python package): n draws, exactly the values and
// bits of n calls of sample_discrete_gaussian(bits, params); a value that fits in int64 goes to
// out[i], any other one is appended to `wide` with its index (out[i] = 0) and the batch goes on,
// so no draw is ever spent or redrawn (the law stays exact). No allocation unless a value is wide.
void sample_n_wide(BitSource& bits, const DiscreteGaussianParams& params, std::int64_t* out, std::size_t n,
                   std::vector<WideValue>& wide);

}  // namespace exactdp
