// Tests for accounting/accountant.h: route selection and certified answers.
// Independent references: closed forms where the route is exact (four Gaussian sigma = 4 events
// compose to exactly 1/2-GDP; fifty 0.2-DP events are the KOV setting of gdp_bridge Table 1,
// value from mpmath) and the direct conversion functions for the conservative routes.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/events.h>
#include "tests/support/rationals.h"

namespace exactdp::accounting {
namespace {

using test_support::q;

using test_support::overlaps;

TEST(AccountantTest, AllGaussianIsExactGdp) {
  Accountant acc;
  acc.compose(laws::gaussian_event(mpq_class(4)), 4);  // mu = sqrt(4 / 16) = 1/2
  const AccountantAnswer d = acc.get_delta(mpq_class(1));
  EXPECT_EQ(d.route, "gdp (exact)");
  EXPECT_TRUE(overlaps(d.value, gdp_delta(mpq_class(1), mpq_class(1, 2)).value));
  const AccountantAnswer e = acc.get_epsilon(q("1e-5"));
  EXPECT_EQ(e.route, "gdp (exact)");
  EXPECT_TRUE(overlaps(e.value, gdp_epsilon(mpq_class(1, 2), q("1e-5")).value));
  // The zCDP route was considered too and is looser.
  ASSERT_GE(e.considered.size(), 2U);
  EXPECT_EQ(e.considered.back().route, "zcdp");
  EXPECT_TRUE(certainly_less(e.value, e.considered.back().value));
}

TEST(AccountantTest, HomogeneousPureDpIsExactKov) {
  Accountant acc;
  acc.compose(laws::pure_dp_event(mpq_class(1, 5)), 30).compose(
      laws::laplace_event(mpq_class(5), mpq_class(1)), 20);  // Laplace 1/5-DP too
  const AccountantAnswer e = acc.get_epsilon(q("0.1"));
  EXPECT_EQ(e.route, "kov (exact)");
  EXPECT_GT(mpfr_cmp_d(e.value.lower(), 2.1146955), 0);
  EXPECT_LT(mpfr_cmp_d(e.value.upper(), 2.1146957), 0);
}

TEST(AccountantTest, MixedUsesZcdp) {
  Accountant acc;
  acc.compose(laws::gaussian_event(mpq_class(2)), 3)
      .compose(laws::discrete_gaussian_event(mpq_class(8), mpz_class(2)))
      .compose(laws::zcdp_event(mpq_class(1, 10)));
  // rho = 3/8 + 4/16 + 1/10 = 29/40
  const AccountantAnswer e = acc.get_epsilon(q("1e-6"));
  EXPECT_EQ(e.route, "zcdp");
  EXPECT_TRUE(overlaps(e.value, zcdp_epsilon(mpq_class(29, 40), q("1e-6")).bound.value));
}

// A composition whose only route (zCDP) is beyond its conversion's range is refused with a
// ParameterError naming rho, not an internal error (rho = 49 / (2 * 49e-6) = 5e5 a step, 5e11 in all).
TEST(AccountantTest, NoRouteInRangeIsAParameterError) {
  Accountant acc;
  acc.compose(laws::discrete_gaussian_event(q("49e-6"), mpz_class(7)), 1'000'000);
  for (int query = 0; query < 2; ++query) {
    try {
      if (query == 0) (void)acc.get_epsilon(q("1e-5"));
      else (void)acc.get_delta(mpq_class(1));
      ADD_FAILURE() << "expected a ParameterError";
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), "rho");
      EXPECT_NE(std::string(e.what()).find("no route answers this composition"), std::string::npos) << e.what();
    }
  }
}

TEST(AccountantTest, GaussianPlusPureUsesBestValidRoute) {
  Accountant acc;
  acc.compose(laws::gaussian_event(mpq_class(10)), 5).compose(laws::pure_dp_event(q("0.1")), 5);
  const AccountantAnswer e = acc.get_epsilon(q("1e-5"));
  ASSERT_EQ(e.considered.size(), 2U);  // gdp (not exact) and zcdp
  for (const auto& r : e.considered) EXPECT_LE(mpfr_cmp(e.value.upper(), r.value.upper()), 0);
  // Here the zCDP route wins (pure eps -> mu costs a factor ~1.25 over eps -> sqrt(2 rho)).
  EXPECT_EQ(e.route, "zcdp");
  EXPECT_EQ(e.considered.front().route, "gdp");
}

