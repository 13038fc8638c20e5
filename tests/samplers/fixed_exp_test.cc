// fixed_exp_test.cc — internal/fixed_exp.h against MPFR: the fixed-point 2^-h of the hardened
// rejection method stays within its stated bound 2^kFixedExpErrorLog2 at random inputs and at the
// edges of every split (n, i/16, r), and deliberately broken constants are caught.
#include <gtest/gtest.h>
#include <gmpxx.h>
#include <mpfr.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/fixed_exp.h>

namespace exactdp::internal {
namespace {

mpz_class to_mpz(uint128 v) {
  mpz_class out = static_cast<unsigned long>(v >> 64);
  out <<= 64;
  out += static_cast<unsigned long>(v);
  return out;
}

// |fixed_exp2_neg(H) / 2^127 - 2^-(H / 2^117)|, as an upper-rounded MPFR number's log2 (or -1000).
double error_log2(uint128 g, const FixedExpTables& t) {
  Real exact(400), got(400), diff(400);
  const mpz_class gz = to_mpz(g);
  mpfr_set_z(exact, gz.get_mpz_t(), MPFR_RNDN);  // exact at 400 bits
  mpfr_div_2ui(exact, exact, kFixedExpInputFractionBits, MPFR_RNDN);
  mpfr_neg(exact, exact, MPFR_RNDN);
  mpfr_exp2(exact, exact, MPFR_RNDN);
  const mpz_class value = to_mpz(fixed_exp2_neg(g, t));
  mpfr_set_z(got, value.get_mpz_t(), MPFR_RNDN);
  mpfr_div_2ui(got, got, 127, MPFR_RNDN);
  mpfr_sub(diff, got, exact, MPFR_RNDN);
  mpfr_abs(diff, diff, MPFR_RNDN);
  if (mpfr_zero_p(diff)) return -1000;
  return mpfr_get_d(diff, MPFR_RNDU) > 0 ? static_cast<double>(mpfr_get_exp(diff)) : -1000;  // 2^(e-1) <= diff < 2^e
}

std::vector<uint128> inputs() {
  std::vector<uint128> out;
  const uint128 top = uint128{1} << 122;
  out.push_back(0);
  out.push_back(1);
  out.push_back(top - 1);
  for (unsigned bit = 0; bit < 122; ++bit) {  // every split edge: 2^bit and 2^bit - 1
    out.push_back(uint128{1} << bit);
    out.push_back((uint128{1} << bit) - 1);
  }
  std::mt19937_64 rng(20261126);
  for (int i = 0; i < 20000; ++i) {
    const uint128 v = (uint128{rng()} << 64) | rng();
    out.push_back(v >> (6 + rng() % 40));  // spread over magnitudes, all < 2^122
  }
  return out;
}

TEST(FixedExp, WithinItsBoundEverywhere) {
  const FixedExpTables t = make_fixed_exp_tables();
  double worst = -1000;
  for (const uint128 g : inputs()) worst = std::max(worst, error_log2(g, t));
  RecordProperty("largest_error_log2", std::to_string(worst));
  EXPECT_LE(worst, static_cast<double>(kFixedExpErrorLog2)) << "largest error 2^" << worst;
  EXPECT_GE(worst, -130.0);  // the check is alive: rounding errors are visible
}

TEST(FixedExp, ProductIsExactFloor) {
  std::mt19937_64 rng(7);
  const uint128 one = kFixedOne;
  for (int i = 0; i < 2000; ++i) {
    const uint128 a = ((uint128{rng()} << 64) | rng()) % (one + 1);
    const uint128 b = ((uint128{rng()} << 64) | rng()) % (one + 1);
    const mpz_class expected = (to_mpz(a) * to_mpz(b)) >> 127;
    EXPECT_EQ(to_mpz(fixed_mul(a, b)), expected);
  }
  EXPECT_EQ(to_mpz(fixed_mul(one, one)), to_mpz(one));
  for (const uint128 a : {one, one - 1, (one >> 1) + 1, uint128{~0ULL}, uint128{1} << 64, uint128{0}}) {
    for (const uint128 b : {one, one - 1, uint128{~0ULL}, (uint128{~0ULL} << 63) >> 1, uint128{1}}) {
      EXPECT_EQ(to_mpz(fixed_mul(a, b)), (to_mpz(a) * to_mpz(b)) >> 127);
    }
  }
}

// The group select (the AVX2 permutes where the CPU has them, and the portable masked passes)
// returns exactly the table entries, lane by lane, for every index in every position.
TEST(FixedExp, GroupSelectIsTheTable) {
  const FixedExpTables t = make_fixed_exp_tables();
  RecordProperty("group_select", t.select_group == &fixed_select_group_portable ? "portable" : "avx2");
  std::mt19937_64 rng(11);
  std::uint32_t index[kFixedSelectGroup];
  uint128 best[kFixedSelectGroup], portable[kFixedSelectGroup];
  for (int round = 0; round < 2000; ++round) {
    for (std::size_t s = 0; s < kFixedSelectGroup; ++s) {  // one index everywhere, rotations, random
      const std::uint64_t i = round < 16 ? round : (round < 48 ? s + round : rng() >> 7);
      index[s] = static_cast<std::uint32_t>(i & 15);
    }
    t.select_group(t, index, best);
    fixed_select_group_portable(t, index, portable);
    for (std::size_t s = 0; s < kFixedSelectGroup; ++s) {
      ASSERT_TRUE(best[s] == t.exp2_sixteenth[index[s]]) << "round " << round << " lane " << s;
      ASSERT_TRUE(portable[s] == t.exp2_sixteenth[index[s]]) << "round " << round << " lane " << s;
    }
  }
  // The exponential through the selected entry is the exponential.
  for (const uint128 g : inputs()) {
    ASSERT_TRUE(fixed_exp2_neg_at(g, t, t.exp2_sixteenth[fixed_exp2_index(g)]) == fixed_exp2_neg(g, t));
  }
}

TEST(FixedExp, CatchesABrokenTable) {
  FixedExpTables t = make_fixed_exp_tables();
  t.exp2_sixteenth[5] += uint128{1} << 54;  // off by 2^-73
  double worst = -1000;
  for (const uint128 g : inputs()) worst = std::max(worst, error_log2(g, t));
  EXPECT_GT(worst, static_cast<double>(kFixedExpErrorLog2));
  FixedExpTables u = make_fixed_exp_tables();
  u.tail[0] += 1ULL << 16;  // P's constant term off by 2^-48: T = rho^3 P hides most of it, not all
  double worst_u = -1000;
  for (const uint128 g : inputs()) worst_u = std::max(worst_u, error_log2(g, u));
  EXPECT_GT(worst_u, static_cast<double>(kFixedExpErrorLog2));
}

}  // namespace
}  // namespace exactdp::internal
