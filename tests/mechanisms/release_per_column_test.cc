// release_per_column_test.cc — per-column sensitivities (ContributionModel::column_sensitivities,
// docs/RELEASE.md "Per-column sensitivity and grid"): each route's certified guarantee re-derived
// here from the columns' own parameters (containment: never more than the request, and the check
// fails on a deliberately overspending calibration), equal per-column sensitivities give the
// uniform calibration value for value, and release_columns keeps an integer column integer next
// to a decimal one and equals the CSV release with per-column codecs for the same seed.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/mechanisms/release/release_table.h>
#include <exactdp/mechanisms/release/release_values.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using namespace mechanisms;

ReleaseBudget budget(const std::string& m, const char* eps, const char* delta, bool hardened = false) {
  ReleaseBudget b;
  b.mechanism = m;
  b.epsilon = parse_rational("epsilon", eps);
  if (delta != nullptr) b.delta = parse_rational("delta", delta);
  b.hardened = hardened;
  return b;
}

ContributionModel per_column(std::vector<long> deltas, unsigned long k) {
  ContributionModel m;
  m.columns = static_cast<unsigned long>(deltas.size());
  m.contributions = k;
  for (const long d : deltas) m.column_sensitivities.emplace_back(d);
  return m;
}

// The pure-DP loss bound sum_c K Delta_c / t_c of a Laplace calibration, from its own scales.
mpq_class laplace_loss(const ReleaseCalibration& c) {
  mpq_class loss = 0;
  for (std::size_t i = 0; i < c.model.columns; ++i) {
    loss += mpq_class(c.model.contributions * c.model.sensitivity_of(i)) / c.noise_of(i);
  }
  return loss;
}

// rho = sum_c K^2 Delta_c^2 / (2 sigma2_c) of a Gaussian calibration, from its own sigma2s.
mpq_class gaussian_rho(const ReleaseCalibration& c) {
  mpq_class rho = 0;
  const mpz_class k(c.model.contributions);
  for (std::size_t i = 0; i < c.model.columns; ++i) {
    const mpz_class d = c.model.sensitivity_of(i);
    rho += mpq_class(k * k * d * d) / (2 * c.noise_of(i));
  }
  return rho;
}

TEST(ReleasePerColumn, LaplaceScalesEachColumnAndStaysWithinEpsilon) {
  ReleaseCalibration c = calibrate_release(budget("discrete-laplace", "1/2", nullptr), per_column({1, 500}, 2), 7);
  EXPECT_EQ(c.route, "pure-dp-l1");
  ASSERT_EQ(c.column_noise.size(), 2u);
  EXPECT_EQ(c.noise_of(0), 8);     // C K Delta_c / eps = 2 * 2 * 1 / (1/2)
  EXPECT_EQ(c.noise_of(1), 4000);  // 2 * 2 * 500 / (1/2)
  EXPECT_EQ(c.l1_sensitivity, 2 * 501);
  EXPECT_EQ(c.l2_sensitivity_squared, 4 * (1 + 250000));
  EXPECT_LE(laplace_loss(c), mpq_class(1, 2));
  EXPECT_EQ(*c.epsilon_exact, mpq_class(1, 2));
  // Not vacuous: the uniform scale of the small column on both overspends by far.
  c.column_noise[1] = c.column_noise[0];
  EXPECT_GT(laplace_loss(c), mpq_class(1, 2));
}

TEST(ReleasePerColumn, GaussianRhoAddsOverColumnsAndConvertsWithinTheBudget) {
  const mpq_class delta(1, 1'000'000);
  ReleaseCalibration c = calibrate_release(budget("discrete-gaussian", "1", "1e-6"), per_column({1, 500, 3}, 2), 5);
  EXPECT_EQ(c.route, "zcdp");
  EXPECT_EQ(gaussian_rho(c), *c.rho);
  // Each column spends about rho / C: sigma2_c scales with Delta_c^2.
  EXPECT_GT(c.noise_of(1), 1000 * c.noise_of(0));
  const accounting::ZcdpConversion conv = accounting::zcdp_epsilon(gaussian_rho(c), delta);
  EXPECT_TRUE(upper_at_most(conv.bound.value, 1)) << to_string(gaussian_rho(c));
  EXPECT_TRUE(upper_at_most(c.epsilon, 1));
  // Not vacuous: the big column at the small column's sigma2 overspends by far.
  c.column_noise[1] = c.column_noise[0];
  EXPECT_FALSE(upper_at_most(accounting::zcdp_epsilon(gaussian_rho(c), delta).bound.value, 1));
}