TEST(AccountantTest, LaplaceUsesItsMeasuredMu) {
  // 50 Laplace(b = 5) and nothing else: the gdp route uses mu_Lap = 0.23910558 (not the
  // 0.2-DP worst case 0.25048): eps at delta = 0.1 is the paper's "GDP (Lap)" 2.87; KOV wins.
  Accountant acc;
  acc.compose(laws::laplace_event(mpq_class(5)), 50);
  const AccountantAnswer e = acc.get_epsilon(q("0.1"));
  EXPECT_EQ(e.route, "kov (exact)");
  ASSERT_EQ(e.considered.front().route, "gdp");
  EXPECT_GT(mpfr_cmp_d(e.considered.front().value.upper(), 2.8710), 0);
  EXPECT_LT(mpfr_cmp_d(e.considered.front().value.upper(), 2.8750), 0);  // mu tolerance 1e-4
  // Each considered route reports its own tolerance: the gdp route's measured mu is a bracket of
  // width ~1e-4, so its epsilon misses the default 2^-100, while the chosen exact KOV meets it.
  EXPECT_FALSE(e.considered.front().tolerance_met);
  EXPECT_TRUE(e.tolerance_met);
}

TEST(AccountantTest, EmptyAndBadInput) {
  Accountant acc;
  EXPECT_TRUE(acc.get_epsilon(q("1e-5")).value.contains(0L));
  EXPECT_THROW(acc.compose(laws::pure_dp_event(mpq_class(1)), 0), ParameterError);
  EXPECT_THROW((void)laws::gaussian_event(mpq_class(0)), ParameterError);
  EXPECT_THROW((void)laws::discrete_gaussian_event(mpq_class(1), mpz_class(0)), ParameterError);
  EXPECT_THROW((void)laws::laplace_event(mpq_class(-1)), ParameterError);
  EXPECT_THROW((void)acc.get_epsilon(mpq_class(0)), ParameterError);
  EXPECT_THROW((void)acc.get_delta(mpq_class(-1)), ParameterError);
}

RC_GTEST_PROP(AccountantProperties, EpsilonDeltaConsistent, ()) {
  // k pure-DP events: eps from delta, then delta at that eps is <= delta (route-wise minimum).
  const int k = *rc::gen::inRange(1, 60);
  const mpq_class eps(*rc::gen::inRange(1, 100), 100);
  mpz_class p10;
  mpz_ui_pow_ui(p10.get_mpz_t(), 10, static_cast<unsigned long>(*rc::gen::inRange(1, 10)));
  const mpq_class delta(mpz_class(1), p10);
  ZivOptions o;
  o.tolerance = mpq_class(1L, 1'000'000'000L);
  o.initial_precision = 64;
  Accountant acc(o);
  acc.compose(laws::pure_dp_event(eps), static_cast<unsigned long>(k));
  const AccountantAnswer e = acc.get_epsilon(delta);
  RC_ASSERT(mpfr_cmp(e.value.lower(), e.value.upper()) <= 0);
  for (const auto& r : e.considered) RC_ASSERT(mpfr_cmp(e.value.upper(), r.value.upper()) <= 0);
  const AccountantAnswer d = acc.get_delta(to_mpq(e.value.upper()));
  RC_ASSERT(upper_at_most(d.value, delta));
}

}  // namespace
}  // namespace exactdp::accounting

namespace exactdp::accounting {
namespace {

TEST(PrivacyEventTest, AccessorsCheckTheKind) {
  EXPECT_EQ(laws::laplace_event(mpq_class(2)).pure_epsilon(), mpq_class(1, 2));
  EXPECT_EQ(laws::gaussian_event(mpq_class(4)).exact_mu(), mpq_class(1, 4));
  EXPECT_THROW((void)laws::gaussian_event(mpq_class(4)).pure_epsilon(), std::logic_error);
  EXPECT_THROW((void)laws::pure_dp_event(mpq_class(1)).exact_mu(), std::logic_error);
  EXPECT_THROW((void)laws::zcdp_event(mpq_class(1)).pure_epsilon(), std::logic_error);
}

}  // namespace
}  // namespace exactdp::accounting
