// Quantiles of mechanisms/aggregate (aggregate_quantile.h): the score's known answer, its
// sensitivity (brute force over small tables, the bound attained), the law of one release
// against the exact exponential-mechanism pmf (Pearson chi-square, fixed seed, alpha = 1e-4;
// the same test rejects a sampler without the factor 2 of 2 Delta and one reading the values one
// grid step off), the budget shares (exact for discrete Laplace, within the accountant's epsilon
// for the discrete Gaussian), and the grid limit naming --bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>
#include <exactdp/mechanisms/aggregate/aggregate_quantile.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_quantile_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;

constexpr unsigned kSuite = 9305;

std::vector<mpz_class> ints(std::initializer_list<long> xs) {
  std::vector<mpz_class> out;
  for (const long x : xs) out.emplace_back(x);
  return out;
}

TEST(AggregateQuantile, ScoreKnownAnswer) {
  const auto b = mechanisms::parse_value_bounds("0,4");
  const auto s = mechanisms::quantile_scores(ints({3, 2, 1, 2}), b, mpq_class(1, 2));
  ASSERT_EQ(s.size(), 5U);
  const std::vector<mpq_class> expected = {-4, -3, 0, -3, -4};  // -|2 #(x<c) - (4 - #(x=c))|
  EXPECT_EQ(s, expected);
  EXPECT_EQ(mechanisms::quantile_score_sensitivity(mpq_class(1, 4), 2), 6);  // Linf max(1, 3)
}

TEST(AggregateQuantile, SensitivityBoundHoldsAndIsAttained) {
  const auto b = mechanisms::parse_value_bounds("0,5");
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  for (const mpq_class& q : {mpq_class(0), mpq_class(1, 4), mpq_class(1, 2), mpq_class(2, 3), mpq_class(1)}) {
    const unsigned long linf = 2;
    const mpz_class bound = mechanisms::quantile_score_sensitivity(q, linf);
    mpz_class largest = 0;
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<mpz_class> base;
      const int n = trial % 7;
      for (int i = 0; i < n; ++i) base.emplace_back(static_cast<long>(trial * 7 + i * 3) % 6);
      std::vector<mpz_class> more = base;  // one unit adds up to Linf values
      for (unsigned long i = 0; i < 1 + trial % linf; ++i) more.emplace_back(static_cast<long>(trial + 5 * i) % 6);
      const auto s0 = mechanisms::quantile_scores(base, b, q);
      const auto s1 = mechanisms::quantile_scores(more, b, q);
      for (std::size_t c = 0; c < s0.size(); ++c) {
        const mpq_class diff = abs(s1[c] - s0[c]);
        ASSERT_LE(diff, mpq_class(bound)) << "q = " << q << ", trial " << trial;
        largest = std::max(largest, mpz_class(diff.get_num()));
      }
    }
    EXPECT_EQ(largest, bound) << "q = " << q;
  }
}

// Pearson's statistic of counts against the exponential mechanism's exact law for these scores
// (computed in double: a test statistic only).
double chi_square(const std::vector<long>& counts, const std::vector<mpq_class>& scores, double eps, double delta) {
  double best = -1e300, total = 0, stat = 0, n = 0;
  for (const auto& s : scores) best = std::max(best, s.get_d());
  std::vector<double> w;
  for (const auto& s : scores) total += w.emplace_back(std::exp(eps * (s.get_d() - best) / (2 * delta)));
  for (const long c : counts) n += static_cast<double>(c);
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double e = n * w[i] / total;
    stat += (static_cast<double>(counts[i]) - e) * (static_cast<double>(counts[i]) - e) / e;
  }
  return stat;
}

constexpr double kChiSquare10At1e4 = 35.56;  // the 1 - 1e-4 quantile of chi-square, 10 degrees

