// privacy_audit_test.cc — the empirical privacy audit (verification/privacy_audit.h) catches the
// textbook floating-point Laplace mechanism (Mironov 2012) and does not accuse ours.
//
// Setting: counting query, neighbours 0 and Delta = 1, claimed epsilon = 1 (Laplace scale 1),
// delta = 1e-9, confidence 1 - 1e-6 (so a false "violation" has probability <= 1e-6).
// Floating point: the feature "is this output a value the noise alone can produce"
// (test_support::textbook_noise_feasible) is 1 for every output of M(0) but rarely 1 for M(1):
// the outputs of M(1) are mostly IMPOSSIBLE under M(0), so epsilon is effectively infinite and
// the audit reports a violation. Ours: x + discrete Laplace(scale 1) on integers; thresholds
// -2..2; the audit's lower bound stays below 1 (the true epsilon) yet close to it.
#include <gtest/gtest.h>

#include <exactdp/core/decimal.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/broken_samplers.h"
#include "tests/support/seeds.h"
#include <exactdp/verification/privacy_audit.h>

namespace exactdp {
namespace {
using namespace test_support;
using verification::CountMap;

const mpq_class kDelta(1, 1'000'000'000);
const mpq_class kConfidence(999'999, 1'000'000);

TEST(PrivacyAudit, CatchesTextbookFloatingPointLaplace) {
  const double b = 1.0;
  SeededBits bits(fixed_seed(51, 0));
  CountMap out0, out1;
  const unsigned long long n = 20'000;
  for (unsigned long long i = 0; i < n; ++i) {
    ++out0[textbook_noise_feasible(textbook_laplace_mechanism(bits, 0.0, b), b)];
    ++out1[textbook_noise_feasible(textbook_laplace_mechanism(bits, 1.0, b), b)];
  }
  EXPECT_EQ(out0[1], n);  // every output of M(0) is feasible, by construction
  const auto r = verification::audit_threshold_events(out0, out1, {mpz_class(1)}, kDelta, kConfidence, mpq_class(1));
  EXPECT_TRUE(r.violation) << "epsilon_lower = " << exactdp::decimal_lower(r.epsilon_lower.lower(), 6) << " witness " << r.witness
                           << " feasible under M(1): " << out1[1] << "/" << n;
  std::cout << "textbook Laplace: epsilon >= " << exactdp::decimal_lower(r.epsilon_lower.lower(), 6) << " (" << r.witness << ")\n";
}

TEST(PrivacyAudit, ExactDiscreteLaplaceIsNotAccused) {
  const auto params0 = DiscreteLaplaceParams::make(mpq_class(1), mpz_class(0));
  const auto params1 = DiscreteLaplaceParams::make(mpq_class(1), mpz_class(1));
  SeededBits bits(fixed_seed(52, 0));
  CountMap out0, out1;
  const unsigned long long n = 50'000;
  for (unsigned long long i = 0; i < n; ++i) {
    ++out0[sample_discrete_laplace(bits, params0)];
    ++out1[sample_discrete_laplace(bits, params1)];
  }
  std::vector<mpz_class> thresholds;
  for (long c = -2; c <= 2; ++c) thresholds.emplace_back(c);
  const auto r = verification::audit_threshold_events(out0, out1, thresholds, kDelta, kConfidence, mpq_class(1));
  EXPECT_FALSE(r.violation) << "epsilon_lower = " << exactdp::decimal_lower(r.epsilon_lower.lower(), 6) << " witness " << r.witness;
  // Power: the bound comes close to the true epsilon = 1 (threshold events are tight for Laplace).
  EXPECT_GT(mpfr_cmp_d(r.epsilon_lower.lower(), 0.8), 0) << exactdp::decimal_lower(r.epsilon_lower.lower(), 6);
  // And the same samples DO violate a smaller claimed epsilon.
  const auto small = verification::audit_threshold_events(out0, out1, thresholds, kDelta, kConfidence, mpq_class(1, 2));
  EXPECT_TRUE(small.violation);
  std::cout << "discrete Laplace: epsilon >= " << exactdp::decimal_lower(r.epsilon_lower.lower(), 6) << " (" << r.witness << ")\n";
}

TEST(PrivacyAudit, RejectsBadArguments) {
  CountMap a{{mpz_class(0), 1}}, empty;
  EXPECT_THROW((void)verification::audit_threshold_events(a, a, {}, kDelta, kConfidence, mpq_class(1)),
               std::invalid_argument);
  EXPECT_THROW((void)verification::audit_threshold_events(a, empty, {mpz_class(0)}, kDelta, kConfidence, mpq_class(1)),
               std::invalid_argument);
  EXPECT_THROW((void)verification::audit_threshold_events(a, a, {mpz_class(0)}, mpq_class(1), kConfidence, mpq_class(1)),
               std::invalid_argument);
}

}  // namespace
}  // namespace exactdp
