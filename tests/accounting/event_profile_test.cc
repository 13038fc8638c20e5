// event_profile.h: each event kind is mapped to its own closed-form profile. Checked against the
// closed forms called directly (a kind mapped to another law's profile gives other numbers at
// these parameters), the to-tolerance form against the working-precision one (containment of
// the narrower in the wider is not required: both must contain the true delta, so they must
// intersect), and the zCDP refusal.
#include <gtest/gtest.h>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/accounting/event_profile.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/laplace_profile.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {

constexpr mpfr_prec_t kPrec = 160;

bool same(const Interval& a, const Interval& b) {
  return mpfr_equal_p(a.lower(), b.lower()) != 0 && mpfr_equal_p(a.upper(), b.upper()) != 0;
}

bool intersect_nonempty(const Interval& a, const Interval& b) {
  return mpfr_lessequal_p(a.lower(), b.upper()) != 0 && mpfr_lessequal_p(b.lower(), a.upper()) != 0;
}

TEST(EventProfile, EachKindIsItsOwnClosedForm) {
  const mpq_class eps(1, 2);
  const mpq_class noise(3, 2);
  const struct {
    PrivacyEvent event;
    Interval direct;
  } cases[] = {
      {laws::gaussian_event(noise, 2), gaussian_delta_at(eps, noise, 2, kPrec)},
      {laws::laplace_event(noise, 2), laplace_delta_at(eps, noise, 2, kPrec)},
      {laws::discrete_gaussian_event(noise, 2), discrete_gaussian_delta_at(eps, noise, 2, kPrec)},
      {laws::discrete_laplace_event(noise, 2), discrete_laplace_delta_at(eps, noise, 2, kPrec)},
      {laws::gdp_event(noise), gdp_delta_at(eps, noise, kPrec)},
  };
  for (const auto& c : cases) {
    ASSERT_TRUE(has_profile(c.event));
    const Interval got = event_profile(c.event)(eps, kPrec);
    EXPECT_TRUE(same(got, c.direct)) << c.event.describe() << ": " << got.debug_string() << " vs "
                                     << c.direct.debug_string();
    const Certified tol = event_delta(c.event, eps, ZivOptions{});
    EXPECT_TRUE(tol.tolerance_met) << c.event.describe();
    EXPECT_TRUE(intersect_nonempty(tol.value, got)) << c.event.describe();
  }
  // The five values differ from one another, so a kind mapped to another's form would fail.
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    for (std::size_t j = i + 1; j < std::size(cases); ++j) {
      EXPECT_FALSE(intersect_nonempty(cases[i].direct, cases[j].direct)) << i << " " << j;
    }
  }
}

TEST(EventProfile, PureDpIsZeroAtAndAboveItsEpsilon) {
  const PrivacyEvent e = laws::pure_dp_event(1);
  EXPECT_TRUE(event_profile(e)(mpq_class(1), kPrec).contains(0L));
  EXPECT_TRUE(event_profile(e)(mpq_class(1, 2), kPrec).is_positive());
}

TEST(EventProfile, ZcdpHasNoProfileAndSaysSo) {
  const PrivacyEvent e = laws::zcdp_event(mpq_class(1, 2));
  EXPECT_FALSE(has_profile(e));
  try {
    (void)event_profile(e);
    FAIL() << "no ParameterError";
  } catch (const ParameterError& err) {
    EXPECT_EQ(err.parameter(), "event");
  }
  EXPECT_THROW((void)event_delta(e, mpq_class(1), ZivOptions{}), ParameterError);
}

}  // namespace
}  // namespace exactdp::accounting
