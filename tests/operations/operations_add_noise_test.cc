// The operation add-noise (operations/add_noise.h) called directly: the threads limit is the
// operation's, for Python and C alike; a bad input value is named as the face names its array;
// the seeded noise does not depend on the thread count. tests/operations/test_c_faces.py runs the
// same over-limit request through Python and C.
#include <gtest/gtest.h>

#include <limits>
#include <span>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/operations/add_noise.h>
#include "tests/operations/thrown.h"
#include "tests/support/seeds.h"

namespace exactdp::operations {
namespace {
namespace operations_add_noise_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr unsigned kSuite = 3902;

AddNoiseRequest gaussian(const std::string& threads) {
  return {.law = "discrete-gaussian", .parameter = "sigma", .value = "1/2", .threads = threads};
}

TEST(OperationsAddNoise, ThreadsLimitIsTheOperations) {
  for (const char* threads : {"0", "257", "99999999999999999999999"}) {
    const auto e = thrown<ParameterError>([&] { (void)plan_add_noise(gaussian(threads)); });
    EXPECT_EQ(e.parameter(), "threads");
    EXPECT_EQ(std::string(e.what()), std::string("threads = ") + threads + " is out of range: allowed 1 <= threads <= 256");
  }
  EXPECT_EQ(plan_add_noise(gaussian("256")).threads, 256u);
}

TEST(OperationsAddNoise, LawAndGranularityCheckedBeforeThreads) {
  AddNoiseRequest r = gaussian("0");
  r.granularity_exponent = 5000;
  const auto e = thrown<ParameterError>([&] { (void)plan_add_noise(r); });
  EXPECT_EQ(e.parameter(), "granularity");
  EXPECT_STREQ(e.what(), "granularity = 2^-5000 is out of range: allowed 2^-4096 <= granularity <= 2^4096 (an exact "
                         "power of two)");
  r.parameter = "scale";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_add_noise(r); }).parameter(), "scale");
}

TEST(OperationsAddNoise, BadValueIsNamedAsTheFaceNamesItsArray) {
  const std::vector<double> x = {1.0, std::numeric_limits<double>::quiet_NaN()};
  std::vector<double> y(2);
  AddNoiseRequest r = gaussian("1");
  r.input = "in";
  const AddNoisePlan plan = plan_add_noise(r);
  const auto c = thrown<ParameterError>([&] { add_noise(plan, std::span<const double>(x), std::span<double>(y), {}); });
  EXPECT_EQ(c.parameter(), "in");
  EXPECT_EQ(std::string(c.what()).rfind("in[1] ", 0), 0u) << c.what();
  const AddNoisePlan python = plan_add_noise(gaussian("1"));
  const auto py = thrown<ParameterError>([&] { add_noise(python, std::span<const double>(x), std::span<double>(y), {}); });
  EXPECT_EQ(py.parameter(), "x");
  EXPECT_EQ(std::string(py.what()).substr(1), std::string(c.what()).substr(2));
}

TEST(OperationsAddNoise, SeededNoiseIsTheSameForAnyThreadCount) {
  std::vector<float> x(5000, 0.25f);
  std::vector<float> one(x.size()), four(x.size());
  const Seed seed = test_support::fixed_seed(kSuite, 1);
  add_noise(plan_add_noise(gaussian("1")), std::span<const float>(x), std::span<float>(one), seed);
  add_noise(plan_add_noise(gaussian("4")), std::span<const float>(x), std::span<float>(four), seed);
  EXPECT_EQ(one, four);
  EXPECT_NE(one, x);
}

}  // namespace operations_add_noise_test
}  // namespace
}  // namespace exactdp::operations
