// The operation calibrate dp-sgd (operations/calibrate_dp_sgd.h) called directly: the steps limit
// and the route are checked before any search (the report's fields are compared between the
// faces by python/tests/test_accounting.py). tests/operations/test_faces.py runs the steps limit
// through the command line and Python.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/operations/calibrate_dp_sgd.h>
#include "tests/operations/thrown.h"

namespace exactdp::operations {
namespace {

TEST(OperationsCalibrateDpSgd, StepsLimitNamesSteps) {
  EXPECT_EQ(checked_dp_sgd_steps("1000000000"), kMaxDpSgdSteps);
  const auto over = thrown<ParameterError>([] { (void)checked_dp_sgd_steps("1000000001"); });
  EXPECT_EQ(over.parameter(), "steps");
  EXPECT_STREQ(over.what(), "steps = 1000000001 is out of range: allowed 1 <= steps <= 1000000000");
  EXPECT_EQ(thrown<ParameterError>([] { (void)checked_dp_sgd_steps("0"); }).parameter(), "steps");
}

TEST(OperationsCalibrateDpSgd, UnknownRouteIsRefusedBeforeTheSearch) {
  CalibrateDpSgdRequest r{.q = mpq_class(1, 100), .steps = 10, .epsilon = 1, .delta = mpq_class(1, 100000)};
  r.route = "prv";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)calibrate_dp_sgd(r); }).parameter(), "route");
}

}  // namespace
}  // namespace exactdp::operations