TEST(AggregateQuantile, LawOfOneReleaseIsTheExponentialMechanism) {
  const auto b = mechanisms::parse_value_bounds("0,10");
  const auto values = ints({1, 2, 2, 3, 5, 8, 8, 9});
  const mpq_class q(1, 2), eps(1);
  const auto scores = mechanisms::quantile_scores(values, b, q);  // Delta = max(1, 1) = 1
  auto histogram = [&](const std::function<mpz_class(BitSource&)>& draw, unsigned stream) {
    SeededBits bits(test_support::fixed_seed(kSuite, stream));
    std::vector<long> counts(scores.size(), 0);
    for (int i = 0; i < 20000; ++i) ++counts[draw(bits).get_ui()];
    return counts;
  };
  const auto good = histogram([&](BitSource& bits) { return mechanisms::draw_quantile(bits, values, b, q, eps, 1); }, 2);
  EXPECT_LT(chi_square(good, scores, 1, 1), kChiSquare10At1e4);
  // Broken: no factor 2 in 2 Delta (twice the epsilon), and the values read one grid step high.
  const auto doubled = histogram([&](BitSource& bits) { return mechanisms::draw_quantile(bits, values, b, q, 2 * eps, 1); }, 3);
  EXPECT_GT(chi_square(doubled, scores, 1, 1), kChiSquare10At1e4);
  const auto shifted_values = ints({2, 3, 3, 4, 6, 9, 9, 10});
  const auto shifted = histogram(
      [&](BitSource& bits) { return mechanisms::draw_quantile(bits, shifted_values, b, q, eps, 1); }, 4);
  EXPECT_GT(chi_square(shifted, scores, 1, 1), kChiSquare10At1e4);
}

AggregateRequest request(const std::string& mechanism) {
  AggregateRequest r;
  r.privacy_unit = "u";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCount, ""},
               {AggregateKind::kQuantile, "x", mpq_class(1, 2)},
               {AggregateKind::kQuantile, "x", mpq_class(9, 10)}};
  r.value_columns.push_back({"x", mechanisms::parse_value_bounds("0,5.5")});
  r.bounding = {3, 2};
  r.mechanism = mechanism;
  r.epsilon = 2;
  r.delta = mpq_class(1, 100000);
  return r;
}

TEST(AggregateQuantile, BudgetSharesCompose) {
  const auto g = mechanisms::calibrate_aggregate(request("discrete-laplace"));
  ASSERT_EQ(g.quantiles.size(), 2U);
  mpq_class total = 0;
  for (const auto& q : g.noise) total += q.epsilon;
  for (const auto& q : g.quantiles) total += 3 * q.epsilon;  // L0 groups each
  EXPECT_EQ(total, g.aggregates_epsilon);
  EXPECT_EQ(g.quantiles[0].candidates, 56);                     // 0, 0.1, ..., 5.5
  EXPECT_EQ(g.quantiles[1].sensitivity, 2 * 9);                 // Linf max(9, 1)
  const auto gg = mechanisms::calibrate_aggregate(request("discrete-gaussian"));
  mpq_class rho = 0;
  for (const auto& q : gg.noise) rho += q.rho;
  for (const auto& q : gg.quantiles) {
    EXPECT_EQ(q.rho, 3 * q.epsilon * q.epsilon / 8);
    rho += q.rho;
  }
  EXPECT_TRUE(upper_at_most(accounting::zcdp_epsilon(rho, gg.aggregates_delta).bound.value, gg.aggregates_epsilon));
}

TEST(AggregateQuantile, BadRequestsNameTheParameter) {
  auto expect_naming = [](AggregateRequest r, const std::string& name) {
    try {
      (void)mechanisms::calibrate_aggregate(r);
      ADD_FAILURE() << "accepted; expected an error naming " << name;
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), name) << e.what();
    }
  };
  AggregateRequest r = request("discrete-laplace");
  r.outputs[1].q = mpq_class(3, 2);
  expect_naming(r, "q");
  r = request("discrete-laplace");
  r.value_columns[0].bounds = mechanisms::parse_value_bounds("0,100.000");  // 100,001 grid points
  expect_naming(r, "bounds");
}

}  // namespace aggregate_quantile_test
}  // namespace
}  // namespace exactdp
