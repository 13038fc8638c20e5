// p_values_test.cc — the certified p-value functions against independent values: chi-square
// survival function (known quantiles), binomial tails (exact rational sums for small n),
// Clopper-Pearson (coverage relation), Holm-Bonferroni logic, and the streaming counter's fast and
// slow paths agreeing.
#include <gtest/gtest.h>

#include <exactdp/accounting/normal.h>
#include <exactdp/verification/goodness_of_fit.h>
#include <exactdp/verification/p_values.h>
#include <exactdp/verification/sample_counter.h>

namespace exactdp::verification {
namespace {

bool contains(const Interval& b, const mpq_class& v) {
  return mpfr_cmp_q(b.lower(), v.get_mpq_t()) <= 0 && mpfr_cmp_q(b.upper(), v.get_mpq_t()) >= 0;
}

TEST(PValues, ChiSquareSurvivalKnownValues) {
  // df = 2: P[X >= x] = exp(-x/2) exactly. x = 2 ln 20 would give 0.05; use x = 4: exp(-2).
  const Interval p = chi_square_sf(2, Interval(4L, kPrecision));
  const Interval e = exp(Interval(mpq_class(-2), kPrecision));
  EXPECT_LE(mpfr_cmp(p.lower(), e.upper()), 0);
  EXPECT_GE(mpfr_cmp(p.upper(), e.lower()), 0);
  // df = 1, x = 3.841458820694124 (the 95% quantile): p = 0.05 to 1e-12.
  const Interval q = chi_square_sf(1, Interval(mpq_class("3841458820694124/1000000000000000"), kPrecision));
  EXPECT_NEAR(mpfr_get_d(q.lower(), MPFR_RNDD), 0.05, 1e-12);
  // Far tail uses the Chernoff bound: upper end tiny but positive, lower end 0.
  const Interval far = chi_square_sf(10, Interval(100000L, kPrecision));
  EXPECT_TRUE(mpfr_zero_p(far.lower()));
  EXPECT_LT(mpfr_cmp_d(far.upper(), 1e-100), 0);
  EXPECT_EQ(mpfr_cmp_ui(chi_square_sf(3, Interval(0L, kPrecision)).upper(), 1), 0);
}

TEST(PValues, BinomialTailsMatchExactSums) {
  // n = 30, p = 1/3: exact rational tails.
  const unsigned n = 30;
  const mpq_class p(1, 3);
  for (unsigned m = 0; m <= n; ++m) {
    mpq_class upper = 0, lower = 0;
    for (unsigned j = 0; j <= n; ++j) {
      mpz_class c;
      mpz_bin_uiui(c.get_mpz_t(), n, j);
      mpz_class pj, qj;
      mpz_ui_pow_ui(pj.get_mpz_t(), 1, j);
      mpz_ui_pow_ui(qj.get_mpz_t(), 2, n - j);
      mpz_class d;
      mpz_ui_pow_ui(d.get_mpz_t(), 3, n);
      const mpq_class term(c * qj, d);
      if (j >= m) upper += term;
      if (j <= m) lower += term;
    }
    upper.canonicalize();
    lower.canonicalize();
    EXPECT_TRUE(contains(binomial_upper_tail(n, m, Interval(p, kPrecision)), upper)) << m;
    EXPECT_TRUE(contains(binomial_lower_tail(n, m, Interval(p, kPrecision)), lower)) << m;
  }
}

TEST(PValues, ClopperPearsonBracketsTheTruth) {
  mpfr_t u, l;
  mpfr_inits2(kPrecision, u, l, static_cast<mpfr_ptr>(nullptr));
  const mpq_class beta(1, 1000);
  clopper_pearson_upper(u, 1000, 300, beta);
  clopper_pearson_lower(l, 1000, 300, beta);
  EXPECT_GT(mpfr_cmp_d(u, 0.3), 0);
  EXPECT_LT(mpfr_cmp_d(l, 0.3), 0);
  EXPECT_LT(mpfr_cmp_d(u, 0.36), 0);
  EXPECT_GT(mpfr_cmp_d(l, 0.24), 0);
  // Defining property: P[Bin(n, U) <= k] <= beta at the returned U.
  const Interval tail = binomial_lower_tail(1000, 300, Interval::from_ends(u, u, kPrecision));
  EXPECT_LE(mpfr_cmp_q(tail.upper(), beta.get_mpq_t()), 0);
  clopper_pearson_lower(l, 50, 0, beta);
  EXPECT_TRUE(mpfr_zero_p(l));
  clopper_pearson_upper(u, 50, 50, beta);
  EXPECT_EQ(mpfr_cmp_ui(u, 1), 0);
  mpfr_clears(u, l, static_cast<mpfr_ptr>(nullptr));
}

TEST(PValues, HolmBonferroniStepDown) {
  auto make = [](const char* p) {
    TestResult t;
    t.p_value = Interval(mpq_class(p), kPrecision);
    return t;
  };
  // alpha = 1/10, m = 3: thresholds 1/30, 1/20, 1/10.
  std::vector<TestResult> tests = {make("1/100"), make("1/25"), make("1/5")};
  holm_bonferroni(tests, mpq_class(1, 10));
  EXPECT_TRUE(tests[0].rejected);
  EXPECT_TRUE(tests[1].rejected);  // 1/25 < 1/20
  EXPECT_FALSE(tests[2].rejected);
  EXPECT_EQ(tests[2].threshold, mpq_class(1, 10));
  // step-down stops at the first acceptance
  std::vector<TestResult> stop = {make("1/20"), make("1/1000")};
  holm_bonferroni(stop, mpq_class(1, 10));  // sorted: 1/1000 vs 1/20 -> reject; 1/20 vs 1/10 -> reject
  EXPECT_TRUE(stop[0].rejected && stop[1].rejected);
  std::vector<TestResult> none = {make("1/2"), make("1/1000")};
  holm_bonferroni(none, mpq_class(1, 1000));  // 1/1000 vs 1/2000: not below -> nothing rejected
  EXPECT_FALSE(none[0].rejected || none[1].rejected);
}

TEST(SampleCounter, FastAndSlowPathsAgree) {
  DiscreteGaussianLaw law(mpq_class(1'000'000), 7);
  SampleCounter a(law, {mpz_class(2000)}), b(law, {mpz_class(2000)});
  for (long x = -100'000; x <= 100'000; x += 37) {
    a.add(static_cast<std::int64_t>(x));
    b.add(mpz_class(x) + mpz_class("100000000000000000000000000") - mpz_class("100000000000000000000000000"));
  }
  // b's values are equal mpz_class objects; force its slow path with huge values too
  SampleCounter huge(law, {mpz_class(2000)});
  const mpz_class big("1000000000000000000000000000000");
  huge.add(big);
  huge.add(mpz_class(-big));
  EXPECT_EQ(huge.above(), 1u);
  EXPECT_EQ(huge.below(), 1u);
  EXPECT_EQ(huge.beyond()[0], 2u);
  EXPECT_EQ(huge.sum2(), 2 * big * big - 2 * 7 * 0 + 2 * 49);
  EXPECT_EQ(a.n(), b.n());
  EXPECT_EQ(a.sum1(), b.sum1());
  EXPECT_EQ(a.sum2(), b.sum2());
  EXPECT_EQ(a.cells(), b.cells());
  EXPECT_EQ(a.beyond(), b.beyond());
  EXPECT_EQ(a.width(), mpz_class(31));
}

}  // namespace
}  // namespace exactdp::verification
