// The operation calibrate (operations/calibrate.h) called directly: the law is checked before
// any work, the tolerance's cost limit (2^-2000) holds for the analytic Gaussian from every face,
// the discrete Gaussian gets its bracket tolerance, and the report carries every field a face
// prints. tests/operations/test_faces.py runs the limit through the command line and Python.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/operations/calibrate.h>
#include "tests/operations/thrown.h"

namespace exactdp::operations {
namespace {

CalibrateReport run(const CalibrateRequest& r) { return calibrate(r, plan_calibration(r)); }

TEST(OperationsCalibrate, ToleranceCostLimitIsALimitError) {
  CalibrateRequest r{.law = "gaussian", .epsilon = 1, .delta = mpq_class(1, 100000),
                     .tolerance = mpq_class(1, mpz_class(1) << 2001), .spelling = kPythonSpelling};
  const auto e = thrown<LimitError>([&] { (void)run(r); });
  EXPECT_EQ(e.parameter(), "tolerance");
  EXPECT_NE(std::string(e.what()).find("2^-2000"), std::string::npos) << e.what();
}

TEST(OperationsCalibrate, UnknownOrUncalibratedLawNamesMechanism) {
  CalibrateRequest r{.law = "staircase", .epsilon = 1, .delta = mpq_class(1, 100000)};
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_calibration(r); }).parameter(), "mechanism");
  r.law = "cauchy";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_calibration(r); }).parameter(), "mechanism");
  r.law = "gaussian";
  r.delta = 0;  // checked by the plan, before any work
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_calibration(r); }).parameter(), "delta");
}

TEST(OperationsCalibrate, GaussianReportCarriesTheClassicalComparisonBelowEpsilonOne) {
  CalibrateRequest r{.law = "gaussian", .epsilon = mpq_class(1, 2), .delta = mpq_class(1, 100000)};
  const CalibrateReport small = run(r);
  EXPECT_EQ(small.calibration.parameter, "sigma");
  ASSERT_TRUE(small.classical_sigma.has_value());
  EXPECT_TRUE(small.variance_ratio.has_value());
  EXPECT_EQ(*small.target.tolerance, mpq_class(1, mpz_class(1) << 100));
  const auto& c = std::get<accounting::GaussianCalibration>(small.calibration.certificate);
  EXPECT_EQ(small.precision, 64 + 4 * 20 + static_cast<mpfr_prec_t>(mpz_sizeinbase(c.sigma.get_den_mpz_t(), 2)));
  r.epsilon = 1;
  EXPECT_FALSE(run(r).classical_sigma.has_value());
}

TEST(OperationsCalibrate, DiscreteGaussianUsesItsBracketTolerance) {
  const CalibrateRequest r{.law = "discrete-gaussian", .epsilon = 1, .delta = mpq_class(1, 100000)};
  const CalibrateReport report = run(r);
  EXPECT_EQ(report.calibration.parameter, "sigma2");
  EXPECT_EQ(*report.target.tolerance, accounting::default_bracket_tolerance());
  EXPECT_EQ(report.precision, 64 + 4 * 20 + 256);
}

TEST(OperationsCalibrate, ClosedFormIsScaleOverEpsilon) {
  const CalibrateRequest r{.law = "laplace", .epsilon = 2, .delta = 0, .sensitivity = 3};
  const CalibrateReport report = run(r);
  EXPECT_EQ(report.calibration.parameter, "scale");
  EXPECT_EQ(report.calibration.value, mpq_class(3, 2));
}

}  // namespace
}  // namespace exactdp::operations
