// federated_event_test.cc — the round's accounting event (operations::plan_federated): for
// Skellam shares it is the skellam law's vector event of the surviving clients' sum (mu = m mu_g,
// the L2 sensitivity, dim = D), and its RDP curve is the law's SkellamPrivacy at those values;
// for discrete Gaussian shares the distributed-discrete-gaussian event as before. The typed fields
// (event_fields, what Python builds its event class from) hold the same values as the text.
#include <gtest/gtest.h>

#include <gmpxx.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/core/interval.h>
#include <exactdp/laws/event_text.h>
#include <exactdp/laws/skellam/skellam_privacy.h>
#include <exactdp/operations/federated.h>

namespace exactdp {
namespace {

operations::FederatedRequest skellam_request() {
  operations::FederatedRequest r;
  r.dimension = "100";
  r.clip = "1";
  r.granularity = "6";  // g = 2^-6: mu on the lattice is mu 2^12
  r.bits = "32";
  r.clients = "10";
  r.dropout = "1/4";  // m = 10 - floor(10 / 4) = 8 survivors
  r.noise = "skellam";
  r.noise_value = "1/64";
  r.hardened = false;
  return r;
}

TEST(FederatedEvent, SkellamSharesHaveTheSkellamLawsVectorEvent) {
  const operations::FederatedReport report = operations::plan_federated(skellam_request());
  ASSERT_TRUE(report.event.has_value()) << report.no_event_reason;
  const mpq_class mu = mpq_class(1, 64) * 4096 * 8;  // 512
  const std::string expected = "skellam:mu=" + mu.get_str() + ",sensitivity=" + report.sensitivity + ",dim=" +
                               std::to_string(report.plan->padded_dimension());
  EXPECT_EQ(*report.event, expected);
  EXPECT_EQ(report.plan->padded_dimension(), 256U);
  ASSERT_TRUE(report.event_fields.has_value());
  EXPECT_EQ(report.event_fields->law, "skellam");
  EXPECT_EQ(report.event_fields->noise, "512");
  EXPECT_EQ(report.event_fields->sensitivity, report.sensitivity);
  EXPECT_EQ(report.event_fields->dim, 256U);
  EXPECT_EQ(operations::event_text(*report.event_fields), *report.event);
  // the event composes as the law's maps at those values, the L1 bound taken from dim
  const accounting::RdpEvent e = laws::parse_event_text(*report.event);
  const laws::SkellamPrivacy maps(mu, laws::SkellamSensitivity{mpq_class(report.sensitivity), std::nullopt, 256});
  for (const long alpha : {2L, 8L, 64L}) {
    const Interval got = e.rdp(mpq_class(alpha), accounting::Neighbouring::kAddRemove, 128);
    const Interval want = maps.rdp(mpq_class(alpha), 128);
    EXPECT_EQ(mpfr_cmp(got.upper(), want.upper()), 0) << alpha << " " << got.debug_string();
  }
  EXPECT_NE(e.describe().find("dim=256"), std::string::npos) << e.describe();
}

TEST(FederatedEvent, DiscreteGaussianSharesKeepTheirEvent) {
  operations::FederatedRequest r = skellam_request();
  r.noise = "discrete-gaussian";
  const operations::FederatedReport report = operations::plan_federated(r);
  ASSERT_TRUE(report.event.has_value()) << report.no_event_reason;
  EXPECT_EQ(report.event->rfind("distributed-discrete-gaussian:sigma2=64,clients=10,dropout=1/4,sensitivity=", 0), 0U)
      << *report.event;
  ASSERT_TRUE(report.event_fields.has_value());
  const operations::FederatedEvent& e = *report.event_fields;
  EXPECT_EQ(e.law, "distributed-discrete-gaussian");
  EXPECT_EQ(e.noise, "64");  // sigma2 = 1/64 on the lattice 2^-6: 1/64 * 4^6
  EXPECT_EQ(e.clients, 10U);
  EXPECT_EQ(e.dropout, "1/4");
  EXPECT_EQ(e.dim, 256U);
  EXPECT_EQ(operations::event_text(e), *report.event);
}

TEST(FederatedEvent, HardenedRunDeltaChargesRoundsTimesTheRoundsTau) {
  operations::FederatedRequest r = skellam_request();
  r.noise = "discrete-gaussian";
  r.hardened = true;
  const operations::FederatedReport report = operations::plan_federated(r);
  const mpq_class tau = report.plan->sampler().tau_upper();
  ASSERT_GT(tau, 0);
  // epsilon 0: the charge is exactly 2 rounds n D tau (e^0 = 1), n = 10, D = 256
  const Interval at_zero = operations::hardened_run_delta(report, "0", "1/1000", "7");
  const mpq_class want = mpq_class(1, 1000) + 2 * 7 * 10 * 256 * tau;
  EXPECT_TRUE(at_zero.contains(want)) << at_zero.debug_string();
  EXPECT_LT(to_mpq(at_zero.upper()) - to_mpq(at_zero.lower()), want / (mpz_class(1) << 100)) << at_zero.debug_string();
  // plain shares: delta itself
  r.hardened = false;
  const Interval plain = operations::hardened_run_delta(operations::plan_federated(r), "30", "1/1000", "1000");
  EXPECT_TRUE(plain.contains(mpq_class(1, 1000)));
  EXPECT_LT(to_mpq(plain.upper()) - mpq_class(1, 1000), mpq_class(1, 1000) / (mpz_class(1) << 100));
  // the checks name the parameter, in the order epsilon, delta, rounds
  const auto named = [&](const char* eps, const char* delta, const char* rounds) {
    try {
      (void)operations::hardened_run_delta(report, eps, delta, rounds);
    } catch (const ParameterError& e) {
      return e.parameter();
    }
    return std::string("none");
  };
  EXPECT_EQ(named("-1", "2", "0"), "epsilon");
  EXPECT_EQ(named("1", "2", "0"), "delta");
  EXPECT_EQ(named("1", "1/2", "0"), "rounds");
  EXPECT_EQ(named("1000001", "1/2", "1"), "epsilon");
  EXPECT_EQ(named("1", "1/2", "1000000001"), "rounds");
  EXPECT_EQ(named("1000000", "1", "1000000000"), "none");
}

}  // namespace
}  // namespace exactdp
