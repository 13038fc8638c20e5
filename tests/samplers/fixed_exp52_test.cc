// fixed_exp52_test.cc — internal/fixed_exp52.h: the exact integer 2^-h of the hardened rejection
// method against MPFR (|v / 2^104 - 2^-(i/16 + r)| within 2^kFixedExp52ErrorLog2, so alpha within
// 2^-80 + 2^-87 of 2^80 2^-h) at random inputs and at the edges of every split (n, i/16, r); its
// product against GMP; and the AVX-512 IFMA group evaluation, where the CPU has it, bit for bit
// against the one-at-a-time evaluation on the same inputs. Broken constants are caught.
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

// v = S_i exp(-rho) before the shift, as fixed_exp52_alpha computes it.
mpz_class v_of(uint128 h, const FixedExp52& t) { return to_mpz(exp52_v(h, t, t.sixteenth[exp52_i(h)])); }

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
  }
  RecordProperty("largest_error_log2", std::to_string(worst_v));
  EXPECT_LE(worst_v, static_cast<double>(kFixedExp52ErrorLog2)) << "largest error 2^" << worst_v;
  EXPECT_GE(worst_v, -104.0);  // the check is alive: rounding errors are visible
  EXPECT_LE(worst_alpha, -79.0) << "alpha off by 2^" << worst_alpha;  // < 2^-80 + 2^-87
}

TEST(FixedExp52, ProductIsExactFloor) {
  std::mt19937_64 rng(7);
  const uint128 top = uint128{1} << 104;
  std::vector<uint128> edge = {0, 1, top - 1, top >> 1, (top >> 1) - 1, uint128{1} << 52, (uint128{1} << 52) - 1};
  for (const uint128 a : edge) {
    for (const uint128 b : edge) ASSERT_EQ(to_mpz(mul104(a, b)), (to_mpz(a) * to_mpz(b)) >> 104);
  }
  for (int i = 0; i < 20000; ++i) {
    const uint128 a = ((uint128{rng()} << 64) | rng()) % top;
    const uint128 b = ((uint128{rng()} << 64) | rng()) % top;
    ASSERT_EQ(to_mpz(mul104(a, b)), (to_mpz(a) * to_mpz(b)) >> 104);
  }
}

TEST(FixedExp52, PreShiftedProductIsExactFloor) {
  std::mt19937_64 rng(11);
  const uint128 top = uint128{1} << 104, rho_top = uint128{1} << 100;
  const std::vector<uint128> edge_a = {0, 1, rho_top - 1, rho_top >> 1, uint128{1} << 40, (uint128{1} << 40) - 1,
                                       (uint128{1} << 64) - 1, uint128{1} << 64};
  const std::vector<uint128> edge_b = {0, 1, top - 1, top >> 1, (uint128{1} << 64) - 1, uint128{1} << 64, rho_top - 1};
  for (const uint128 a : edge_a) {
    for (const uint128 b : edge_b) ASSERT_EQ(to_mpz(mul104_pre(a << 24, b)), (to_mpz(a) * to_mpz(b)) >> 104);
  }
  for (int i = 0; i < 20000; ++i) {
    const uint128 a = ((uint128{rng()} << 64) | rng()) % rho_top;
    const uint128 b = ((uint128{rng()} << 64) | rng()) % top;
    ASSERT_EQ(to_mpz(mul104_pre(a << 24, b)), (to_mpz(a) * to_mpz(b)) >> 104);
    const std::uint64_t q = rng() & kLimb52;
    ASSERT_EQ(to_mpz(mul104_pre_limb(a << 24, q)), (to_mpz(a) * to_mpz(uint128{q} << 52)) >> 104);
  }
  for (const uint128 a : edge_a) {
    for (const std::uint64_t q : {std::uint64_t{0}, std::uint64_t{1}, kLimb52, kLimb52 >> 1}) {
      ASSERT_EQ(to_mpz(mul104_pre_limb(a << 24, q)), (to_mpz(a) * to_mpz(uint128{q} << 52)) >> 104);
    }
  }
}

