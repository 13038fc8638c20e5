// hardened_charge_test.cc — delta + (1 + e^eps) tau, enclosed.
#include <gtest/gtest.h>

#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

TEST(HardenedCharge, EnclosesDeltaPlusOnePlusExpEpsilonTimesTau) {
  const mpq_class tau = power_of_two(-64);
  const Interval delta(mpq_class(1, 100'000), 128);
  const Interval out = hardened_delta(delta, 1, tau);
  // 1e-5 + (1 + e) 2^-64 = 1e-5 + 2.0155...e-19: the exact value lies inside, and the charge moved it.
  const Interval expected = Interval(mpq_class(1, 100'000), 256) + (exp(Interval(1L, 256)) + mpq_class(1)) * tau;
  EXPECT_LE(mpfr_cmp(out.lower(), expected.lower()), 0);
  EXPECT_GE(mpfr_cmp(out.upper(), expected.upper()), 0);
  EXPECT_GT(mpfr_cmp(out.lower(), delta.upper()), 0);
  EXPECT_EQ(out.precision(), 128);
}

TEST(HardenedCharge, ZeroTauChargesNothing) {
  const Interval delta(mpq_class(1, 3), 128);
  const Interval out = hardened_delta(delta, mpq_class(7, 2), 0);
  EXPECT_EQ(mpfr_cmp(out.lower(), delta.lower()), 0);
  EXPECT_EQ(mpfr_cmp(out.upper(), delta.upper()), 0);
}

TEST(HardenedCharge, RefusesNegativeArguments) {
  EXPECT_THROW((void)hardened_delta_charge(-1, 0, 64), ParameterError);
  EXPECT_THROW((void)hardened_delta_charge(0, -1, 64), ParameterError);
}

}  // namespace
}  // namespace exactdp::accounting
