// hardened_samplers_test.cc — the contract of the hardened samplers: the range and its errors,
// tau_upper <= 2^-tau_bits everywhere in the range, a fixed number of bits on every call, the
// documented table structure, and mean handling.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

void expect_parameter_error(const std::function<void()>& make, const std::string& parameter) {
  try {
    make();
    ADD_FAILURE() << "no error for " << parameter;
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), parameter) << e.what();
    EXPECT_NE(std::string(e.what()).find("hardened"), std::string::npos) << e.what();
  }
}

TEST(HardenedRange, RefusesOutsideTheSupportedRangeNamingTheParameter) {
  const mpz_class two128 = mpz_class(1) << 128;
  expect_parameter_error([] { (void)HardenedDiscreteGaussianParams::make(mpq_class(1, 101)); }, "sigma2");
  expect_parameter_error([] { (void)HardenedDiscreteGaussianParams::make(power_of_two(100) + 1); }, "sigma2");
  expect_parameter_error([&] { (void)HardenedDiscreteGaussianParams::make(mpq_class(two128 + 1, two128)); }, "sigma2");
  expect_parameter_error([] { (void)HardenedDiscreteGaussianParams::make(0); }, "sigma2");
  expect_parameter_error([] { (void)HardenedDiscreteLaplaceParams::make(mpq_class(1, 101)); }, "scale");
  expect_parameter_error([] { (void)HardenedDiscreteLaplaceParams::make(power_of_two(50) + mpq_class(1, 3)); }, "scale");
  expect_parameter_error([] { (void)HardenedDiscreteLaplaceParams::make(-1); }, "scale");
  const mpz_class big_mean = (mpz_class(1) << 62) + 1;
  expect_parameter_error([&] { (void)HardenedDiscreteGaussianParams::make(1, big_mean); }, "mean");
  expect_parameter_error([&] { (void)HardenedDiscreteLaplaceParams::make(1, -big_mean); }, "mean");
  EXPECT_THROW((void)HardenedDiscreteGaussianParams::make(1, 0, Hardening{39}), ParameterError);
  EXPECT_THROW((void)HardenedDiscreteLaplaceParams::make(1, 0, Hardening{129}), ParameterError);
}

TEST(HardenedRange, TheErrorNamesTheValueAndTheRange) {
  try {
    (void)HardenedDiscreteGaussianParams::make(power_of_two(101));
    ADD_FAILURE() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "sigma2");
    EXPECT_NE(std::string(e.what()).find("1/100 <= sigma2 <= 2^100"), std::string::npos) << e.what();
  }
  try {
    (void)HardenedDiscreteLaplaceParams::make(power_of_two(51));
    ADD_FAILURE() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "scale");
    EXPECT_NE(std::string(e.what()).find("1/100 <= scale <= 2^50"), std::string::npos) << e.what();
  }
}

