// profile_inversion.h: certified bisection of a profile for epsilon, against the mu-GDP profile's
// own certified inverse (gdp_conversions.h) and on the edge cases (delta(0) <= delta, no epsilon).
#include <gtest/gtest.h>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/profile_inversion.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

TEST(ProfileEpsilon, MeetsTheGdpInverse) {
  for (const char* mu_text : {"1/2", "1", "10/11", "3"}) {
    const mpq_class mu(mu_text), delta(1, 100000);
    const auto f = [&](const mpq_class& e, mpfr_prec_t p) { return gdp_delta_at(e, mu, p); };
    const std::optional<Certified> got = profile_epsilon(f, delta);
    ASSERT_TRUE(got.has_value());
    EXPECT_TRUE(got->tolerance_met);
    const Certified want = gdp_epsilon(mu, delta);
    // both brackets contain the same number: they meet
    EXPECT_FALSE(certainly_less(got->value, want.value)) << mu_text;
    EXPECT_FALSE(certainly_less(want.value, got->value)) << mu_text;
    // the upper end is a valid epsilon
    EXPECT_TRUE(upper_at_most(gdp_delta_at(to_mpq(got->value.upper()), mu, 256), delta));
  }
}

TEST(ProfileEpsilon, EdgeCases) {
  const auto zero = [](const mpq_class& /*e*/, mpfr_prec_t p) { return Interval(0L, p); };
  const auto one = [](const mpq_class& /*e*/, mpfr_prec_t p) { return Interval(1L, p); };
  const std::optional<Certified> z = profile_epsilon(zero, mpq_class(1, 2));
  ASSERT_TRUE(z.has_value());
  EXPECT_TRUE(z->value.is_point() && z->value.contains(0L));
  EXPECT_FALSE(profile_epsilon(one, mpq_class(1, 2)).has_value());
  EXPECT_THROW((void)profile_epsilon(zero, mpq_class(0)), ParameterError);
  EXPECT_THROW((void)profile_epsilon(zero, mpq_class(1)), ParameterError);
}

}  // namespace
}  // namespace exactdp::accounting
