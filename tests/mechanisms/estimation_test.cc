// estimation_test.cc — mechanisms/estimation: the per-round budgets of every composition route
// (certified total <= epsilon, and nearly the largest such budget), refusals naming their
// parameter, the sensitivity bounds on neighbouring data sets (grid rounding included; the bound
// without the grid's +1 is shown to fail), and the exact law of PrivateMax's index and value
// noise by chi-square at alpha = 10^-5 (fixed seeds), with a power check at a wrong scale.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <limits>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/dp_lasso.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/mechanisms/estimation/noisy_ols.h>
#include <exactdp/mechanisms/estimation/peeling.h>
#include <exactdp/mechanisms/estimation/peeling_budget.h>
#include <exactdp/mechanisms/estimation/private_max.h>
#include <exactdp/mechanisms/estimation/sparse_mean.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/uniform.h>
#include <exactdp/verification/goodness_of_fit.h>
#include "tests/mechanisms/selection_laws.h"
#include "tests/support/seeds.h"

namespace exactdp::mechanisms {
namespace {

using test_support::fixed_seed;

const mpq_class kAlpha(1, 100'000);


TEST(EstimationBudget, EveryRouteIsCertifiedAndNearlyTight) {
  const mpq_class eps(1), delta(1, 1000000), lambda(1, 10);
  for (unsigned long s : {1UL, 5UL, 40UL}) {
    const auto routes = calibrate_routes(CompositionRoute::kOptimal, eps, delta, s, lambda);
    ASSERT_EQ(routes.size(), 3u);
    for (const RouteBudget& r : routes) {
      EXPECT_TRUE(upper_at_most(r.epsilon, eps)) << to_string(r.route) << " s=" << s;
      EXPECT_GE(r.epsilon_per_round, eps / s);
      EXPECT_EQ(r.noise_scale, 3 * lambda / r.epsilon_per_round);
      // One step above the budget found is no longer admissible: the bisection is tight.
      const mpq_class above = r.epsilon_per_round * (1 + mpq_class(1, 1 << 30));
      EXPECT_FALSE(upper_at_most(route_epsilon(r.route, above, s, delta), eps)) << to_string(r.route);
    }
    EXPECT_EQ(routes[0].route, CompositionRoute::kOptimal);
    // KOV is optimal: its per-round budget is the largest of the three.
    EXPECT_GE(routes[0].epsilon_per_round, routes[1].epsilon_per_round);
    EXPECT_GE(routes[0].epsilon_per_round, routes[2].epsilon_per_round);
  }
  // At s = 40 the advanced route beats basic composition, and KOV beats it.
  const auto r40 = calibrate_routes(CompositionRoute::kAdvanced, eps, delta, 40, lambda);
  EXPECT_GT(r40[0].epsilon_per_round, eps / 40);
}

TEST(EstimationBudget, RefusalsNameTheParameter) {
  auto name_of = [](auto&& f) {
    try {
      f();
    } catch (const ParameterError& e) {
      return e.parameter();
    }
    return std::string("none");
  };
  EXPECT_EQ(name_of([] { (void)calibrate_route(CompositionRoute::kOptimal, 1, std::nullopt, 3, 1); }), "delta");
  EXPECT_EQ(name_of([] { (void)calibrate_route(CompositionRoute::kBasic, 0, std::nullopt, 3, 1); }), "epsilon");
  EXPECT_EQ(name_of([] { (void)calibrate_route(CompositionRoute::kBasic, 1, mpq_class(1), 3, 1); }), "delta");
  EXPECT_EQ(name_of([] { (void)parse_composition_route("pld"); }), "route");
  SeededBits bits(fixed_seed(301, 0));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> v{1.0, nan, 2.0};
  EXPECT_EQ(name_of([&] { (void)private_max(v, {}, bits); }), "v");
  PrivateMaxOptions bad_lambda;
  bad_lambda.sensitivity = 0;
  const std::vector<double> ok{1.0, 2.0};
  EXPECT_EQ(name_of([&] { (void)private_max(ok, bad_lambda, bits); }), "sensitivity");
  PeelingOptions too_many;
  too_many.sparsity = 3;
  EXPECT_EQ(name_of([&] { (void)peeling(ok, too_many, bits); }), "sparsity");
  const std::vector<double> x4{1, 2, 3, 4};
  SparseMeanOptions radius;
  radius.radius = 0;
  EXPECT_EQ(name_of([&] { (void)sparse_mean({x4, 2, 2}, radius, bits); }), "radius");
  EXPECT_EQ(name_of([&] { (void)sparse_mean({x4, 3, 2}, {}, bits); }), "x");
  const std::vector<double> y3{1, 2, 3};
  EXPECT_EQ(name_of([&] { (void)noisy_ols({x4, 2, 2}, y3, {}, bits); }), "y");
  EXPECT_EQ(name_of([&] { (void)dp_lasso({x4, 2, 2}, y3, {}, bits); }), "y");
  DpLassoOptions big_s;
  big_s.sparsity = 5;
  const std::vector<double> y2{1, 2};
  EXPECT_EQ(name_of([&] { (void)dp_lasso({x4, 2, 2}, y2, big_s, bits); }), "sparsity");
  // A rank-one design has lambda_min = 0: refused as "design".
  const std::vector<double> rank_one{1, 1, 1, 1, 1, 1};
  const std::vector<double> y{1, 0, 1};
  EXPECT_EQ(name_of([&] { (void)noisy_ols({rank_one, 3, 2}, y, {}, bits); }), "design");
  // 16 rows at g = 2^-61 with c = R = 1: 16 * 2^61 * 2^61 = 2^126 would overflow the int128 sums.
  const std::vector<double> col(16, 0.5);
  NoisyOlsOptions fine;
  fine.granularity_exponent = 61;
  EXPECT_EQ(name_of([&] { (void)noisy_ols({col, 16, 1}, col, fine, bits); }), "granularity_exponent");
}

// |n_j - n'_j| <= floor(lambda / g) + 1 for every pair of doubles within lambda; without the +1
// the bound fails on some pair (the grid rounding's inflation is real).
TEST(EstimationSensitivity, GridRoundingInflatesByOneUnit) {
  SeededBits bits(fixed_seed(301, 1));
  const long k = 3;  // g = 1/8
  const mpq_class lambda(3, 10);
  const mpz_class inflated = grid_sensitivity(lambda, k);
  EXPECT_EQ(inflated, 3);  // floor(2.4) + 1
  bool uninflated_fails = false;
  for (int trial = 0; trial < 2000; ++trial) {
    const double a = static_cast<double>(sample_uniform_below(bits, std::uint64_t{1U << 20})) / 65536.0;
    const double b = a + 0.3 * static_cast<double>(sample_uniform_below(bits, std::uint64_t{1001})) / 1000.0;
    if (rational_from_double("b", b) - rational_from_double("a", a) > lambda) continue;
    const std::vector<double> va{a}, vb{b};
    const mpz_class diff = abs(to_grid(vb, k, "v")[0] - to_grid(va, k, "v")[0]);
    EXPECT_LE(diff, inflated) << a << " " << b;
    if (diff > inflated - 1) uninflated_fails = true;
  }
  EXPECT_TRUE(uninflated_fails);
}

// Replacing one row moves the truncated column sums by at most 2B; the OLS by at most Delta.
TEST(EstimationSensitivity, NeighbouringDataSets) {
  SeededBits bits(fixed_seed(301, 2));
  const std::size_t n = 40, p = 3;
  std::vector<double> x(n * p), y(n);
  for (auto& v : x) v = static_cast<double>(sample_uniform_below(bits, std::uint64_t{2001})) / 1000.0 - 1.0;
  for (auto& v : y) v = static_cast<double>(sample_uniform_below(bits, std::uint64_t{2001})) / 1000.0 - 1.0;
  const long k = 10;
  const std::int64_t bound = grid_bound(mpq_class(1, 2), k, "radius");
  NoisyOlsOptions o;
  o.eigen_bound = 20;
  const auto beta = truncated_ols({x, n, p}, y, o);
  const mpq_class delta2 = ols_sensitivity_squared(o, n, p);
  mpq_class worst = 0;
  for (std::size_t row = 0; row < 5; ++row) {
    std::vector<double> x2 = x, y2 = y;
    for (std::size_t j = 0; j < p; ++j) x2[row * p + j] = (j + row) % 2 == 0 ? 7.0 : -7.0;  // truncated to +-1
    y2[row] = row % 2 == 0 ? 9.0 : -9.0;
    const auto s1 = truncated_column_sums({x, n, p}, k, bound);
    const auto s2 = truncated_column_sums({x2, n, p}, k, bound);
    for (std::size_t j = 0; j < p; ++j) EXPECT_LE(abs(s1[j] - s2[j]), 2 * bound);
    const auto beta2 = truncated_ols({x2, n, p}, y2, o);
    mpq_class dist2 = 0;
    for (std::size_t j = 0; j < p; ++j) dist2 += (beta[j] - beta2[j]) * (beta[j] - beta2[j]);
    EXPECT_LE(dist2, delta2);
    if (dist2 > worst) worst = dist2;
  }
  EXPECT_GT(worst, 0);
}

// The DP-LASSO gradient step's coordinate sensitivity: for s-sparse beta with |beta_j| <= C and
// data within the bounds, one replaced row moves (eta / n0) sum (x^T beta - y) x_j by <= lambda.
TEST(EstimationSensitivity, LassoGradientStep) {
  SeededBits bits(fixed_seed(301, 3));
  DpLassoOptions o;
  o.sparsity = 2;
  o.coordinate_bound = 1;
  o.response_bound = 2;
  o.coefficient_bound = 3;
  const std::size_t n0 = 10;
  const mpq_class lambda = lasso_sensitivity(o, n0);
  const mpq_class term_bound = o.coordinate_bound * (o.response_bound + 2 * o.coefficient_bound * o.coordinate_bound);
  // The extreme pair attains the bound: beta = (C, 0, 0, C), y = -R, x = (c, c, c, c) against
  // x' = (c, -c, c, c): the residual is s C c + R in both, and coordinate 1 moves by lambda.
  {
    const std::vector<mpq_class> x1{1, 1, 1, 1}, x2{1, -1, 1, 1};
    const mpq_class f = 2 * o.coefficient_bound * o.coordinate_bound + o.response_bound;
    EXPECT_EQ(abs(o.step_size * (f * x1[1] - f * x2[1]) / static_cast<unsigned long>(n0)), lambda);
  }
  for (int trial = 0; trial < 500; ++trial) {
    auto draw = [&](const mpq_class& r) -> mpq_class {
      mpq_class u(static_cast<long>(sample_uniform_below(bits, std::uint64_t{201})) - 100, 100);
      u.canonicalize();
      return r * u;
    };
    std::vector<mpq_class> x1(4), x2(4), beta(4, 0);
    for (auto& v : x1) v = draw(o.coordinate_bound);
    for (auto& v : x2) v = draw(o.coordinate_bound);
    beta[0] = draw(o.coefficient_bound);
    beta[3] = draw(o.coefficient_bound);
    const mpq_class y1 = draw(o.response_bound), y2 = draw(o.response_bound);
    mpq_class f1 = x1[0] * beta[0] + x1[3] * beta[3] - y1, f2 = x2[0] * beta[0] + x2[3] * beta[3] - y2;
    for (std::size_t j = 0; j < 4; ++j) {
      const mpq_class moved = abs(o.step_size * (f1 * x1[j] - f2 * x2[j]) / static_cast<unsigned long>(n0));
      EXPECT_LE(moved, lambda);
    }
  }
  EXPECT_EQ(lambda, 2 * o.step_size * term_bound / static_cast<unsigned long>(n0));
}

// PrivateMax on v = (1/2, -3/4, 1/4) at g = 1/4 (n = 2, -3, 1), lambda = 1/4 (Lambda = 2),
// epsilon = 1: scale b = 6. The index has the law of report-noisy-max of |n| = (2, 3, 1) with
// Lap_Z(6); the value minus n_j* is Lap_Z(6). 2,000 draws, chi-square at alpha = 10^-5; the
// same counts against the law at scale 3 must be rejected (power check).
TEST(EstimationLaw, PrivateMaxIndexAndValue) {
  SeededBits bits(fixed_seed(301, 4));
  const std::vector<double> v{0.5, -0.75, 0.25};
  PrivateMaxOptions o;
  o.sensitivity = mpq_class(1, 4);
  o.granularity_exponent = 2;
  const std::vector<mpz_class> grid{2, -3, 1};
  const unsigned long long draws = 2000;
  std::vector<unsigned long long> index_counts(3, 0), noise_counts(5, 0);
  for (unsigned long long r = 0; r < draws; ++r) {
    const PrivateMaxResult res = private_max(v, o, bits);
    ++index_counts[res.index];
    const mpz_class w = res.value.get_num() * 4 / res.value.get_den() - grid[res.index];
    noise_counts[w <= -2 ? 0 : (w >= 2 ? 4 : w.get_si() + 2)]++;
  }
  auto test = [&](const mpq_class& t) {
    const auto law = test_support::noisy_max_laplace_law({2, 3, 1}, t);
    std::vector<verification::Cell> cells;
    for (std::size_t i = 0; i < 3; ++i) cells.push_back({mpz_class(static_cast<long>(i)), mpz_class(static_cast<long>(i)), law[i], index_counts[i]});
    const auto a = verification::pearson_chi_square(verification::merge_cells(cells, draws, 5), draws);
    std::vector<verification::Cell> wc;
    Interval prev = test_support::discrete_laplace_cdf(-2, t);
    wc.push_back({-2, -2, prev, noise_counts[0]});
    for (long x = -1; x <= 1; ++x) {
      Interval c = test_support::discrete_laplace_cdf(x, t);
      wc.push_back({x, x, c - prev, noise_counts[x + 2]});
      prev = c;
    }
    wc.push_back({2, 2, mpq_class(1) - prev, noise_counts[4]});
    const auto b = verification::pearson_chi_square(verification::merge_cells(wc, draws, 5), draws);
    return std::pair{mpfr_cmp_q(a.p_value.upper(), kAlpha.get_mpq_t()) < 0,
                     mpfr_cmp_q(b.p_value.upper(), kAlpha.get_mpq_t()) < 0};
  };
  const auto right = test(6);
  EXPECT_FALSE(right.first);
  EXPECT_FALSE(right.second);
  const auto wrong = test(3);
  EXPECT_TRUE(wrong.first);
  EXPECT_TRUE(wrong.second);
}

// The guarantee reports the route used first and its certified epsilon <= the target.
TEST(EstimationGuaranteeReport, SparseMeanAndLasso) {
  SeededBits bits(fixed_seed(301, 5));
  const std::size_t n = 200, d = 20;
  std::vector<double> x(n * d, 0.0);
  for (std::size_t i = 0; i < n; ++i) x[i * d + 3] = 1.0;
  SparseMeanOptions o;
  o.delta = mpq_class(1, 1000000);
  o.sparsity = 2;
  o.radius = 2;
  o.epsilon = 4;
  const EstimateResult r = sparse_mean({x, n, d}, o, bits);
  EXPECT_TRUE(upper_at_most(r.guarantee.certified_epsilon, o.epsilon));
  EXPECT_EQ(r.guarantee.routes.size(), 3u);
  EXPECT_EQ(r.support.size(), 2u);
  EXPECT_EQ(r.support[0], 3u);
  EXPECT_NEAR(mpq_class(r.estimate[3]).get_d(), 1.0, 0.5);
}

}  // namespace
}  // namespace exactdp::mechanisms