TEST(ReleasePerColumn, EqualSensitivitiesGiveTheUniformCalibration) {
  for (const bool hardened : {false, true}) {
    for (const char* law : {"discrete-laplace", "discrete-gaussian"}) {
      ContributionModel uniform;
      uniform.columns = 3;
      uniform.contributions = 2;
      uniform.sensitivity = 7;
      const ReleaseBudget b = budget(law, "1", "1e-5", hardened);
      const ReleaseCalibration u = calibrate_release(b, uniform, 11);
      const ReleaseCalibration p = calibrate_release(b, per_column({7, 7, 7}, 2), 11);
      EXPECT_EQ(u.noise(), p.noise()) << law;
      for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(p.noise_of(i), u.noise()) << law;
      EXPECT_EQ(u.l1_sensitivity, p.l1_sensitivity);
      EXPECT_EQ(u.l2_sensitivity_squared, p.l2_sensitivity_squared);
      EXPECT_EQ(to_string(to_mpq(u.epsilon.upper())), to_string(to_mpq(p.epsilon.upper())));
      EXPECT_EQ(to_string(to_mpq(u.delta.upper())), to_string(to_mpq(p.delta.upper())));
      EXPECT_EQ(u.rho, p.rho);
    }
  }
  // One column: the exact profile with that column's Delta, as the uniform model.
  ContributionModel one;
  one.sensitivity = 9;
  const ReleaseBudget g = budget("discrete-gaussian", "1", "1e-6");
  EXPECT_EQ(calibrate_release(g, one, 3).sigma2, calibrate_release(g, per_column({9}, 1), 3).sigma2);
  EXPECT_EQ(calibrate_release(g, per_column({9}, 1), 3).route, "exact-profile");
}

TEST(ReleasePerColumn, HardenedChargesEveryColumnsCells) {
  const ReleaseCalibration c =
      calibrate_release(budget("discrete-gaussian", "1", "1e-6", true), per_column({1, 500}, 1), 1000);
  ASSERT_EQ(c.column_tau_upper.size(), 2u);
  EXPECT_TRUE(upper_at_most(c.delta, mpq_class(1, 1'000'000)));
  // the product profile's certified delta (at the 3-digit sigma2, a little under delta_mech) + the charge
  EXPECT_GT(to_mpq(c.delta.upper()), mpq_class(9, 10'000'000));
  EXPECT_FALSE(c.rho.has_value());
}

TEST(ReleasePerColumn, BadPerColumnModelsAreNamed) {
  const ReleaseBudget b = budget("discrete-laplace", "1", nullptr);
  ContributionModel wrong_size = per_column({1, 2}, 1);
  wrong_size.columns = 3;
  EXPECT_THROW((void)calibrate_release(b, wrong_size, 1), ParameterError);
  try {
    (void)calibrate_release(b, per_column({1, 0}, 1), 1);
    FAIL() << "Delta_c = 0 accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "sensitivity");
  }
}

TEST(ReleasePerColumn, ReleaseColumnsKeepsIntegersAndEqualsTheCsvRelease) {
  const ReleaseBudget b = budget("discrete-laplace", "1", nullptr);
  std::vector<ColumnSpec> specs(2);
  specs[0].sensitivity = 1;  // integer column "count"
  specs[1].granularity = mpq_class(1, 100);
  specs[1].sensitivity = 5;  // "amount": Delta = 500 steps
  std::vector<std::vector<mpq_class>> values = {{76, 3, 0}, {mpq_class(123, 10), mpq_class(1, 20), mpq_class(-3, 2)}};
  SeededBits bits(test_support::fixed_seed(0xc01, 1));
  const ReleaseCalibration cal = release_columns(values, specs, b, 1, bits);
  EXPECT_EQ(cal.noise_of(0), 2);
  EXPECT_EQ(cal.noise_of(1), 1000);
  for (const mpq_class& v : values[0]) EXPECT_EQ(v.get_den(), 1) << to_string(v);
  for (const mpq_class& v : values[1]) EXPECT_EQ(mpq_class(v * 100).get_den(), 1) << to_string(v);

  // The CSV release with per-column codecs, the columns named in another order: same values.
  test_support::StringReader in("region,count,amount\nnorth,76,12.30\nsouth,3,0.05\neast,0,-1.50\n");
  const std::vector<std::string> names = {"amount", "count"};
  const std::vector<CellCodec> codecs = {CellCodec::decimals(mpq_class(1, 100), Rounding::kRefuse),
                                         CellCodec::integers()};
  const TableScan scan = scan_table(in, names, {}, codecs);
  ContributionModel model = per_column({1, 500}, 1);  // header order: count, amount
  const ReleaseCalibration csv_cal = calibrate_release(b, model, scan.rows);
  in.rewind();
  std::ostringstream out;
  SeededBits csv_bits(test_support::fixed_seed(0xc01, 1));
  write_release(in, out, scan, csv_cal, csv_bits, {}, codecs);
  std::string expected = "region,count,amount\n";
  const char* regions[] = {"north", "south", "east"};
  for (std::size_t r = 0; r < 3; ++r) {
    std::string amount;
    codecs[0].format(mpq_class(values[1][r] * 100).get_num(), amount);
    expected += std::string(regions[r]) + "," + values[0][r].get_num().get_str() + "," + amount + "\n";
  }
  EXPECT_EQ(out.str(), expected);
}

TEST(ReleasePerColumn, ReleaseColumnsRefusesANonIntegerInAnIntegerColumn) {
  std::vector<ColumnSpec> specs(1);
  std::vector<std::vector<mpq_class>> values = {{mpq_class(1, 2)}};
  SeededBits bits(test_support::fixed_seed(0xc01, 2));
  try {
    (void)release_columns(values, specs, budget("discrete-laplace", "1", nullptr), 1, bits);
    FAIL() << "1/2 accepted in an integer column";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("column 0"), std::string::npos) << e.what();
  }
  specs[0].sensitivity = mpq_class(3, 2);
  values = {{1}};
  EXPECT_THROW((void)release_columns(values, specs, budget("discrete-laplace", "1", nullptr), 1, bits),
               ParameterError);
}

}  // namespace
}  // namespace exactdp
