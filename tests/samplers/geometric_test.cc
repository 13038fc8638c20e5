// sample_geometric_exp (samplers/geometric.h): the parameter checks, the same draws as the
// construction it wraps, and its mean at a fixed seed.
#include <gtest/gtest.h>

#include <cmath>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/geometric.h>
#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/support/seeds.h"

namespace exactdp {
namespace {

constexpr std::uint32_t kGeometricSuite = 9101;

void expect_geometric_parameter_error(const mpz_class& t, const mpz_class& s, const char* parameter) {
  SeededBits bits(test_support::fixed_seed(kGeometricSuite, 0));
  try {
    (void)sample_geometric_exp(bits, t, s);
    FAIL() << "no error for t = " << t.get_str() << ", s = " << s.get_str();
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), parameter);
    EXPECT_NE(std::string(e.what()).find(">= 1"), std::string::npos) << e.what();
  }
}

TEST(Geometric, RefusesParametersBelowOne) {
  expect_geometric_parameter_error(0, 1, "t");
  expect_geometric_parameter_error(-3, 1, "t");
  expect_geometric_parameter_error(1, 0, "s");
  expect_geometric_parameter_error(5, -1, "s");
}

TEST(Geometric, DrawsWhatTheWrappedConstructionDraws) {
  const mpz_class t = 7, s = 3;
  SeededBits a(test_support::fixed_seed(kGeometricSuite, 1)), b(test_support::fixed_seed(kGeometricSuite, 1));
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(sample_geometric_exp(a, t, s), internal::sample_geometric_exp<mpz_class>(b, t, s)) << "draw " << i;
  }
  EXPECT_EQ(a.bits_consumed(), b.bits_consumed());
}

// E[Y] = q / (1 - q), q = exp(-s / t), variance q / (1 - q)^2. With n = 20,000 draws at s / t = 2/3
// the sample mean's standard error is 0.0104; the test allows 5 of them (false alarm below 1e-6 for a
// correct sampler). With s and t swapped the mean would be 0.287 instead of 1.055.
TEST(Geometric, MeanAtAFixedSeed) {
  SeededBits bits(test_support::fixed_seed(kGeometricSuite, 2));
  const mpz_class t = 3, s = 2;
  const int n = 20000;
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += sample_geometric_exp(bits, t, s).get_d();
  const double q = std::exp(-2.0 / 3.0);
  const double mean = q / (1 - q), se = std::sqrt(q / ((1 - q) * (1 - q)) / n);
  EXPECT_NEAR(sum / n, mean, 5 * se);
}

}  // namespace
}  // namespace exactdp
