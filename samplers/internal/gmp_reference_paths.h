// internal/gmp_reference_paths.h — every sampler's draw with every integer step on GMP (not
// installed). The public samplers run on 128-bit integers where the numbers fit and fall back
// to these paths where they do not; the tests and fuzzers check, draw by draw, that both read
// exactly the same bits and return exactly the same values (tests/samplers/fast_path_test.cc).
// Each is the same law as its public function; none is faster.
#pragma once

#include <gmpxx.h>

#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>

namespace exactdp {

// sample_bernoulli_exp (bernoulli_exp.h), always on GMP.
[[nodiscard]] bool sample_bernoulli_exp_gmp(BitSource& bits, const BernoulliExpParams& params);

// sample_discrete_gaussian (discrete_gaussian.h) on GMP: the table path when params have a table
// (the table itself has no integer-width variants), the bucket path on GMP when params have
// buckets, else CKS20 on GMP.
[[nodiscard]] mpz_class sample_discrete_gaussian_gmp(BitSource& bits, const DiscreteGaussianParams& params);
// sample_discrete_gaussian_cks20 (CKS20 Algorithm 3 alone) on GMP.
[[nodiscard]] mpz_class sample_discrete_gaussian_cks20_gmp(BitSource& bits,
                                                           const DiscreteGaussianParams& params);

// sample_discrete_laplace (discrete_laplace.h) on GMP: the table path when params have a table,
// else CKS20 on GMP.
[[nodiscard]] mpz_class sample_discrete_laplace_gmp(BitSource& bits, const DiscreteLaplaceParams& params);
// sample_discrete_laplace_cks20 (CKS20 Algorithm 2 alone) on GMP.
[[nodiscard]] mpz_class sample_discrete_laplace_cks20_gmp(BitSource& bits,
                                                          const DiscreteLaplaceParams& params);

}  // namespace exactdp
