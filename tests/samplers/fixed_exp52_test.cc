// fixed_exp52_test.cc — internal/fixed_exp52.h: the exact integer 2^-h of the hardened rejection
// method against MPFR (|v / 2^104 - 2^-(i/16 + r)| within 2^kFixedExp52ErrorLog2, and alpha within
// kFixedExp52AlphaErrorUnits of 2^80 2^-h) at random inputs and at the edges of every split (n,
// i/16, r1, r0); its products against GMP; the 64-bit-word evaluation against the definition
// written out in GMP integers (which also checks that no Horner value leaves [0, its constant]);
// the constants' ranges; the portable group's S_i select for every i in every lane; and the AVX-512
// IFMA and AVX2 group evaluations, where the CPU has them, bit for bit against the one-at-a-time
// evaluation on the same inputs. Broken constants are caught.
#include <gtest/gtest.h>
#include <gmpxx.h>
#include <mpfr.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/fixed_exp52.h>

namespace exactdp::internal {
namespace {

mpz_class to_mpz(uint128 v) {
  mpz_class out = static_cast<unsigned long>(v >> 64);
  out <<= 64;
  out += static_cast<unsigned long>(v);
  return out;
}

// log2 |got / 2^scale - 2^-(H' / 2^117)| rounded up to an integer (or -1000 when exact), H' = H
// or, with fraction_only, H without its integer part n.
double error_log2(uint128 h, const mpz_class& got, unsigned scale, bool fraction_only) {
  Real exact(400), value(400), diff(400);
  const uint128 input = fraction_only ? h & ((uint128{1} << kFixedExp52InputFractionBits) - 1) : h;
  const mpz_class hz = to_mpz(input);
  mpfr_set_z(exact, hz.get_mpz_t(), MPFR_RNDN);  // exact at 400 bits
  mpfr_div_2ui(exact, exact, kFixedExp52InputFractionBits, MPFR_RNDN);
  mpfr_neg(exact, exact, MPFR_RNDN);
  mpfr_exp2(exact, exact, MPFR_RNDN);
  mpfr_set_z(value, got.get_mpz_t(), MPFR_RNDN);
  mpfr_div_2ui(value, value, scale, MPFR_RNDN);
  mpfr_sub(diff, value, exact, MPFR_RNDN);
  mpfr_abs(diff, diff, MPFR_RNDN);
  if (mpfr_zero_p(diff)) return -1000;
  return static_cast<double>(mpfr_get_exp(diff));  // 2^(e-1) <= diff < 2^e
}

// v = S_i 2^-r before the shift, as fixed_exp52_alpha computes it.
mpz_class v_of(uint128 h, const FixedExp52& t) { return to_mpz(exp52_v(h, t, t.sixteenth[exp52_i(h)])); }

// Whether |alpha - 2^80 2^-h| < units (h = H / 2^117).
bool alpha_within(uint128 h, uint128 alpha, unsigned long units) {
  Real exact(400), diff(400);
  const mpz_class hz = to_mpz(h);
  mpfr_set_z(exact, hz.get_mpz_t(), MPFR_RNDN);  // exact at 400 bits
  mpfr_div_2ui(exact, exact, kFixedExp52InputFractionBits, MPFR_RNDN);
  mpfr_neg(exact, exact, MPFR_RNDN);
  mpfr_exp2(exact, exact, MPFR_RNDN);
  mpfr_mul_2ui(exact, exact, 80, MPFR_RNDN);
  const mpz_class got = to_mpz(alpha);
  mpfr_sub_z(diff, exact, got.get_mpz_t(), MPFR_RNDN);
  mpfr_abs(diff, diff, MPFR_RNDN);
  return mpfr_cmp_ui(diff, units) < 0;
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
  for (unsigned i = 0; i < 16; ++i) {  // every sixteenth with r = 0 and r at its largest
    out.push_back(uint128{i} << 113);
    out.push_back((uint128{i + 1} << 113) - 1);
  }
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 20000; ++i) {
    const uint128 v = (uint128{rng()} << 64) | rng();
    out.push_back(v >> (6 + rng() % 40));  // spread over magnitudes, all < 2^122
  }
  return out;
}

TEST(FixedExp52, WithinItsBoundEverywhere) {
  const FixedExp52 t = make_fixed_exp52();
  double worst_v = -1000, worst_alpha = -1000;
  for (const uint128 h : inputs()) {
    worst_v = std::max(worst_v, error_log2(h, v_of(h, t), 104, true));
    worst_alpha = std::max(worst_alpha, error_log2(h, to_mpz(fixed_exp52_alpha(h, t)), 80, false));
    ASSERT_TRUE(alpha_within(h, fixed_exp52_alpha(h, t), kFixedExp52AlphaErrorUnits)) << "input " << to_mpz(h);
  }
  RecordProperty("largest_error_log2", std::to_string(worst_v));
  EXPECT_LE(worst_v, static_cast<double>(kFixedExp52ErrorLog2)) << "largest error 2^" << worst_v;
  EXPECT_GE(worst_v, -80.0);  // the check is alive: the polynomial's error (2^-76.3) is visible
  EXPECT_LE(worst_alpha, static_cast<double>(kFixedExp52ErrorLog2)) << "alpha off by 2^" << worst_alpha;
}

TEST(FixedExp52, ProductsAreTheirExactDefinitions) {
  std::mt19937_64 rng(7);
  const uint128 top = uint128{1} << 104;
  const std::vector<uint128> edge = {0, 1, top - 1, top >> 1, (top >> 1) - 1, uint128{1} << 52, (uint128{1} << 52) - 1,
                                     uint128{1} << 64, (uint128{1} << 64) - 1};
  const std::vector<std::uint64_t> limb_edge = {0, 1, kLimb52, kLimb52 >> 1, std::uint64_t{1} << 51};
  const auto mul3_of = [](uint128 a, uint128 b) {
    const mpz_class a1 = to_mpz(a >> 52), a0 = to_mpz(a & kLimb52), b1 = to_mpz(b >> 52), b0 = to_mpz(b & kLimb52);
    return mpz_class(a1 * b1 + ((a1 * b0 + a0 * b1) >> 52));
  };
  const auto check = [&](uint128 a, uint128 b, std::uint64_t r1) {
    ASSERT_EQ(to_mpz(mul3(a, b)), mul3_of(a, b));
    ASSERT_LE(to_mpz(mul3(a, b)), (to_mpz(a) * to_mpz(b)) >> 104);  // below the product, within 2
    ASSERT_GE(to_mpz(mul3(a, b)) + 2, (to_mpz(a) * to_mpz(b)) >> 104);
    ASSERT_EQ(to_mpz(mul_r1(r1 << 12, a)), (to_mpz(a) * to_mpz(r1)) >> 52);
    ASSERT_EQ(mpz_class(high_word(r1 << 12, static_cast<std::uint64_t>(b) & kLimb52)),
              mpz_class((to_mpz(r1) * to_mpz(b & kLimb52)) >> 52));
  };
  for (const uint128 a : edge) {
    for (const uint128 b : edge) {
      for (const std::uint64_t r1 : limb_edge) check(a, b, r1);
    }
  }
  for (int i = 0; i < 20000; ++i) {
    const uint128 a = ((uint128{rng()} << 64) | rng()) % top;
    const uint128 b = ((uint128{rng()} << 64) | rng()) % top;
    check(a, b, rng() & kLimb52);
  }
}

// v as fixed_exp52.h defines it, step by step in GMP integers (no word tricks): the reference that
// exp52_v (64-bit words, pre-shifted factors) must match on every CPU, IFMA or not. Every Horner
// value must stay in [0, its constant] (no subtraction wraps in the word evaluation).
mpz_class v_reference(uint128 h, const FixedExp52& t) {
  const mpz_class r1 = exp52_r1(h), r0 = exp52_r0(h);
  EXPECT_EQ(r1, to_mpz(h & ((uint128{1} << 113) - 1)) >> 61);
  EXPECT_EQ(r0, (to_mpz(h & ((uint128{1} << 61) - 1)) >> 9));
  mpz_class q = t.narrow[kFixedExp52Degree];
  for (unsigned k = kFixedExp52Degree; k-- > kFixedExp52NarrowLast;) {
    q = mpz_class(t.narrow[k]) - ((r1 * q) >> 52);
    EXPECT_GE(q, 0) << "one-limb step " << k;
  }
  mpz_class w = to_mpz(t.wide[kFixedExp52NarrowLast - 1]) - ((r1 * q) >> kFixedExp52TransitionShift);
  EXPECT_GE(w, 0) << "the first two-limb value";
  for (unsigned k = kFixedExp52NarrowLast - 1; k-- > 1;) {
    w = to_mpz(t.wide[k]) - ((r1 * w) >> 52);
    EXPECT_GE(w, 0) << "two-limb step " << k;
  }
  mpz_class d = (r1 * w) >> 52;
  const mpz_class c = (mpz_class(t.ln2) * r0) >> 56;
  d = d + c - ((c * (d >> 52)) >> 52);
  EXPECT_LT(d, mpz_class(1) << 100);
  const mpz_class s = to_mpz(t.sixteenth[exp52_i(h)]);
  const mpz_class mask = (mpz_class(1) << 52) - 1;
  const mpz_class s1 = s >> 52, s0 = s & mask, d1 = d >> 52, d0 = d & mask;
  return s - (s1 * d1 + ((s1 * d0 + s0 * d1) >> 52));
}

TEST(FixedExp52, WordEvaluationMatchesTheLimbDefinition) {
  const FixedExp52 t = make_fixed_exp52();
  std::vector<uint128> all = inputs();
  std::mt19937_64 rng(5);
  for (int i = 0; i < 100000; ++i) all.push_back(((uint128{rng()} << 64) | rng()) >> 6);
  for (const uint128 h : all) {
    ASSERT_EQ(to_mpz(exp52_v(h, t, t.sixteenth[exp52_i(h)])), v_reference(h, t)) << "input " << to_mpz(h);
  }
  for (std::size_t first = 0; first + 2 <= all.size(); ++first) {  // two lanes, as the portable group runs
    const uint128 s[2] = {t.sixteenth[exp52_i(all[first])], t.sixteenth[exp52_i(all[first + 1])]};
    uint128 v[2];
    exp52_v_lanes<2>(&all[first], t, s, v);
    for (unsigned l = 0; l < 2; ++l) ASSERT_EQ(to_mpz(v[l]), v_reference(all[first + l], t)) << "lane " << l;
  }
}

// A digit evaluation's v (before alpha's shift) equals exp52_v (the word evaluation, checked against
// the definition above) on the same inputs, every input in `rotations` lane positions: each carry of
// the 26-bit digits is seen here, where alpha's floor by 2^(24 + n) would hide most one-unit slips.
void expect_digit_v_matches_words(FixedExp52GroupFn group_v, std::size_t rotations) {
  const FixedExp52 t = make_fixed_exp52();
  std::vector<uint128> all = inputs();
  std::mt19937_64 rng(5);
  for (int i = 0; i < 100000; ++i) all.push_back(((uint128{rng()} << 64) | rng()) >> 6);
  for (std::size_t rotate = 0; rotate < rotations; ++rotate) {
    for (std::size_t first = rotate; first + kFixedExp52Group <= all.size(); first += kFixedExp52Group) {
      uint128 v[kFixedExp52Group];
      group_v(t, &all[first], v);
      for (std::size_t s = 0; s < kFixedExp52Group; ++s) {
        const uint128 h = all[first + s];
        ASSERT_TRUE(v[s] == exp52_v(h, t, t.sixteenth[exp52_i(h)])) << "input " << to_mpz(h) << " lane " << s;
      }
    }
  }
}

// The AVX2 evaluation (where this CPU has AVX2; four lanes a vector).
TEST(FixedExp52, Avx2DigitEvaluationMatchesTheWordEvaluation) {
  const FixedExp52GroupFn avx2_v = fixed_exp52_group_v_avx2();
  if (avx2_v == nullptr) GTEST_SKIP() << "no AVX2 on this CPU (or EXACTDP_CPU_LEVEL=baseline)";
  expect_digit_v_matches_words(avx2_v, 3);
}

// The AVX-512F evaluation (where this CPU has AVX-512F; eight lanes a vector, every input in each).
TEST(FixedExp52, Avx512DigitEvaluationMatchesTheWordEvaluation) {
  const FixedExp52GroupFn avx512_v = fixed_exp52_group_v_avx512();
  if (avx512_v == nullptr) GTEST_SKIP() << "no AVX-512F on this CPU (or EXACTDP_CPU_LEVEL below avx512)";
  expect_digit_v_matches_words(avx512_v, 8);
}

// The portable S_i select (four i in the lanes of 16-byte vectors: what the portable group runs on
// CPUs without AVX2) takes S_i for every i in every lane: the same i in all lanes, i = (s + k) mod 16
// and (k - s) mod 16 for every k (every lane next to every other i), then random.
TEST(FixedExp52, PortableSelectTakesEverySixteenthInEveryLane) {
  const FixedExp52 t = make_fixed_exp52();
  std::mt19937_64 rng(5);
  for (unsigned round = 0; round < 16 * 3 + 100; ++round) {
    std::uint32_t index[kFixedExp52Group];
    for (std::uint32_t s = 0; s < kFixedExp52Group; ++s) {
      const std::uint32_t k = round % 16;
      index[s] = round < 16 ? k : round < 32 ? (s + k) % 16 : round < 48 ? (k + 16 - s % 16) % 16 : rng() % 16;
    }
    uint128 got[kFixedExp52Group];
    select_sixteenths_portable(t, index, got);
    for (std::size_t s = 0; s < kFixedExp52Group; ++s) {
      ASSERT_TRUE(got[s] == t.sixteenth[index[s]]) << "lane " << s << ", i = " << index[s];
    }
  }
}

// The IFMA group (where this CPU has AVX-512 IFMA), the AVX-512F and AVX2 digit groups (where it
// has those) and the portable group give alpha exactly as fixed_exp52_alpha does, for every input, in every lane
// position.
TEST(FixedExp52, GroupsGiveTheSameBitsAsSingleEvaluations) {
  const FixedExp52 t = make_fixed_exp52();
  const FixedExp52GroupFn ifma = fixed_exp52_group_ifma(), avx2 = fixed_exp52_group_avx2();
  const FixedExp52GroupFn avx512 = fixed_exp52_group_avx512();
  RecordProperty("ifma", ifma != nullptr ? "yes" : "no");
  RecordProperty("avx512", avx512 != nullptr ? "yes" : "no");
  RecordProperty("avx2", avx2 != nullptr ? "yes" : "no");
  std::vector<uint128> all = inputs();
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100000; ++i) all.push_back(((uint128{rng()} << 64) | rng()) >> 6);
  const struct {
    const char* name;
    FixedExp52GroupFn group;
  } groups[] = {{"portable", fixed_exp52_group_portable}, {"ifma", ifma}, {"avx512", avx512}, {"avx2", avx2},
                    {"chosen", t.group}};
  for (std::size_t rotate = 0; rotate < 3; ++rotate) {  // every input in several lanes
    for (std::size_t first = rotate; first + kFixedExp52Group <= all.size(); first += kFixedExp52Group) {
      for (const auto& g : groups) {
        if (g.group == nullptr) continue;
        uint128 alpha[kFixedExp52Group];
        g.group(t, &all[first], alpha);
        for (std::size_t s = 0; s < kFixedExp52Group; ++s) {
          ASSERT_TRUE(alpha[s] == fixed_exp52_alpha(all[first + s], t))
              << g.name << ", input " << first + s << " lane " << s;
        }
      }
    }
  }
  if (ifma == nullptr || avx512 == nullptr || avx2 == nullptr) {
    GTEST_SKIP() << "not every vector group runs on this CPU";
  }
}

