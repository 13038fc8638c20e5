// The operations profile and measure-gdp (operations/profile.h, operations/measure_gdp.h) called
// directly: the checks run in the command line's order with the face's spelling, the curve's
// point limit shrinks with the size of the mechanism's numbers, and the reports carry the fields
// the faces print. tests/operations/test_faces.py runs the limits through both faces.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/accounting/gdp_measurement.h>
#include <exactdp/core/errors.h>
#include <exactdp/operations/measure_gdp.h>
#include <exactdp/operations/profile.h>
#include <exactdp/operations/profile_curve.h>
#include "tests/operations/thrown.h"

namespace exactdp::operations {
namespace {

TEST(OperationsProfile, TauBitsWithoutHardenedIsRefusedFirstInTheFacesSpelling) {
  // The unknown mechanism comes after: tau_bits is checked first, as on the command line.
  ProfileRequest r{.mechanism = "nosuch", .tau_bits = "50", .spelling = kPythonSpelling};
  auto e = thrown<ParameterError>([&] { (void)plan_profile(r); });
  EXPECT_EQ(e.parameter(), "tau_bits");
  EXPECT_STREQ(e.what(), "tau_bits applies only with hardened=True");
  r.spelling = kCommandLineSpelling;
  e = thrown<ParameterError>([&] { (void)plan_profile(r); });
  EXPECT_STREQ(e.what(), "--tau-bits applies only with --hardened");
}

TEST(OperationsProfile, MissingAndForeignParametersNameTheParameter) {
  ProfileRequest r{.mechanism = "gaussian", .parameters = {{"sensitivity", "2"}}, .spelling = kPythonSpelling};
  auto e = thrown<ParameterError>([&] { (void)plan_profile(r); });
  EXPECT_EQ(e.parameter(), "sigma");
  EXPECT_STREQ(e.what(), "missing required argument sigma");
  r.parameters = {{"sigma", "1"}, {"scale", "2"}};
  r.spelling = kCommandLineSpelling;
  e = thrown<ParameterError>([&] { (void)plan_profile(r); });
  EXPECT_EQ(e.parameter(), "scale");
  EXPECT_STREQ(e.what(), "profile gaussian takes no --scale (see --help)");
}

TEST(OperationsProfile, HardenedChargesTauAndNamesTauBits) {
  ProfileRequest r{.mechanism = "discrete-gaussian", .parameters = {{"sigma2", "4"}}, .hardened = true,
                   .tau_bits = "50"};
  const MechanismSpec hardened = plan_profile(r).mechanism;
  ASSERT_TRUE(hardened.hardened_tau.has_value());
  EXPECT_LE(*hardened.hardened_tau, mpq_class(1, mpz_class(1) << 50));
  EXPECT_EQ(hardened.parameters.back().first, "tau_bits");
  r.hardened = false;
  r.tau_bits.reset();
  const MechanismSpec plain = plan_profile(r).mechanism;
  const accounting::ZivOptions o = profile_options(r);
  EXPECT_GT(mpfr_cmp(hardened.delta(1, o).value.lower(), plain.delta(1, o).value.upper()), 0);
  r.mechanism = "gaussian";
  r.parameters = {{"sigma", "4"}};
  r.hardened = true;
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_profile(r); }).parameter(), "hardened");
}

TEST(OperationsProfile, CurvePointsShrinkWithTheSizeOfTheNumbers) {
  ProfileRequest r{.mechanism = "discrete-gaussian", .parameters = {{"sigma2", "4"}}};
  EXPECT_EQ(max_curve_points(plan_profile(r).mechanism), kMaxProfilePoints);
  r.parameters = {{"sigma2", "1e100000"}};
  const MechanismSpec big = plan_profile(r).mechanism;
  EXPECT_LT(max_curve_points(big), 2000);
  EXPECT_GE(max_curve_points(big), 2);
  const auto e = thrown<ParameterError>([&] { (void)checked_curve_points(big, "10000"); });
  EXPECT_EQ(e.parameter(), "points");
  EXPECT_EQ(checked_curve_points(big, "2"), 2);
}

// The exact Skellam profile sums its mass table at every point (seconds a point at mu = 10^6):
// its curves get fewer points as mu grows, two at 10^6; past 10^6 (the rdp bound) all of them.
TEST(OperationsProfile, CurvePointsOfTheExactSkellamProfileShrinkWithMu) {
  ProfileRequest r{.mechanism = "skellam", .parameters = {{"mu", "1"}}};
  const long at_one = max_curve_points(plan_profile(r).mechanism);
  EXPECT_LT(at_one, kMaxProfilePoints);
  EXPECT_GT(at_one, 1000);
  r.parameters = {{"mu", "1e5"}};
  EXPECT_LT(max_curve_points(plan_profile(r).mechanism), 20);
  r.parameters = {{"mu", "1e6"}};
  const MechanismSpec largest = plan_profile(r).mechanism;
  EXPECT_EQ(max_curve_points(largest), 2);
  const auto e = thrown<ParameterError>([&] { (void)checked_curve_points(largest, "3"); });
  EXPECT_EQ(e.parameter(), "points");
  EXPECT_NE(std::string(e.what()).find("skellam's exact profile"), std::string::npos) << e.what();
  r.parameters = {{"mu", "1000001"}};
  EXPECT_EQ(max_curve_points(plan_profile(r).mechanism), kMaxProfilePoints);
}

