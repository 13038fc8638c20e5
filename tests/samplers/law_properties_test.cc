// Properties of the laws, checked statistically with exact (Hoeffding) bounds:
//  - symmetry of the discrete Gaussian and Laplace: P[X = k] = P[X = -k];
//  - Bernoulli(exp(-(a+b))) has the law of Bernoulli(exp(-a)) AND Bernoulli(exp(-b));
//  - P[Bernoulli(exp(-gamma)) = 1] is exp(-gamma) (MPFR-certified bounds) and so decreasing in gamma.
// Every check uses a fixed seed and rejects only when Hoeffding's inequality puts the observed
// deviation below probability kAlpha under a correct sampler: each assertion has a false-alarm
// probability <= kAlpha = 1e-6 (at most 1e-5 for the whole file). Companion tests run the same
// checks on deliberately broken samplers and require them to fail.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <functional>
#include <map>

#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/uniform.h>

namespace exactdp {
namespace {
namespace law_properties_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr double kAlpha = 1e-6;

Seed seed(int v) {
  Seed s{};
  s[0] = static_cast<unsigned char>(v);
  s[1] = 0x5a;
  return s;
}

// Hoeffding radius: a sum of n independent terms each in an interval of width w deviates from
// its mean by >= radius with probability <= alpha.
double hoeffding_radius(double n, double w) {
  return w * std::sqrt(n * std::log(2.0 / kAlpha) / 2.0);
}

// Sign balance at magnitudes 1..4 and overall. Conditional on the number m of draws with
// |X| = k, the count of +k is Binomial(m, 1/2) under symmetry. Five checks, each at kAlpha.
::testing::AssertionResult symmetric(const std::function<long(BitSource&)>& draw, int n) {
  SeededBits bits(seed(1));
  std::map<long, long> counts;
  for (int i = 0; i < n; ++i) ++counts[draw(bits)];
  long pos = 0, neg = 0;
  for (const auto& [x, c] : counts) (x > 0 ? pos : (x < 0 ? neg : pos)) += (x == 0 ? 0 : c);
  auto check = [](long p, long q, const std::string& what) -> ::testing::AssertionResult {
    const double m = static_cast<double>(p + q);
    if (std::abs(static_cast<double>(p) - m / 2) >= hoeffding_radius(m, 1.0)) {
      return ::testing::AssertionFailure() << what << ": +" << p << " vs -" << q << " (alpha " << kAlpha << ")";
    }
    return ::testing::AssertionSuccess();
  };
  if (auto r = check(pos, neg, "overall sign"); !r) return r;
  for (long k = 1; k <= 4; ++k) {
    if (auto r = check(counts[k], counts[-k], "magnitude " + std::to_string(k)); !r) return r;
  }
  return ::testing::AssertionSuccess();
}

long as_long(const mpz_class& v) { return v.get_si(); }

TEST(LawProperties, DiscreteGaussianIsSymmetric) {
  for (const char* s2 : {"9/4", "100"}) {
    const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", s2));
    EXPECT_TRUE(symmetric([&](BitSource& b) { return as_long(sample_discrete_gaussian(b, params)); }, 200000)) << s2;
  }
}

TEST(LawProperties, DiscreteLaplaceIsSymmetric) {
  for (const char* sc : {"3/2", "10"}) {
    const auto params = DiscreteLaplaceParams::make(parse_rational("scale", sc));
    EXPECT_TRUE(symmetric([&](BitSource& b) { return as_long(sample_discrete_laplace(b, params)); }, 200000)) << sc;
  }
}

TEST(LawProperties, SymmetryCheckCatchesAnAsymmetricSampler) {
  // Broken: a -1 is turned into +1 one time in eight.
  const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", "9/4"));
  EXPECT_FALSE(symmetric(
      [&](BitSource& b) {
        long x = as_long(sample_discrete_gaussian(b, params));
        if (x == -1 && b.bits(3) == 0) x = 1;
        return x;
      },
      200000));
}

// Bernoulli(exp(-gamma)) with the parity of CKS20 Alg. 1 flipped once K >= 3 (broken on purpose).
bool broken_parity_bernoulli_exp(BitSource& bits, const mpq_class& gamma) {
  const mpz_class whole = gamma.get_num() / gamma.get_den();
  for (mpz_class i = 0; i < whole; ++i) {
    if (!internal::bernoulli_exp_minus_one(bits)) return false;
  }
  const mpz_class num = gamma.get_num() - whole * gamma.get_den();
  mpz_class k = 1;
  for (;; ++k) {
    if (!(sample_uniform_below(bits, gamma.get_den() * k) < num)) break;
  }
  const bool odd = mpz_odd_p(k.get_mpz_t()) != 0;
  return k >= 3 ? !odd : odd;
}

// Two samples of n Bernoulli draws; the difference of their sums has mean 0 under the null
// and is a sum of n independent terms in [-1, 1].
::testing::AssertionResult same_law(const std::function<bool(BitSource&)>& left,
                                    const std::function<bool(BitSource&)>& right, int n) {
  SeededBits a(seed(2)), b(seed(3));
  long l = 0, r = 0;
  for (int i = 0; i < n; ++i) {
    l += left(a) ? 1 : 0;
    r += right(b) ? 1 : 0;
  }
  if (std::abs(static_cast<double>(l - r)) >= hoeffding_radius(n, 2.0)) {
    return ::testing::AssertionFailure() << l << " vs " << r << " successes of " << n << " (alpha " << kAlpha << ")";
  }
  return ::testing::AssertionSuccess();
}

TEST(LawProperties, BernoulliExpOfSumIsAndOfBernoulliExps) {
  const char* pairs[][2] = {{"1/3", "1/2"}, {"3/4", "3/4"}, {"1", "1/7"}, {"5/2", "1/10"}};
  for (const auto& p : pairs) {
    const mpq_class a = parse_rational("a", p[0]), b = parse_rational("b", p[1]);
    const auto sum = BernoulliExpParams::make(a + b), pa = BernoulliExpParams::make(a), pb = BernoulliExpParams::make(b);
    EXPECT_TRUE(same_law([&](BitSource& s) { return sample_bernoulli_exp(s, sum); },
                         [&](BitSource& s) {
                           const bool x = sample_bernoulli_exp(s, pa);
                           const bool y = sample_bernoulli_exp(s, pb);
                           return x && y;
                         },
                         200000))
        << p[0] << " + " << p[1];
  }
}

TEST(LawProperties, MetamorphicCheckCatchesFlippedParity) {
  // gamma = 3/4 + 3/4: the broken sampler's fractional part 1/2 changes P by about 0.06.
  const mpq_class a(3, 4);
  const auto pa = BernoulliExpParams::make(a);
  EXPECT_FALSE(same_law([&](BitSource& s) { return broken_parity_bernoulli_exp(s, a + a); },
                        [&](BitSource& s) {
                          const bool x = sample_bernoulli_exp(s, pa);
                          const bool y = sample_bernoulli_exp(s, pa);
                          return x && y;
                        },
                        200000));
}

// Certified bounds on exp(-gamma) with MPFR (128 bits, directed rounding).
void exp_minus_bounds(const mpq_class& gamma, mpfr_t lo, mpfr_t hi) {
  mpfr_t g;
  mpfr_init2(g, 128);
  mpfr_set_q(g, gamma.get_mpq_t(), MPFR_RNDU);  // g >= gamma, so exp(-g) <= exp(-gamma)
  mpfr_neg(g, g, MPFR_RNDD);
  mpfr_exp(lo, g, MPFR_RNDD);
  mpfr_set_q(g, gamma.get_mpq_t(), MPFR_RNDD);  // g <= gamma, so exp(-g) >= exp(-gamma)
  mpfr_neg(g, g, MPFR_RNDU);
  mpfr_exp(hi, g, MPFR_RNDU);
  mpfr_clear(g);
}

// The frequency of 1 is within the Hoeffding radius of the certified exp(-gamma) interval.
::testing::AssertionResult frequency_matches(const std::function<bool(BitSource&)>& draw,
                                             const mpq_class& gamma, int n, double& frequency) {
  mpfr_t lo, hi;
  mpfr_inits2(128, lo, hi, static_cast<mpfr_ptr>(nullptr));
  exp_minus_bounds(gamma, lo, hi);
  SeededBits bits(seed(4));
  long ones = 0;
  for (int i = 0; i < n; ++i) ones += draw(bits) ? 1 : 0;
  const double radius = hoeffding_radius(n, 1.0) / n;
  frequency = static_cast<double>(ones) / n;
  const double low = mpfr_get_d(lo, MPFR_RNDD), high = mpfr_get_d(hi, MPFR_RNDU);
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
  if (frequency <= low - radius || frequency >= high + radius) {
    return ::testing::AssertionFailure() << "frequency " << frequency << " outside [" << low << ", " << high
                                         << "] +- " << radius << " (alpha " << kAlpha << ")";
  }
  return ::testing::AssertionSuccess();
}

TEST(LawProperties, BernoulliExpFrequencyIsExpMinusGammaAndDecreasing) {
  double previous = 2.0;
  for (const char* g : {"0", "1/8", "1/2", "1", "3/2", "2", "7/2"}) {
    const mpq_class gamma = parse_rational("gamma", g);
    const auto params = BernoulliExpParams::make(gamma);
    double f = 0;
    EXPECT_TRUE(frequency_matches([&](BitSource& b) { return sample_bernoulli_exp(b, params); }, gamma, 100000, f)) << g;
    EXPECT_LT(f, previous + 1e-12) << "not decreasing at gamma = " << g;
    previous = f;
  }
}

TEST(LawProperties, FrequencyCheckCatchesFlippedParity) {
  // gamma = 9/10: flipping the parity for K >= 3 moves P[1] far from exp(-0.9) = 0.4066.
  const mpq_class gamma(9, 10);
  double f = 0;
  EXPECT_FALSE(frequency_matches([&](BitSource& b) { return broken_parity_bernoulli_exp(b, gamma); }, gamma,
                                 100000, f));
}

}  // namespace law_properties_test
}  // namespace
}  // namespace exactdp