// Every Horner value is its constant minus a non-negative floor, so it is at most its constant; the
// constants are such that the floor never exceeds the next constant (r1 < 2^52), so no
// subtraction wraps, and d stays below 2^100 (mul3's operand, d's high limb below 2^48).
TEST(FixedExp52, ConstantsKeepEveryHornerValueInRange) {
  const FixedExp52 t = make_fixed_exp52();
  const mpz_class r1_max = kLimb52;
  for (unsigned k = kFixedExp52NarrowLast; k < kFixedExp52Degree; ++k) {
    EXPECT_LT(t.narrow[k], std::uint64_t{1} << 52) << k;
    EXPECT_GE(mpz_class(t.narrow[k]), (r1_max * t.narrow[k + 1]) >> 52) << k;
  }
  const unsigned first_wide = kFixedExp52NarrowLast - 1;
  EXPECT_GE(to_mpz(t.wide[first_wide]), (r1_max * t.narrow[kFixedExp52NarrowLast]) >> kFixedExp52TransitionShift);
  for (unsigned k = 1; k < first_wide; ++k) {
    EXPECT_GE(to_mpz(t.wide[k]), (r1_max * to_mpz(t.wide[k + 1])) >> 52) << k;
  }
  for (unsigned k = 1; k <= first_wide; ++k) EXPECT_LT(to_mpz(t.wide[k]), mpz_class(1) << 104) << k;
  EXPECT_LT(((r1_max * to_mpz(t.wide[1])) >> 52) + (mpz_class(1) << 48), mpz_class(1) << 100);
  EXPECT_LT(t.ln2, std::uint64_t{1} << 52);
}

