// staircase_sampler.h — sample_staircase: X with the discrete staircase law (staircase_shape.h):
//   P[X = mean + x] = a b^i v_j for |x| = i D + j, b = exp(-gamma), v_j = 1 (j < r) or b (j >= r).
//
// Algorithm (exact; integers and the exact Bernoulli(exp(-gamma)) only):
//   1. I ~ P[I = i] proportional to b^i: CKS20 Algorithm 2's geometric with t = den(gamma),
//      s = num(gamma) (samplers/geometric.h: P[Y = y] ~ exp(-y s / t));
//   2. J uniform on {0, ..., D - 1}; if J >= r, keep it with probability b (Bernoulli(exp(-gamma)),
//      samplers/bernoulli_exp.h), else start again at 1;
//   3. M = I D + J; a fair sign S; (S = -, M = 0) starts again at 1; return mean + S M.
// Why exact: a round proposes (i, j) with probability (1 - b) b^i / D and keeps it with
// probability v_j, so kept pairs have probability proportional to b^i v_j = the law's weight of
// m = i D + j; every round is independent, and the sign step halves the weight of m = 0 only, as
// the two-sided law needs (m = 0 is one outcome, m > 0 two).
// Random bits per round: the geometric (expected 2 + log2 den(gamma) + a few), log2 D for J, the
// Bernoulli(exp(-gamma)) when J >= r, one sign bit. Expected rounds: at most
// 2 D / (r + (D - r) b) <= 2 D / r (at most 2^25 by the limits of staircase_shape.h).
// Time: expected O(D / r) rounds of GMP integer work on numbers of the size of gamma and D.
// Timing: NOT constant-time: the number of rounds and the size of I are visible (SECURITY.md);
// there is no hardened staircase sampler.
// Errors: none after the shape is built. Not thread-safe per BitSource; the sampler is immutable.
#pragma once

#include <gmpxx.h>

#include <exactdp/laws/staircase/staircase_shape.h>
#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::laws {

class StaircaseSampler {
 public:
  StaircaseSampler(const StaircaseShape& shape, mpz_class mean);
  // One draw into out.
  void sample(BitSource& bits, mpz_class& out) const;

 private:
  mpz_class t_, s_;  // gamma = s / t
  mpz_class d_, r_, mean_;
  BernoulliExpParams keep_;  // Bernoulli(exp(-gamma))
};

}  // namespace exactdp::laws
