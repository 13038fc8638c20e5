// geometric.h — sample_geometric_exp: Y in {0, 1, 2, ...} with P[Y = y] = (1 - e^-gamma) e^(-gamma y)
// for gamma = s / t, s and t positive integers (CKS20, the construction inside Algorithm 2).
//
// Exactness: U uniform on {0 .. t-1} is kept with probability exp(-U/t) (redrawn otherwise), V
// counts the Bernoulli(exp(-1)) successes before the first failure, so X = U + t V is geometric
// with ratio exp(-1/t), and Y = floor(X / s) geometric with ratio exp(-s/t): every step is an
// exact integer or an exact Bernoulli (bernoulli_exp.h). The discrete Laplace sampler and the
// exact tails of the table and bucket samplers use the same construction; here it is for the
// laws built outside samplers/ (laws/staircase/: the staircase's step index).
// Random bits: expected O(log t) a draw (U is kept with probability at least 1 - e^-1, so at most
// about 1.6 uniform draws on {0 .. t-1} with their Bernoulli trials, then on average 0.58
// Bernoulli(exp(-1)) trials for V); worst case unbounded (geometric tails).
// Timing: NOT constant-time (SECURITY.md, "Timing").
// Errors: ParameterError naming t or s unless both are at least 1. Not thread-safe (the source).
#pragma once

#include <gmpxx.h>

#include <exactdp/samplers/bit_source.h>

namespace exactdp {

[[nodiscard]] mpz_class sample_geometric_exp(BitSource& bits, const mpz_class& t, const mpz_class& s);

}  // namespace exactdp