// A constant a little off is seen by the MPFR check (each by a few times the bound at r near 1/16).
TEST(FixedExp52, CatchesBrokenConstants) {
  const auto worst = [](const FixedExp52& t) {
    double w = -1000;
    for (const uint128 h : inputs()) w = std::max(w, error_log2(h, v_of(h, t), 104, true));
    return w;
  };
  FixedExp52 t = make_fixed_exp52();
  t.sixteenth[5] += uint128{1} << 30;  // off by 2^-74
  EXPECT_GT(worst(t), static_cast<double>(kFixedExp52ErrorLog2));
  t = make_fixed_exp52();
  t.wide[1] += uint128{1} << 32;  // b_1 / b_0 (about ln 2) off by 2^-68: r_hi < 1/16 leaves 2^-72
  EXPECT_GT(worst(t), static_cast<double>(kFixedExp52ErrorLog2));
  t = make_fixed_exp52();
  t.wide[3] += uint128{1} << 31;  // b_3 / b_0 off by 2^-61: r_hi^3 leaves 2^-73
  EXPECT_GT(worst(t), static_cast<double>(kFixedExp52ErrorLog2));
  t = make_fixed_exp52();
  t.narrow[5] += std::uint64_t{1} << 9;  // b_5 / b_0 off by 2^-52 in a one-limb step: r_hi^5 leaves 2^-72
  EXPECT_GT(worst(t), static_cast<double>(kFixedExp52ErrorLog2));
  t = make_fixed_exp52();
  t.ln2 += std::uint64_t{1} << 40;  // L off by 2^-12: r_lo < 2^-56 leaves 2^-68
  EXPECT_GT(worst(t), static_cast<double>(kFixedExp52ErrorLog2));
}

}  // namespace
}  // namespace exactdp::internal