TEST(OperationsProfile, CurveGridPointsAreExactAndShort) {
  ProfileCurveGrid grid(0, 2, 5);
  EXPECT_EQ(grid.at(0).text, "0");
  EXPECT_EQ(grid.at(1).eps, mpq_class(1, 2));
  EXPECT_EQ(grid.at(1).text, "0.5");
  EXPECT_EQ(grid.at(4).eps, 2);
  ProfileCurveGrid huge(0, mpq_class(mpz_class("1" + std::string(30, '0'))), 4);
  EXPECT_EQ(huge.at(1).text, "3.33333333334e+29");  // rounded up to 12 digits
  EXPECT_GT(huge.at(1).eps, mpq_class(mpz_class("1" + std::string(30, '0')), 3));
}

TEST(OperationsProfile, ToleranceCostLimitIsALimitError) {
  const ProfileRequest r{.mechanism = "gaussian", .tolerance = "1e-700"};
  EXPECT_EQ(thrown<LimitError>([&] { (void)profile_options(r); }).parameter(), "tolerance");
}

TEST(OperationsMeasureGdp, CompositionChecksInTheFacesSpelling) {
  MeasureGdpRequest r{.mechanism = "pure-dp-composition", .parameters = {{"k", "3"}}, .spelling = kPythonSpelling};
  auto e = thrown<ParameterError>([&] { (void)measure_gdp_mechanism(r); });
  EXPECT_EQ(e.parameter(), "epsilon");
  EXPECT_STREQ(e.what(), "missing required argument epsilon");
  r.parameters = {{"epsilon", "1/10"}, {"k", "1001"}};
  e = thrown<ParameterError>([&] { (void)measure_gdp_mechanism(r); });
  EXPECT_EQ(e.parameter(), "k");
  r.parameters = {{"epsilon", "1/10"}, {"k", "2"}, {"sigma", "1"}};
  e = thrown<ParameterError>([&] { (void)measure_gdp_mechanism(r); });
  EXPECT_STREQ(e.what(), "measure-gdp pure-dp-composition does not take sigma");
}

TEST(OperationsMeasureGdp, CompositionBoundIsTheAccountingLayersOne) {
  // One kMaxCompositionK (accounting/gdp_measurement.h): the operation accepts the k that the
  // accounting layer accepts and refuses the next one with the same sentence.
  const std::string top = std::to_string(accounting::kMaxCompositionK);
  const std::string over = std::to_string(accounting::kMaxCompositionK + 1);
  MeasureGdpRequest r{.mechanism = "pure-dp-composition", .parameters = {{"epsilon", "1/100"}, {"k", top}}};
  EXPECT_NO_THROW((void)measure_gdp_mechanism(r));
  r.parameters = {{"epsilon", "1/100"}, {"k", over}};
  const auto ours = thrown<ParameterError>([&] { (void)measure_gdp_mechanism(r); });
  const auto theirs = thrown<ParameterError>(
      [] { (void)accounting::measurable_pure_dp_composition(mpq_class(1, 100), accounting::kMaxCompositionK + 1); });
  EXPECT_STREQ(ours.what(), theirs.what());
  EXPECT_EQ(ours.parameter(), theirs.parameter());
}

TEST(OperationsMeasureGdp, ReportCarriesThePrintedFields) {
  const MeasureGdpRequest r{.mechanism = "gdp", .parameters = {{"mu", "1/2"}}, .eps_max = "3"};
  const accounting::GdpMeasurable m = measure_gdp_mechanism(r);
  const MeasureGdpReport report = measure_gdp_report(m, measure_gdp_options(r, m));
  EXPECT_EQ(report.mechanism.description, "gdp(mu=1/2)");
  EXPECT_EQ(report.algorithm, "shuffled (Algorithm 1)");
  EXPECT_EQ(report.options.eps_max, 3);
  ASSERT_TRUE(report.measured.result.bounded);
  EXPECT_TRUE(report.measured.result.mu.contains(mpq_class(1, 2)));
  EXPECT_EQ(mu_upper_text(report.measured.result, 3).substr(0, 2), "0.");
  EXPECT_EQ(thrown<ParameterError>([] { (void)checked_gdp_digits("10001"); }).parameter(), "digits");
  EXPECT_EQ(thrown<ParameterError>([] { (void)checked_gdpt_plot_points("1"); }).parameter(), "points");
}

}  // namespace
}  // namespace exactdp::operations
