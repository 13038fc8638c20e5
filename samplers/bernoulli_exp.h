// bernoulli_exp.h — sample_bernoulli_exp: B in {0, 1} with P[B = 1] = exp(-gamma) for an exact
// rational gamma >= 0 (CKS20 Algorithm 1).
//
// Exactness (CKS20 Prop. 5): for gamma in [0, 1] the loop "K = 1; while Bernoulli(gamma/K): K++"
// exits at K = k with probability gamma^(k-1)/(k-1)! - gamma^k/k!, so P[K odd] = exp(-gamma)
// exactly; each Bernoulli(gamma/K) is exact (bernoulli.h). For gamma > 1, exp(-gamma) =
// exp(-1)^floor(gamma) * exp(-(gamma - floor(gamma))): floor(gamma) Bernoulli(exp(-1)) draws,
// stopping at the first 0, then one draw for the fractional part. Integer and rational arithmetic
// only. gamma = 0 returns 1 and draws no bits.
// Random bits: expected O(log den(gamma)) whatever gamma is (the loops stop early: the expected
// number of Bernoulli(exp(-1)) trials is < 1.6). Expected time O(1) big-integer comparisons,
// additions and multiplications by a small K, i.e. linear in the size of gamma's numerator and
// denominator (floor(gamma) is found by subtraction as the trials run, never by division);
// worst case unbounded (geometric tails).
// Fast path: when gamma's numerator and denominator fit in 128 bits the same algorithm
// runs on 128-bit integers with no heap allocation, reading exactly the same bits as the GMP
// path and returning the same value (tested).
// Timing: NOT constant-time; the duration depends on the random bits and grows with the number
// of loop turns, which is correlated with the result (SECURITY.md, "Timing").
// Errors: BernoulliExpParams::make throws ParameterError unless gamma >= 0. Not thread-safe.
#pragma once

#include <gmpxx.h>

#include <memory>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>

namespace exactdp {

namespace internal {
struct BernoulliExpTerms;  // samplers/internal/sampler_terms.h
}  // namespace internal

class BernoulliExpParams {
 public:
  [[nodiscard]] static BernoulliExpParams make(const mpq_class& gamma);
  [[nodiscard]] const mpq_class& gamma() const noexcept { return gamma_; }
  [[nodiscard]] bool fast_path() const noexcept { return fast_; }
  // The sampler's precomputed terms (internal/sampler_terms.h).
  [[nodiscard]] const internal::BernoulliExpTerms& terms() const noexcept { return *terms_; }

 private:
  BernoulliExpParams() = default;
  mpq_class gamma_;
  bool fast_ = false;
  std::shared_ptr<const internal::BernoulliExpTerms> terms_;
};

// Draws from Bernoulli(exp(-gamma)); uses the fast path when params.fast_path().
[[nodiscard]] bool sample_bernoulli_exp(BitSource& bits, const BernoulliExpParams& params);
// (Always the GMP path, the reference the fast path is tested against, is internal:
// samplers/internal/gmp_reference_paths.h.)

}  // namespace exactdp
