// fast_path_boundary_test.cc — the 128-bit fast paths at the exact edges where they hand a step
// to GMP (samplers/internal/cks20.h, samplers/discrete_gaussian.cc). fast_path_test.cc compares
// the fast and GMP paths on random parameters, which almost never land on an edge; here the
// parameters are chosen so that the edge is reached on most draws:
//   - CKS20 Alg. 3's acceptance squares |y q t - p| in 128 bits only while it is below 2^64;
//     sigma2 = 2 / (2^63 + 1) makes it exactly 2^64 at the proposal |y| = 2 (and 2^64 - 1 for
//     sigma2 = 1 / 2^63), where the square needs 129 bits (or just fits).
//   - Alg. 1 with a denominator near 2^127: den K overflows 128 bits at K = 2, and the loop
//     continues on GMP from the same K.
// Each check is deterministic (fixed seeds, the values and the bits read must equal the GMP
// path's). For sigma2 < 2^-62 the law puts mass below 2 exp(-2^61) off 0, so "every value is 0"
// has no false alarm in practice; a fast path that squared 2^64 modulo 2^128 would accept |y| = 2
// with probability 1 (about one draw in ten).
#include <gtest/gtest.h>

#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>
#include <exactdp/samplers/internal/sampler_terms.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace fast_path_boundary_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using test_support::fixed_seed;

const mpz_class kTwo63 = mpz_class(1) << 63;

// The public sampler and the CKS20 fast path give the GMP path's values from the same bits, and
// every value is 0 (sigma2 < 2^-62).
void expect_zeros_matching_gmp(const mpq_class& sigma2, std::uint32_t seed_index) {
  const auto params = DiscreteGaussianParams::make(sigma2);
  ASSERT_TRUE(params.fast_path());
  ASSERT_EQ(params.terms().table, nullptr);   // below the table's range: CKS20 serves the draws
  ASSERT_EQ(params.terms().bucket, nullptr);
  SeededBits pub(fixed_seed(171, seed_index)), fast(fixed_seed(171, seed_index)),
      gmp(fixed_seed(171, seed_index));
  for (int i = 0; i < 300; ++i) {
    const mpz_class reference = sample_discrete_gaussian_cks20_gmp(gmp, params);
    ASSERT_EQ(reference, 0) << "draw " << i;
    ASSERT_EQ(sample_discrete_gaussian(pub, params), reference) << "draw " << i;
    ASSERT_EQ(sample_discrete_gaussian_cks20(fast, params), reference) << "draw " << i;
  }
  EXPECT_EQ(pub.bits_consumed(), gmp.bits_consumed());
  EXPECT_EQ(fast.bits_consumed(), gmp.bits_consumed());
}

// |y q t - p| = 2 (2^63 + 1) - 2 = 2^64 at |y| = 2 (t = 1): the square needs 129 bits.
TEST(FastPathBoundary, GaussianAcceptanceAtExactlyTwoTo64) {
  expect_zeros_matching_gmp(mpq_class(mpz_class(2), kTwo63 + 1), 1);
}

// |y q t - p| = 2 2^63 - 1 = 2^64 - 1 at |y| = 2: the largest difference squared in 128 bits.
TEST(FastPathBoundary, GaussianAcceptanceJustBelowTwoTo64) {
  expect_zeros_matching_gmp(mpq_class(mpz_class(1), kTwo63), 2);
}

// gamma = (2^127 - 1) / (2^127 + 1): den K overflows 128 bits from K = 2 on, reached whenever
// the first Bernoulli(gamma) is 1 (almost always); the GMP continuation must start at that K.
TEST(FastPathBoundary, BernoulliExpContinuesOnGmpAtTheSameK) {
  const mpz_class two127 = mpz_class(1) << 127;
  const auto params = BernoulliExpParams::make(mpq_class(two127 - 1, two127 + 1));
  ASSERT_TRUE(params.fast_path());
  SeededBits fast(fixed_seed(171, 3)), gmp(fixed_seed(171, 3));
  int ones = 0;
  for (int i = 0; i < 2000; ++i) {
    const bool reference = sample_bernoulli_exp_gmp(gmp, params);
    ASSERT_EQ(sample_bernoulli_exp(fast, params), reference) << "draw " << i;
    ones += reference ? 1 : 0;
  }
  EXPECT_EQ(fast.bits_consumed(), gmp.bits_consumed());
  // exp(-gamma) ~ 0.368: 2000 draws give 736 +- 22 ones; the band [600, 870] is > 6 standard
  // deviations wide on each side (false alarm < 1e-9 over seeds; the seed is fixed).
  EXPECT_GT(ones, 600);
  EXPECT_LT(ones, 870);
}

}  // namespace fast_path_boundary_test
}  // namespace
}  // namespace exactdp
