// Uniform integers: n = 1 draws nothing, exact rejection on a scripted stream, and the 64-bit,
// 128-bit and GMP versions read the same bits and return the same values.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/uniform.h>
#include "tests/samplers/scripted_bits.h"

namespace exactdp {
namespace {

TEST(UniformBelow, OneDrawsNoBits) {
  SeededBits bits(Seed{});
  EXPECT_EQ(sample_uniform_below(bits, std::uint64_t{1}), 0u);
  EXPECT_EQ(sample_uniform_below(bits, mpz_class(1)), 0);
  EXPECT_EQ(bits.bits_consumed(), 0u);
}

TEST(UniformBelow, RejectsValuesAtOrAboveNOnAScriptedStream) {
  // n = 5 needs k = 3 bits per attempt: 111 (7) and 101 (5) are rejected, 011 (3) accepted.
  test_support::ScriptedBits bits("111" "101" "011");
  EXPECT_EQ(sample_uniform_below(bits, std::uint64_t{5}), 3u);
  EXPECT_EQ(bits.bits_consumed(), 9u);
}

TEST(UniformBelow, ZeroIsAProgrammingError) {
  SeededBits bits(Seed{});
  EXPECT_THROW((void)sample_uniform_below(bits, std::uint64_t{0}), std::invalid_argument);
  EXPECT_THROW((void)sample_uniform_below(bits, mpz_class(0)), std::invalid_argument);
}

TEST(UniformBelow, EveryValueOfASmallRangeAppears) {
  SeededBits bits(Seed{});
  std::array<int, 6> counts{};
  for (int i = 0; i < 6000; ++i) ++counts[sample_uniform_below(bits, std::uint64_t{6})];
  // Each count is Binomial(6000, 1/6): mean 1000, sd 28.9; 1000 +- 200 fails with prob < 1e-11.
  for (int c : counts) EXPECT_NEAR(c, 1000, 200);
}

mpz_class random_bound(const std::vector<std::uint64_t>& limbs) {
  mpz_class n = 0;
  for (auto l : limbs) {
    n <<= 64;
    n += static_cast<unsigned long>(l);
  }
  return n == 0 ? mpz_class(1) : n;
}

RC_GTEST_PROP(UniformBelow, AllIntegerWidthsReadTheSameStream, ()) {
  const auto limbs = *rc::gen::container<std::vector<std::uint64_t>>(*rc::gen::inRange(1, 3), rc::gen::arbitrary<std::uint64_t>());
  const auto shift = *rc::gen::inRange(0, 64);
  mpz_class n = random_bound(limbs) >> shift;
  if (n == 0) n = 1;
  Seed seed{};
  seed[0] = *rc::gen::arbitrary<unsigned char>();
  SeededBits a(seed), b(seed);
  uint128 n128 = 0;
  const bool fits128 = mpz_sizeinbase(n.get_mpz_t(), 2) <= 128;
  if (fits128) {
    mpz_class high = n >> 64, low = n - (high << 64);
    n128 = (uint128{mpz_get_ui(high.get_mpz_t())} << 64) | mpz_get_ui(low.get_mpz_t());
  }
  for (int i = 0; i < 20; ++i) {
    const mpz_class big = sample_uniform_below(a, n);
    RC_ASSERT(big >= 0);
    RC_ASSERT(big < n);
    if (n.fits_ulong_p()) {
      RC_ASSERT(mpz_class(static_cast<unsigned long>(sample_uniform_below(b, std::uint64_t{n.get_ui()}))) == big);
    } else {
      const uint128 v = sample_uniform_below(b, n128);
      mpz_class vv = static_cast<unsigned long>(v >> 64);
      vv <<= 64;
      vv += static_cast<unsigned long>(v & ~std::uint64_t{0});
      RC_ASSERT(vv == big);
    }
    RC_ASSERT(a.bits_consumed() == b.bits_consumed());
  }
}

}  // namespace
}  // namespace exactdp
