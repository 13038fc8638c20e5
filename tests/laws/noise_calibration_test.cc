// laws/noise_calibration.h: a law's calibration map (Law::calibrate). The noise it returns is
// checked against the law's own certified profile (accounting/event_profile.h, a separate
// computation): delta(epsilon) at the calibrated value is <= the target. Laws without a map, and
// bad targets, are refused by name.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/accounting/event_profile.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/interval.h>
#include <exactdp/laws/registry.h>

namespace exactdp::laws {
namespace {

// The certified delta(epsilon) of `law` with {parameter = value, sensitivity}.
Interval delta_at(const Law& law, const std::string& parameter, const mpq_class& value, const mpq_class& sensitivity,
                  const mpq_class& epsilon) {
  const LawParameters p = law.parse_values({{parameter, value}, {"sensitivity", sensitivity}}, Use::kPrivacy);
  return accounting::event_delta(law.privacy_event(p), epsilon, {}).value;
}

NoiseCalibration calibrate(const Law& law, const mpq_class& epsilon, const mpq_class& delta,
                           const mpq_class& sensitivity) {
  return law.calibrate({epsilon, delta, std::nullopt},
                       law.parse_values({{"sensitivity", sensitivity}}, Use::kCalibrate));
}

TEST(NoiseCalibrationTest, TheLawsWithAMap) {
  EXPECT_EQ(law_names_with(Capability::kCalibrate), "discrete-gaussian, discrete-laplace, gaussian, laplace");
}

TEST(NoiseCalibrationTest, CalibratedNoiseMeetsTheTargetByTheLawsOwnProfile) {
  struct Case {
    const char* law;
    const char* parameter;
    mpq_class epsilon, delta, sensitivity;
  };
  const std::vector<Case> cases = {
      {"gaussian", "sigma", mpq_class(1), mpq_class(1, 100000), mpq_class(3, 2)},
      {"discrete-gaussian", "sigma2", mpq_class(1, 2), mpq_class(1, 1000000), mpq_class(2)},
      {"laplace", "scale", mpq_class(1, 3), mpq_class(0), mpq_class(5, 2)},
      {"discrete-laplace", "scale", mpq_class(2), mpq_class(0), mpq_class(3)},
  };
  for (const Case& c : cases) {
    const Law& law = law_named(c.law);
    const NoiseCalibration n = calibrate(law, c.epsilon, c.delta, c.sensitivity);
    EXPECT_EQ(n.parameter, c.parameter) << c.law;
    EXPECT_TRUE(upper_at_most(delta_at(law, n.parameter, n.value, c.sensitivity, c.epsilon), c.delta)) << c.law;
    EXPECT_TRUE(upper_at_most(n.delta_at, c.delta)) << c.law;
    // The map's value is the noise, not a stand-in: 9/10 of it misses the target (every law here
    // is within 10% of its optimum, so the check has power).
    EXPECT_FALSE(upper_at_most(delta_at(law, n.parameter, n.value * mpq_class(9, 10), c.sensitivity, c.epsilon),
                               c.delta))
        << c.law;
  }
  // The closed form, exactly: scale = sensitivity / epsilon.
  EXPECT_EQ(calibrate(law_named("laplace"), mpq_class(1, 3), 0, mpq_class(5, 2)).value, mpq_class(15, 2));
}

std::string refused_parameter(const char* law, const mpq_class& epsilon, const mpq_class& delta) {
  try {
    (void)calibrate(law_named(law), epsilon, delta, 1);
  } catch (const ParameterError& e) {
    return e.parameter();
  }
  return "(accepted)";
}

TEST(NoiseCalibrationTest, RefusalsNameTheParameterOrTheLaw) {
  for (const char* law : {"staircase", "gdp", "bernoulli-exp"}) {
    try {
      (void)law_named(law).calibrate({1, mpq_class(1, 1000), std::nullopt}, LawParameters{});
      ADD_FAILURE() << law << " calibrated";
    } catch (const UnsupportedError& e) {
      EXPECT_EQ(e.parameter(), "law") << e.what();
    }
  }
  EXPECT_EQ(refused_parameter("gaussian", -1, mpq_class(1, 1000)), "epsilon");
  EXPECT_EQ(refused_parameter("gaussian", 1, 0), "delta");
  EXPECT_EQ(refused_parameter("discrete-gaussian", 1, 1), "delta");
  EXPECT_EQ(refused_parameter("laplace", 0, 0), "epsilon");
  EXPECT_EQ(refused_parameter("discrete-laplace", 1, -1), "delta");
  // Only the privacy parameters are a calibration's input: the noise is its output.
  try {
    (void)law_named("gaussian").parse({{"sigma", "1"}}, Use::kCalibrate);
    ADD_FAILURE() << "sigma accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "sigma");
  }
}

}  // namespace
}  // namespace exactdp::laws
