// bernoulli.h — sample_bernoulli: B in {0, 1} with P[B = 1] = p, p an exact rational in [0, 1].
//
// Exactness: B = [V < p] for a uniform real V in [0, 1) whose bits are drawn one at a time and
// compared with the binary expansion of p = a/b (long division); the first differing bit decides,
// so P[B = 1] = p exactly (internal/cks20.h, bernoulli_ratio). Random bits: expected 2, whatever
// the size of b (at most 1 + a geometric number); p = 0 and p = 1 draw none.
// Time: expected O(1) steps of O(log b) work; worst case unbounded (each step continues with
// probability 1/2). Timing: the number of steps is correlated with B (SECURITY.md, "Timing").
// Errors: BernoulliParams::make throws ParameterError unless 0 <= p <= 1. Not thread-safe
// (one BitSource per thread). Reference: folklore; see uniform.h.
#pragma once

#include <gmpxx.h>

#include <exactdp/samplers/bit_source.h>

namespace exactdp {

class BernoulliParams {
 public:
  [[nodiscard]] static BernoulliParams make(const mpq_class& p);
  [[nodiscard]] const mpq_class& p() const noexcept { return p_; }

 private:
  explicit BernoulliParams(mpq_class p) : p_(std::move(p)) {}
  mpq_class p_;
};

[[nodiscard]] bool sample_bernoulli(BitSource& bits, const BernoulliParams& params);

}  // namespace exactdp