TEST(HardenedRange, AcceptsTheEndsOfTheRange) {
  const mpz_class max128 = (mpz_class(1) << 128) - 1;
  for (const mpq_class& s : {mpq_class(1, 100), mpq_class(1'000'000'000'000L), power_of_two(64), power_of_two(100),
                             mpq_class(max128, max128 - 1)}) {
    for (unsigned tau_bits : {40u, 64u, 128u}) {
      const auto p = HardenedDiscreteGaussianParams::make(s, mpz_class(1) << 62, {tau_bits});
      EXPECT_LE(p.tau_upper(), power_of_two(-static_cast<long>(tau_bits))) << s;
    }
  }
  for (const mpq_class& s : {mpq_class(1, 100), mpq_class(1'000'000'000L), power_of_two(50), mpq_class(max128, max128 - 7)}) {
    for (unsigned tau_bits : {40u, 64u, 128u}) {
      const auto p = HardenedDiscreteLaplaceParams::make(s, -(mpz_class(1) << 62), {tau_bits});
      EXPECT_LE(p.tau_upper(), power_of_two(-static_cast<long>(tau_bits))) << s;
    }
  }
}

// Random parameters across the range (log-uniform numerators and denominators).
mpz_class random_bits(int bits) {  // a random integer below 2^bits, 1 <= bits <= 128
  const mpz_class x = (mpz_class(*rc::gen::arbitrary<std::uint64_t>()) << 64) + *rc::gen::arbitrary<std::uint64_t>();
  return x >> (128 - bits);
}

mpq_class random_rational_in(const mpq_class& lo, const mpq_class& hi) {
  const auto num_bits = *rc::gen::inRange(1, 129);
  const auto den_bits = *rc::gen::inRange(1, 129);
  mpz_class num = random_bits(num_bits);
  mpz_class den = random_bits(den_bits);
  if (num == 0) num = 1;
  if (den == 0) den = 1;
  mpq_class q(num, den);
  q.canonicalize();
  RC_PRE(lo <= q && q <= hi);
  return q;
}

// A hardened sampler at a random parameter in [1/100, upper] and a random tau_bits: its certified
// tau is positive and within the target.
template <class Params>
Params random_hardened(const mpq_class& upper) {
  const mpq_class value = random_rational_in(mpq_class(1, 100), upper);
  const unsigned tau_bits = *rc::gen::inRange(40u, 129u);
  Params p = Params::make(value, 0, {tau_bits});
  RC_ASSERT(p.tau_upper() > 0);
  RC_ASSERT(p.tau_upper() <= power_of_two(-static_cast<long>(tau_bits)));
  return p;
}

RC_GTEST_PROP(HardenedTau, GaussianTauIsCertifiedBelowTheTarget, ()) {
  const auto p = random_hardened<HardenedDiscreteGaussianParams>(power_of_two(100));
  RC_CLASSIFY(p.plan().levels == 0, "direct table");
  RC_CLASSIFY(p.plan().levels > 9, "beyond 10^12");
  RC_ASSERT(p.plan().levels <= 24u);
}

RC_GTEST_PROP(HardenedTau, LaplaceTauIsCertifiedBelowTheTarget, ()) {
  const auto p = random_hardened<HardenedDiscreteLaplaceParams>(power_of_two(50));
  RC_ASSERT(p.plan().magnitude.entries <= 58u);
}

std::int64_t sample_discrete_gaussian_or_laplace(BitSource& b, const HardenedDiscreteGaussianParams& p) {
  return sample_discrete_gaussian(b, p);
}
std::int64_t sample_discrete_gaussian_or_laplace(BitSource& b, const HardenedDiscreteLaplaceParams& p) {
  return sample_discrete_laplace(b, p);
}

// Every call reads exactly bits_per_sample() bits, whatever the output.
template <class Params>
void expect_fixed_bits(const Params& p, std::uint32_t seed_index) {
  SeededBits bits(test_support::fixed_seed(61, seed_index));
  std::int64_t smallest = 0, largest = 0;
  for (int i = 0; i < 20'000; ++i) {
    const std::uint64_t before = bits.bits_consumed();
    const std::int64_t x = sample_discrete_gaussian_or_laplace(bits, p);
    ASSERT_EQ(bits.bits_consumed() - before, p.bits_per_sample()) << "draw " << i << " gave " << x;
    smallest = std::min(smallest, x - p.mean());
    largest = std::max(largest, x - p.mean());
  }
  EXPECT_LT(smallest, 0);  // the draws did vary, so the count was checked on different outputs
  EXPECT_GT(largest, 0);
}

TEST(HardenedBits, EveryCallReadsTheSameNumberOfBits) {
  std::uint32_t k = 0;
  for (const char* s : {"1/4", "9/4", "100", "187", "1e6", "1e12", "1267650600228229401496703205376"}) {
    for (unsigned tau_bits : {40u, 64u, 128u}) {
      expect_fixed_bits(HardenedDiscreteGaussianParams::make(parse_rational("sigma2", s), 7, {tau_bits}), ++k);
    }
  }
  for (const char* s : {"1/2", "10", "1e9", "1125899906842624"}) {
    for (unsigned tau_bits : {40u, 64u, 128u}) {
      expect_fixed_bits(HardenedDiscreteLaplaceParams::make(parse_rational("scale", s), -3, {tau_bits}), ++k);
    }
  }
}

TEST(HardenedBits, DocumentedCountsAtTheBenchmarkPoints) {
  // hardened_discrete_gaussian.h: (L + 1)(W + 1) bits, W = tau_bits + 16.
  EXPECT_EQ(HardenedDiscreteGaussianParams::make(100).bits_per_sample(), 81u);
  EXPECT_EQ(HardenedDiscreteGaussianParams::make(100).plan().levels, 0u);
  EXPECT_EQ(HardenedDiscreteGaussianParams::make(1'000'000'000'000L).plan().levels, 9u);
  EXPECT_EQ(HardenedDiscreteGaussianParams::make(1'000'000'000'000L).bits_per_sample(), 810u);
  EXPECT_EQ(HardenedDiscreteGaussianParams::make(power_of_two(100)).plan().levels, 24u);
  EXPECT_EQ(HardenedDiscreteGaussianParams::make(power_of_two(100)).bits_per_sample(), 2025u);
  // hardened_discrete_laplace.h: (K + 1) W + 1 bits.
  EXPECT_EQ(HardenedDiscreteLaplaceParams::make(10).bits_per_sample(), 801u);
}

TEST(HardenedSeeds, SameSeedSameDrawsAndMeanShifts) {
  const auto p0 = HardenedDiscreteGaussianParams::make(mpq_class(9, 4));
  const auto p1 = HardenedDiscreteGaussianParams::make(mpq_class(9, 4), -1'000'000);
  SeededBits a(test_support::fixed_seed(62, 1)), b(test_support::fixed_seed(62, 1));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(sample_discrete_gaussian(a, p0) - 1'000'000, sample_discrete_gaussian(b, p1));
  const auto l0 = HardenedDiscreteLaplaceParams::make(mpq_class(3, 2));
  const auto l1 = HardenedDiscreteLaplaceParams::make(mpq_class(3, 2), mpz_class(1) << 62);
  SeededBits c(test_support::fixed_seed(62, 2)), d(test_support::fixed_seed(62, 2));
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(sample_discrete_laplace(c, l0) + (std::int64_t{1} << 62), sample_discrete_laplace(d, l1));
  }
}

}  // namespace
}  // namespace exactdp