// v as fixed_exp52.h defines it, step by step with mul104 on 52-bit limbs: the reference that
// exp52_v (64-bit words, pre-shifted operands) must match on every CPU, IFMA or not.
uint128 v_reference(uint128 h, const FixedExp52& t) {
  const uint128 rho = mul104(exp52_r(h), t.ln2);
  const auto rho1 = static_cast<std::uint64_t>(rho >> 52);
  std::uint64_t q = t.narrow[kFixedExp52Degree];
  for (unsigned k = kFixedExp52Degree; k-- > kFixedExp52WideSteps;) {
    q = t.narrow[k] - static_cast<std::uint64_t>((uint128{rho1} * q) >> 52);
  }
  uint128 p = uint128{q} << 52;
  for (unsigned k = kFixedExp52WideSteps; k-- > 0;) p = t.coeff[k] - mul104(rho, p);
  const uint128 d = rho - mul104(rho, mul104(rho, p));
  const uint128 s = t.sixteenth[exp52_i(h)];
  return s - mul104(s, d);
}

TEST(FixedExp52, WordEvaluationMatchesTheLimbDefinition) {
  const FixedExp52 t = make_fixed_exp52();
  std::vector<uint128> all = inputs();
  std::mt19937_64 rng(5);
  for (int i = 0; i < 100000; ++i) all.push_back(((uint128{rng()} << 64) | rng()) >> 6);
  for (const uint128 h : all) {
    ASSERT_EQ(to_mpz(exp52_v(h, t, t.sixteenth[exp52_i(h)])), to_mpz(v_reference(h, t))) << "input " << to_mpz(h);
  }
  for (std::size_t first = 0; first + 2 <= all.size(); ++first) {  // two lanes, as the portable group runs
    const uint128 s[2] = {t.sixteenth[exp52_i(all[first])], t.sixteenth[exp52_i(all[first + 1])]};
    uint128 v[2];
    exp52_v_lanes<2>(&all[first], t, s, v);
    for (unsigned l = 0; l < 2; ++l) ASSERT_EQ(to_mpz(v[l]), to_mpz(v_reference(all[first + l], t))) << "lane " << l;
  }
}

// The IFMA group (where this CPU has AVX-512 IFMA) and the portable group give alpha exactly as
// fixed_exp52_alpha does, for every input, in every lane position.
TEST(FixedExp52, GroupsGiveTheSameBitsAsSingleEvaluations) {
  const FixedExp52 t = make_fixed_exp52();
  const FixedExp52GroupFn ifma = fixed_exp52_group_ifma();
  RecordProperty("ifma", ifma != nullptr ? "yes" : "no");
  std::vector<uint128> all = inputs();
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100000; ++i) all.push_back(((uint128{rng()} << 64) | rng()) >> 6);
  for (std::size_t rotate = 0; rotate < 3; ++rotate) {  // every input in several lanes
    for (std::size_t first = rotate; first + kFixedExp52Group <= all.size(); first += kFixedExp52Group) {
      uint128 portable[kFixedExp52Group], vector[kFixedExp52Group];
      fixed_exp52_group_portable(t, &all[first], portable);
      if (ifma != nullptr) ifma(t, &all[first], vector);
      for (std::size_t s = 0; s < kFixedExp52Group; ++s) {
        const uint128 expected = fixed_exp52_alpha(all[first + s], t);
        ASSERT_TRUE(portable[s] == expected) << "portable, input " << first + s;
        if (ifma != nullptr) {
          ASSERT_TRUE(vector[s] == expected) << "ifma, input " << first + s << " lane " << s;
        }
      }
    }
  }
  if (ifma == nullptr) GTEST_SKIP() << "no AVX-512 IFMA on this CPU: the portable group only";
}

TEST(FixedExp52, CatchesBrokenConstants) {
  const auto worst = [](const FixedExp52& t) {
    double w = -1000;
    for (const uint128 h : inputs()) w = std::max(w, error_log2(h, v_of(h, t), 104, true));
    return w;
  };
  FixedExp52 t = make_fixed_exp52();
  t.sixteenth[5] += uint128{1} << 19;  // off by 2^-85
  EXPECT_GT(worst(t), static_cast<double>(kFixedExp52ErrorLog2));
  FixedExp52 u = make_fixed_exp52();
  u.coeff[1] += uint128{1} << 34;  // 1/3! off by 2^-70: rho^3 hides most of it, not all
  EXPECT_GT(worst(u), static_cast<double>(kFixedExp52ErrorLog2));
  u = make_fixed_exp52();
  u.narrow[6] += std::uint64_t{1} << 12;  // 1/8! off by 2^-40 in a one-limb step: rho^8 leaves 2^-76
  EXPECT_GT(worst(u), static_cast<double>(kFixedExp52ErrorLog2));
}

}  // namespace
}  // namespace exactdp::internal
