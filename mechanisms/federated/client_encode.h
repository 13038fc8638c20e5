// client_encode.h — a client's side of a federated round (federated_plan.h): its float update
// in, its noisy lattice vector modulo 2^bits out (KLS21 Algorithm 1, exact).
//
//   1. n_i = round_half_even(x_i / g), exactly from the float's bits (grid_noise/float_grid.h);
//   2. clip: when ||n||_2 > C, n_i <- sign(n_i) floor(|n_i| R / 2^64) with R = floor(C 2^64 / N),
//      N = ceil(sqrt(||n||^2)) (integer arithmetic: the clipped norm is <= C exactly);
//   3. pad with zeros to D = 4^h, negate the coordinates the public signs say, a <- H v (integers;
//      the rotated vector is a / 2^h exactly);
//   4. conditional randomized rounding: x~_j = floor(a_j / 2^h) + [u_j < a_j mod 2^h] for h fresh
//      bits u_j (exact Bernoulli of the dyadic fraction), redrawn while ||x~||^2 > norm_bound, at
//      most kMaxRoundingAttempts times (then x~ = 0);
//   5. out_j = (x~_j + Z_j) mod 2^bits, Z_j the client's noise share (the plan's sampler).
//
// Errors (ParameterError, before anything is drawn or written): x (size != dimension; the first
// NaN or inf: "x[17] is NaN; allowed: finite values"), out (size != padded dimension).
// Randomness: `bits` is the client's private source (rounding, then the noise, in that order).
// double and float appear here only as storage types whose bit patterns are decoded exactly; no
// floating-point arithmetic is done on any value.
// Thread-safety: the plan may be shared between threads; `bits` and `out` may not.
#pragma once

#include <cstdint>
#include <span>

#include <exactdp/mechanisms/federated/federated_plan.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

struct EncodeReport {
  unsigned attempts = 0;  // rounding attempts made (1 when the first passed)
  bool zeroed = false;    // every attempt failed: the client sent its noise alone
  bool clipped = false;   // the update's lattice norm exceeded C
};

// noise = false leaves the noise out (step 5 adds 0): for the property tests of the exact
// pipeline only; a release needs the noise.
template <class Float>
EncodeReport encode_client(const FederatedPlan& plan, std::span<const Float> x, std::span<std::uint64_t> out,
                           BitSource& bits, bool noise = true);

}  // namespace exactdp::mechanisms
