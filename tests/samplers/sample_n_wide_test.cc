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
#include <exactdp/core/rational.h>
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

struct PathCase {
  const char* value;  // the noise parameter, exact text
  bool huge;          // the case should produce values outside int64 at mean 0
};

// Every path of a law: its batches at mean 0, then at a mean `edge` where about half the draws
// leave int64. make(value, mean) builds the law's parameters; index numbers the seeds.
template <class Make, class Single>
void expect_every_path(const char* name, const std::vector<PathCase>& cases, const mpz_class& edge,
                       std::uint32_t index, Make make, Single single) {
  for (const PathCase& c : cases) {
    const mpq_class value = parse_rational(name, c.value);
    expect_batch_equals_single_calls(make(value, mpz_class(0)), single, ++index, std::string(name) + " " + c.value,
                                     c.huge);
    expect_batch_equals_single_calls(make(value, edge), single, ++index, std::string("edge ") + name + " " + c.value,
                                     true);
  }
}

TEST(SampleNWide, DiscreteGaussianEveryPath) {
  expect_every_path(
      "sigma2", {{"9/4", false}, {"100", false}, {"1000000000000", false}, {"1e100", true}},
      mpz_class(INT64_MAX), 0, [](const mpq_class& v, const mpz_class& m) { return DiscreteGaussianParams::make(v, m); },
      [](BitSource& b, const DiscreteGaussianParams& p) { return sample_discrete_gaussian(b, p); });
}

TEST(SampleNWide, DiscreteLaplaceEveryPath) {
  expect_every_path(
      "scale", {{"3/2", false}, {"10", false}, {"1000000", false}, {"1000000000000000000000000000000", true}},
      mpz_class(INT64_MIN), 100, [](const mpq_class& v, const mpz_class& m) { return DiscreteLaplaceParams::make(v, m); },
      [](BitSource& b, const DiscreteLaplaceParams& p) { return sample_discrete_laplace(b, p); });
}

}  // namespace
}  // namespace exactdp
