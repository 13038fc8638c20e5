// internal/sampler_terms.h — the precomputed terms the samplers keep beside their public
// parameters: the GMP constants of CKS20 Algorithm 3 and the 128-bit copies of the fast path.
// Built once by each Params::make, immutable, reached through Params::terms(); not part of the
// public contract (the values may change with the algorithms).
#pragma once

#include <gmpxx.h>

#include <memory>

#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/bucket_gaussian.h>
#include <exactdp/samplers/internal/symmetric_table.h>

namespace exactdp::internal {

// sigma2 = p/q, t = floor(sqrt(floor(sigma2))) + 1: the proposal is Lap_Z(t) and the acceptance
// exponent is (|Y| q t - p)^2 / (2 p q t^2) (discrete_gaussian.h).
struct DiscreteGaussianTerms {
  mpz_class qt;   // q t
  mpz_class den;  // 2 p q t^2
  // Fast path only (DiscreteGaussianParams::fast_path()): p and q t below 2^64, t and den below
  // 2^128.
  uint128 p_fast = 0, t_fast = 0, qt_fast = 0, den_fast = 0;
  // The exact table sampler (internal/symmetric_table.h) when sigma2 is in its range, else null.
  std::shared_ptr<const SymmetricTable> table;
  // The bucketed envelope sampler (internal/bucket_gaussian.h) above the table's range, else null.
  std::shared_ptr<const BucketGaussian> bucket;
};

// scale = t/s with t, s below 2^64; fast path only.
struct DiscreteLaplaceTerms {
  uint128 t = 1, s = 1;
  // The exact table sampler (internal/symmetric_table.h) when scale is in its range, else null.
  std::shared_ptr<const SymmetricTable> table;
};

// gamma = num/den below 2^128; fast path only.
struct BernoulliExpTerms {
  uint128 num = 0, den = 1;
};

}  // namespace exactdp::internal
