// discrete_laplace.h — sample_discrete_laplace: X in Z with P[X = x] proportional to
// exp(-|x - mean| / scale), for an exact rational scale > 0 and an integer mean of any size
// (CKS20 Algorithm 2, "Lap_Z(t/s)" with scale = t/s in lowest terms).
//
// Exactness (CKS20 Prop. 6): U uniform on {0..t-1} accepted with probability exp(-U/t) and
// V ~ Geometric(1 - 1/e) give X = U + tV ~ Geometric(1 - exp(-1/t)); Y = floor(X/s) is then
// Geometric(1 - exp(-s/t)); a fair sign with (sign = -, Y = 0) rejected gives the two-sided law
// exactly. Every coin is an exact Bernoulli (bernoulli_exp.h, uniform.h). Integers only.
// Random bits: expected O(log t + log s) per sample; the outer loop runs an expected
// < 2 (1 + exp(-s/t)) / (1 - exp(-1/t))·(1/t)-bounded number of times, O(1) for every scale.
// Time: expected O(1) big-integer operations on numbers of O(log t + log s + log|X|) bits;
// worst case unbounded (geometric tails).
// Fast path: when t and s are below 2^64 the same algorithm runs on 128-bit integers with no
// heap allocation, reading exactly the same bits and returning the same values as the GMP path.
// Table path (the default for 2^-20 <= scale <= 50 with numerator and denominator of at most
// 256 bits): inversion of the exact cdf with certified 64-bit bounds, lazy bits, exact Ziv
// refinement in the rare undecided case and the exact memoryless tail beyond T = ceil(45 scale)
// (internal/symmetric_table.h has the argument): the law is the discrete Laplace exactly. It
// reads different bits than CKS20 (sample_discrete_laplace_cks20 keeps that algorithm); no heap
// allocation per draw (the rare escapes aside).
// Timing: NOT constant-time; duration grows with |X| and depends on rejections (SECURITY.md).
// Errors: DiscreteLaplaceParams::make throws ParameterError unless scale > 0.
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
struct DiscreteLaplaceTerms;  // samplers/internal/sampler_terms.h
}  // namespace internal

class DiscreteLaplaceParams {
 public:
  [[nodiscard]] static DiscreteLaplaceParams make(const mpq_class& scale, const mpz_class& mean = 0);
  [[nodiscard]] const mpq_class& scale() const noexcept { return scale_; }
  [[nodiscard]] const mpz_class& mean() const noexcept { return mean_; }
  [[nodiscard]] bool fast_path() const noexcept { return fast_; }
  // The sampler's precomputed terms (internal/sampler_terms.h).
  [[nodiscard]] const internal::DiscreteLaplaceTerms& terms() const noexcept { return *terms_; }

 private:
  DiscreteLaplaceParams() = default;
  mpq_class scale_;
  mpz_class mean_;
  bool fast_ = false;
  std::shared_ptr<const internal::DiscreteLaplaceTerms> terms_;
};

// One draw; the fast path when params.fast_path().
[[nodiscard]] mpz_class sample_discrete_laplace(BitSource& bits, const DiscreteLaplaceParams& params);
void sample_discrete_laplace(BitSource& bits, const DiscreteLaplaceParams& params, mpz_class& out);
// One draw as int64; std::nullopt when the value does not fit (the draw is spent).
[[nodiscard]] std::optional<std::int64_t> sample_discrete_laplace_int64(
    BitSource& bits, const DiscreteLaplaceParams& params);
// CKS20 Algorithm 2 alone, whatever the scale (the algorithm of every scale outside the table's
// range): 128-bit where params.fast_path(), else GMP.
// (Every draw with every integer step on GMP, the reference the 128-bit paths are tested
// against, is internal: samplers/internal/gmp_reference_paths.h.)
[[nodiscard]] mpz_class sample_discrete_laplace_cks20(BitSource& bits, const DiscreteLaplaceParams& params);

// Batch: n draws into out[0..n), the values n calls of sample_discrete_laplace_int64 would give
// from the same bits. Returns n, or the index of the first draw that does not fit in int64 (that
// draw is spent; out[i..n) is not written).
std::size_t sample_n(BitSource& bits, const DiscreteLaplaceParams& params, std::int64_t* out,
                     std::size_t n);
// Batch for callers that need every value (the Python package): n draws, exactly the values and
// bits of n calls of sample_discrete_laplace(bits, params); a value that fits in int64 goes to
// out[i], any other one is appended to `wide` with its index (out[i] = 0) and the batch goes on,
// so no draw is ever spent or redrawn (the law stays exact). No allocation unless a value is wide.
void sample_n_wide(BitSource& bits, const DiscreteLaplaceParams& params, std::int64_t* out, std::size_t n,
                   std::vector<WideValue>& wide);

}  // namespace exactdp
