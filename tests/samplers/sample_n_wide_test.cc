// sample_n_wide: the batch that keeps every value. For each law and each path (table, 128-bit
// CKS20, GMP CKS20) and with means that push some values outside int64, the batch returns
// exactly the values and consumes exactly the bits of n single calls of the mpz sampler, the wide
// values whole at their indices and nothing else in `wide`.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

template <class Params, class Single>
void expect_batch_equals_single_calls(const Params& params, Single single, std::uint32_t index,
                                      const std::string& what, bool expect_wide) {
  constexpr std::size_t kN = 400;
  SeededBits a(test_support::fixed_seed(171, index)), b(test_support::fixed_seed(171, index));
  std::vector<std::int64_t> out(kN, -1);
  std::vector<WideValue> wide;
  sample_n_wide(a, params, out.data(), kN, wide);
  std::size_t next_wide = 0;
  for (std::size_t i = 0; i < kN; ++i) {
    const mpz_class v = single(b, params);
    if (mpz_fits_slong_p(v.get_mpz_t()) != 0) {
      EXPECT_EQ(out[i], mpz_get_si(v.get_mpz_t())) << what << " draw " << i;
    } else {
      ASSERT_LT(next_wide, wide.size()) << what << " draw " << i;
      EXPECT_EQ(wide[next_wide].index, i) << what;
      EXPECT_EQ(wide[next_wide].value, v) << what;
      EXPECT_EQ(out[i], 0) << what;
      ++next_wide;
    }
  }
  EXPECT_EQ(next_wide, wide.size()) << what;
  EXPECT_EQ(a.bits_consumed(), b.bits_consumed()) << what;
  if (expect_wide) {
    EXPECT_GT(wide.size(), 0U) << what << ": the case should produce values outside int64";
  }
}

TEST(SampleNWide, DiscreteGaussianEveryPath) {
  const mpz_class edge(INT64_MAX);  // about half the draws land above INT64_MAX
  const auto single = [](BitSource& b, const DiscreteGaussianParams& p) {
    return sample_discrete_gaussian(b, p);
  };
  std::uint32_t index = 0;
  for (const char* s2 : {"9/4", "100", "1000000000000", "1e100"}) {
    const bool huge = std::string(s2) == "1e100";
    const auto params = DiscreteGaussianParams::make(mpq_class(s2 == std::string("1e100")
                                                                   ? "1" + std::string(100, '0')
                                                                   : s2),
                                                     0);
    expect_batch_equals_single_calls(params, single, ++index, std::string("sigma2 ") + s2, huge);
    const auto at_edge = DiscreteGaussianParams::make(params.sigma2(), edge);
    expect_batch_equals_single_calls(at_edge, single, ++index, std::string("edge sigma2 ") + s2, true);
  }
}

TEST(SampleNWide, DiscreteLaplaceEveryPath) {
  const mpz_class edge(INT64_MIN);  // about half the draws land below INT64_MIN
  const auto single = [](BitSource& b, const DiscreteLaplaceParams& p) {
    return sample_discrete_laplace(b, p);
  };
  std::uint32_t index = 100;
  for (const char* scale : {"3/2", "10", "1000000", "1000000000000000000000000000000"}) {
    const auto params = DiscreteLaplaceParams::make(mpq_class(scale), 0);
    const bool huge = std::string(scale).size() > 20;
    expect_batch_equals_single_calls(params, single, ++index, std::string("scale ") + scale, huge);
    const auto at_edge = DiscreteLaplaceParams::make(params.scale(), edge);
    expect_batch_equals_single_calls(at_edge, single, ++index, std::string("edge scale ") + scale, true);
  }
}

}  // namespace
}  // namespace exactdp
