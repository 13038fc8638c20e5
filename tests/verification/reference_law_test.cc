// reference_law_test.cc — the certified reference laws: masses sum to 1, bounds are tight and
// ordered, closed forms agree with summation, and Poisson / Euler-Maclaurin regimes agree with the
// direct sums where both apply.
#include <gtest/gtest.h>

#include <exactdp/core/decimal.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp::verification {
namespace {

// upper - lower relative to lower, as an exponent: true when the width is below 2^-bits * value.
bool tight(const Interval& b, int bits) {
  const exactdp::Real w = exactdp::width_upper(b);
  return mpfr_zero_p(w.get()) || (mpfr_sgn(b.lower()) > 0 && mpfr_get_exp(w.get()) + bits <= mpfr_get_exp(b.lower()));
}

bool contains(const Interval& b, const Interval& inner) {
  return mpfr_cmp(b.lower(), inner.upper()) <= 0 && mpfr_cmp(inner.lower(), b.upper()) <= 0;
}

bool contains_one(const Interval& b) { return mpfr_cmp_ui(b.lower(), 1) <= 0 && mpfr_cmp_ui(b.upper(), 1) >= 0; }

TEST(ReferenceLaw, GaussianMassesSumToOne) {
  for (const char* s2 : {"1/4", "1", "9/4", "7", "8", "100", "1000000", "2000000", "1e12", "1e100"}) {
    DiscreteGaussianLaw law(mpq_class(s2 == std::string("1e12") ? "1000000000000" :
                                      s2 == std::string("1e100") ? std::string("1" + std::string(100, '0')).c_str() : s2),
                            5);
    const Interval total = law.mass(std::nullopt, mpz_class(2)) + law.mass(mpz_class(3), mpz_class(40)) +
                           law.mass(mpz_class(41), std::nullopt);
    EXPECT_TRUE(contains_one(total)) << s2 << " " << exactdp::decimal_lower(total.lower(), 30) << " " << exactdp::decimal_upper(total.upper(), 30);
    EXPECT_TRUE(tight(law.pmf(5), 20)) << s2;
    // symmetric about the mean
    EXPECT_TRUE(contains(law.pmf(8), law.pmf(2))) << s2;
  }
}

TEST(ReferenceLaw, GaussianKnownValues) {
  // sigma2 = 1: Z = sum exp(-k^2/2) = 2.5066282746310002 (= sqrt(2 pi) up to 1e-8 by Poisson).
  DiscreteGaussianLaw law(mpq_class(1), 0);
  EXPECT_TRUE(tight(law.normaliser(), 200));
  // sum_k exp(-k^2/2) = sqrt(2 pi) (1 + 2 exp(-2 pi^2) + ...) = 2.50662828804290...
  EXPECT_GT(mpfr_cmp_d(law.normaliser().lower(), 2.5066282880428), 0);
  EXPECT_LT(mpfr_cmp_d(law.normaliser().upper(), 2.5066282880430), 0);
  // sigma2 = 100: variance is 100 up to 3 exp(-100 pi^2).
  DiscreteGaussianLaw wide(mpq_class(100), 0);
  EXPECT_TRUE(contains(wide.variance(), Interval(100L, kPrecision)));
}

TEST(ReferenceLaw, GaussianRegimesAgree) {
  // Direct summation (sigma2 <= 10^6) and Euler-Maclaurin (above) bracket nearby values; at
  // sigma2 = 10^6 + 1 the EM sum over [0, 1000] must contain the direct sum at 10^6 + 1 computed
  // as a difference of two masses of a sigma2 just at the limit -- instead we check EM against
  // itself: pieces add up, and the interval is narrow.
  DiscreteGaussianLaw law(mpq_class(2'000'000), 0);
  const Interval whole = law.partial_sum(0, std::nullopt);
  const Interval parts = law.partial_sum(0, mpz_class(1413)) + law.partial_sum(1414, std::nullopt);
  EXPECT_TRUE(contains(whole, parts));
  EXPECT_TRUE(tight(whole, 20));
  // Z from Poisson vs 2 S(0, inf) - 1 from EM.
  const Interval em_z = whole * mpq_class(2) - mpq_class(1);
  EXPECT_TRUE(contains(em_z, law.normaliser()));
}

TEST(ReferenceLaw, LaplaceClosedFormMatchesSum) {
  DiscreteLaplaceLaw law(mpq_class(3, 2), -4);
  Interval sum(kPrecision);
  for (long x = -200; x <= 200; ++x) sum = sum + law.pmf(x);
  EXPECT_TRUE(contains_one(sum + (law.mass(std::nullopt, mpz_class(-201)) + law.mass(mpz_class(201), std::nullopt))));
  // variance 2r/(1-r)^2 against a direct sum of k^2 pmf
  Interval m2(kPrecision);
  for (long k = -400; k <= 400; ++k) m2 = m2 + law.pmf(k - 4) * mpq_class(k * k);
  const Interval v = law.variance();
  exactdp::Real d(kPrecision);
  mpfr_sub(d.get(), v.upper(), m2.lower(), MPFR_RNDU);
  EXPECT_LT(mpfr_get_d(d.get(), MPFR_RNDU), 1e-40);
}

TEST(ReferenceLaw, BernoulliExp) {
  BernoulliExpLaw law(mpq_class(1, 2));
  EXPECT_TRUE(contains_one(law.pmf(0) + law.pmf(1)));
  EXPECT_TRUE(mpfr_zero_p(law.pmf(2).upper()));
  EXPECT_TRUE(mpfr_zero_p(law.pmf(-1).upper()));
  BernoulliExpLaw zero(mpq_class(0));
  EXPECT_TRUE(mpfr_zero_p(zero.pmf(0).upper()));
  EXPECT_EQ(mpfr_cmp_ui(zero.pmf(1).lower(), 1), 0);
}

TEST(ReferenceLaw, RejectsBadParameters) {
  EXPECT_THROW(DiscreteGaussianLaw(mpq_class(0), 0), std::invalid_argument);
  EXPECT_THROW(DiscreteLaplaceLaw(mpq_class(-1), 0), std::invalid_argument);
  EXPECT_THROW(BernoulliExpLaw(mpq_class(-1, 3)), std::invalid_argument);
}

TEST(ReferenceLaw, AtPrecisionNarrowsAndStaysContained) {
  // The audit's precision escalation rebuilds a law at more bits: its bounds carry that
  // precision and overlap the coarser ones (both contain the truth).
  DiscreteGaussianLaw law(mpq_class(9, 4), 3);
  const std::unique_ptr<ReferenceLaw> fine = law.at_precision(1024);
  EXPECT_EQ(fine->precision(), 1024);
  EXPECT_EQ(fine->describe(), law.describe());
  const Interval coarse_pmf = law.pmf(4), fine_pmf = fine->pmf(4);
  EXPECT_EQ(fine_pmf.precision(), 1024);
  EXPECT_TRUE(contains(coarse_pmf, fine_pmf));
  EXPECT_TRUE(tight(fine_pmf, 900));
  DiscreteLaplaceLaw laplace(mpq_class(3, 2), 0);
  EXPECT_TRUE(contains(laplace.pmf(1), laplace.at_precision(512)->pmf(1)));
  BernoulliExpLaw bernoulli(mpq_class(1, 3));
  EXPECT_TRUE(contains(bernoulli.pmf(1), bernoulli.at_precision(512)->pmf(1)));
}

}  // namespace
}  // namespace exactdp::verification
