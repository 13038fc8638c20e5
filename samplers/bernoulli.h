// bernoulli.h — sample_bernoulli: B in {0, 1} with P[B = 1] = p, p an exact rational in [0, 1].
//
// Exactness: with p = a/b in lowest terms, B = [U < a] for U uniform on {0..b-1} (uniform.h), so
// P[B = 1] = a/b exactly. Random bits: expected < 2 * bitlength(b - 1); p = 0 and p = 1 draw none.
// Time: expected O(1) attempts of O(log b) work; worst case unbounded (each attempt fails with
// probability < 1/2). Timing reveals the number of rejection attempts, not B (SECURITY.md).
// Errors: BernoulliParams::make throws ParameterError unless 0 <= p <= 1. Not thread-safe
// (one BitSource per thread). Reference: folklore; see uniform.h.
#pragma once

#include <gmpxx.h>

#include "samplers/bit_source.h"

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
