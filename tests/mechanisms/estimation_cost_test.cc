// The estimators' up-front limits (estimation_cost.h), the same for every face since the library
// checks them: Peeling past its draw budget and noisy OLS past its solve budget are LimitErrors
// before any work; the fraction-free solve (exact_linear_algebra.h) gives the exact solution and
// the positive-definiteness answer; a d = 100 OLS answers and a singular design is refused cheaply.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/estimation/estimation_cost.h>
#include <exactdp/mechanisms/estimation/exact_linear_algebra.h>
#include <exactdp/mechanisms/estimation/noisy_ols.h>
#include <exactdp/mechanisms/estimation/peeling.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using test_support::fixed_seed;

TEST(EstimationCost, PeelingPastItsBudgetIsALimitNamingSparsity) {
  const std::vector<double> v(100'000, 0.5);
  mechanisms::PeelingOptions o;
  o.epsilon = 1;
  o.sparsity = 2000;
  SeededBits bits(fixed_seed(0x45434f53, 0));
  try {
    (void)mechanisms::peeling(v, o, bits);
    FAIL() << "no LimitError";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "sparsity") << e.what();
  }
  o.sparsity = 30;  // 3 * 10^6 draws: within the budget
  EXPECT_LE(mechanisms::peeling_work({30, 100'000, false, 2, 1}), mechanisms::kMaxPeelingWork);
}

TEST(EstimationCost, PeelingRefusesAHugeEpsilonNamingEpsilon) {
  mpz_class den;
  mpz_ui_pow_ui(den.get_mpz_t(), 10, 400);
  EXPECT_THROW(mechanisms::check_peeling_cost({1, 10, false, mechanisms::numerator_denominator_bits(mpq_class(1, den))}),
               LimitError);
}

TEST(EstimationCost, BareissSolvesExactly) {
  // A symmetric positive definite 3 x 3 system with a rational solution.
  const std::vector<mpz_class> m = {4, 2, 1, 2, 5, 3, 1, 3, 6};
  const std::vector<mpz_class> b = {1, -2, 7};
  const auto x = mechanisms::solve_positive_definite(m, b, 3);
  ASSERT_TRUE(x.has_value());
  for (std::size_t r = 0; r < 3; ++r) {
    mpq_class row = 0;
    for (std::size_t j = 0; j < 3; ++j) row += mpq_class(m[r * 3 + j]) * (*x)[j];
    EXPECT_EQ(row, mpq_class(b[r])) << r;
  }
  EXPECT_TRUE(mechanisms::is_positive_definite(m, 3));
  EXPECT_FALSE(mechanisms::is_positive_definite({1, 2, 2, 4}, 2));   // singular
  EXPECT_FALSE(mechanisms::is_positive_definite({1, 3, 3, 4}, 2));   // indefinite
  EXPECT_FALSE(mechanisms::solve_positive_definite({1, 3, 3, 4}, {1, 1}, 2).has_value());
}

// n rows of p columns: x_ij in (-1, 1) from a fixed congruential sequence, y a noisy sum.
struct Design {
  std::vector<double> x, y;
};
Design design(std::size_t n, std::size_t p, bool singular) {
  Design d;
  unsigned long long s = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < p; ++j) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      const double v = singular && j == p - 1 ? 0.0 : static_cast<double>(s >> 11) / 9007199254740992.0 * 2 - 1;
      d.x.push_back(v);
      sum += v;
    }
    d.y.push_back(sum / static_cast<double>(p));
  }
  return d;
}

mechanisms::NoisyOlsOptions ols_options() {
  mechanisms::NoisyOlsOptions o;
  o.eigen_bound = 100;
  return o;
}

TEST(EstimationCost, OlsOfAHundredColumnsAnswersAndASingularDesignIsRefused) {
  const Design d = design(400, 100, false);
  SeededBits bits(fixed_seed(0x45434f53, 1));
  const auto start = std::chrono::steady_clock::now();
  const auto r = mechanisms::noisy_ols({d.x, 400, 100}, d.y, ols_options(), bits);
  const auto solved = std::chrono::steady_clock::now();
  EXPECT_EQ(r.estimate.size(), 100U);
  const Design s = design(400, 100, true);
  EXPECT_THROW((void)mechanisms::noisy_ols({s.x, 400, 100}, s.y, ols_options(), bits), ParameterError);
  const auto refused = std::chrono::steady_clock::now();
  std::printf("p = 100, n = 400: solved in %.2f s, singular refused in %.2f s\n",
              std::chrono::duration<double>(solved - start).count(),
              std::chrono::duration<double>(refused - solved).count());
}

TEST(EstimationCost, OlsPastItsSolveBudgetIsALimitNamingXBeforeTheData) {
  const std::size_t p = 1000, n = 1000;
  const std::vector<double> x(n * p, 0.25), y(n, 0.5);
  SeededBits bits(fixed_seed(0x45434f53, 2));
  try {
    (void)mechanisms::noisy_ols({x, n, p}, y, ols_options(), bits);
    FAIL() << "no LimitError";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "x") << e.what();
  }
}

}  // namespace
}  // namespace exactdp
