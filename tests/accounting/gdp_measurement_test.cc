// accounting/gdp_measurement.h: the contract of measure-gdp / exactdp.measure_gdp — the bracket
// of a Gaussian's mu contains Delta/sigma, the defaults and tail of the pure-DP kinds, and the
// scale checks naming the parameter to blame.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/accounting/gdp_measurement.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {

GdpMeasurable gaussian(const mpq_class& sigma, const mpq_class& sensitivity, bool given) {
  GdpMeasurable named;
  named.name = "gaussian";
  named.noise_name = "sigma";
  named.noise = sigma;
  named.sensitivity = sensitivity;
  named.sensitivity_given = given;
  return measurable_event(laws::gaussian_event(sigma, sensitivity), named);
}

std::string blamed(const GdpMeasurable& m) {
  try {
    require_measurable(m);
  } catch (const ParameterError& e) {
    return e.parameter();
  }
  return "(measurable)";
}

TEST(GdpMeasurementTest, GaussianBracketContainsDeltaOverSigma) {
  const GdpMeasurable m = gaussian(mpq_class(2), mpq_class(1), false);
  GdpMeasureSettings settings;
  settings.tolerance = mpq_class(1, 100);
  const GdpMeasurement r = measure_gdp(m, gdp_measure_options(m, settings));
  ASSERT_TRUE(r.result.bounded);
  EXPECT_LE(mpfr_cmp_q(r.result.mu.lower(), mpq_class(1, 2).get_mpq_t()), 0);
  EXPECT_GE(mpfr_cmp_q(r.result.mu.upper(), mpq_class(1, 2).get_mpq_t()), 0);
  EXPECT_FALSE(r.complete);  // the Gaussian has a tail beyond eps_max
  ASSERT_TRUE(r.tail.limit.has_value());
  EXPECT_EQ(*r.tail.limit, "1/2");
}

TEST(GdpMeasurementTest, PureDpCompositionDefaultsToItsTotalEpsilonAndIsComplete) {
  const GdpMeasurable m = measurable_pure_dp_composition(mpq_class(1, 2), 3);
  EXPECT_EQ(m.description, "pure-dp-composition(epsilon=1/2, k=3)");
  const GdptOptions o = gdp_measure_options(m, {});
  EXPECT_EQ(o.eps_max, mpq_class(3, 2));
  GdpMeasureSettings coarse;
  coarse.tolerance = mpq_class(1, 100);
  EXPECT_TRUE(measure_gdp(m, gdp_measure_options(m, coarse)).complete);
  EXPECT_THROW((void)measurable_pure_dp_composition(mpq_class(1, 2), 1001), ParameterError);
}

TEST(GdpMeasurementTest, OutOfScaleBlamesTheRightParameter) {
  EXPECT_EQ(blamed(gaussian(mpq_class(2), mpq_class(1), false)), "(measurable)");
  EXPECT_EQ(blamed(gaussian(mpq_class(1, 1'000'000'000), mpq_class(1), false)), "sigma");
  EXPECT_EQ(blamed(gaussian(mpq_class(1), mpq_class(1, 1'000'000'000), true)), "sensitivity");
  EXPECT_EQ(blamed(gaussian(mpq_class(1), mpq_class(1, 1'000'000'000), false)), "sigma");
}

}  // namespace
}  // namespace exactdp::accounting
