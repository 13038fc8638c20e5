// Accounting of a federated training run with the Skellam and distributed discrete Gaussian laws:
// the Poisson-subsampled RDP bound (Zhu and Wang's general bound over each law's RDP curve)
// against an independent mpmath evaluation of the papers' own formula
// (tests/laws/data/federated_reference.py wrote the values), and operations::calibrate_run: the
// value it returns meets the target on an independent composition, the value below it misses,
// Skellam's per-client share, and bad input refused naming the parameter.
#include <gtest/gtest.h>

#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/laws/distributed_discrete_gaussian/ddg_privacy.h>
#include <exactdp/laws/registry.h>
#include <exactdp/laws/skellam/skellam_privacy.h>
#include <exactdp/operations/calibrate.h>
#include "tests/support/rationals.h"

namespace exactdp::laws {
namespace {
namespace federated_accounting_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using exactdp::Interval;
using test_support::encloses_reference;
constexpr mpfr_prec_t kP = 256;

TEST(FederatedAccounting, SubsampledBoundsMatchThePapersFormula) {
  EXPECT_TRUE(encloses_reference(
      SkellamPrivacy(mpq_class(200), 10).subsampled_rdp(mpq_class(1, 100), mpq_class(15), kP),
      "0.000352645713382778210989501081627"));
  EXPECT_TRUE(encloses_reference(SkellamPrivacy(mpq_class(50), 3).subsampled_rdp(mpq_class(1, 10), mpq_class(4), kP),
                                 "0.00517525575117312572505808077003"));
  const DistributedDiscreteGaussianPrivacy ddg({mpq_class(4), 100, mpq_class(10), std::nullopt, 1});
  EXPECT_TRUE(encloses_reference(ddg.subsampled_rdp(mpq_class(1, 100), mpq_class(15), kP),
                                 "0.000351807351146727883460571019876"));
  const DistributedDiscreteGaussianPrivacy small({mpq_class(1, 2), 20, mpq_class(3), std::nullopt, 1});
  EXPECT_TRUE(encloses_reference(small.subsampled_rdp(mpq_class(1, 10), mpq_class(6), kP),
                                 "0.441470812350360688396104736045"));
}

// The certified epsilon of `rounds` Poisson-subsampled events of the law at `params`, composed
// here independently of calibrate_run.
Interval run_epsilon(const std::string& law, const std::vector<std::pair<std::string, std::string>>& params,
                     const mpq_class& q, unsigned long rounds, const mpq_class& delta) {
  const Law& l = law_named(law);
  const accounting::PrivacyEvent e = l.privacy_event(l.parse(params, Use::kPrivacy));
  return accounting::rdp_epsilon({{accounting::RdpEvent::poisson_subsampled(e, q), rounds}}, delta).value.value;
}

TEST(FederatedAccounting, CalibratedRunMeetsTheTargetAndTheValueBelowMisses) {
  const mpq_class target(1), delta(1, 100'000), q(1, 100);
  operations::CalibrateRunRequest r{"skellam", target, delta, 1000, q, mpz_class(100), {{"sensitivity", "10"}}};
  const operations::CalibrateRunReport s = operations::calibrate_run(r);
  EXPECT_EQ(s.parameter, "mu");
  EXPECT_TRUE(upper_at_most(s.epsilon_at, target));
  ASSERT_TRUE(s.epsilon_below.has_value());
  EXPECT_TRUE(lower_above(*s.epsilon_below, target));
  EXPECT_LT(s.value_below, s.value);
  EXPECT_LE(s.value - s.value_below, s.value / 100);  // within 1 %: 3 digits and the 2^-12 search
  ASSERT_TRUE(s.per_client.has_value());
  EXPECT_EQ(*s.per_client * 100, s.value);  // Sk(n mu) is n clients' Sk(mu)
  EXPECT_TRUE(upper_at_most(run_epsilon("skellam", {{"mu", s.value.get_str()}, {"sensitivity", "10"}}, q, 1000, delta),
                            target));

  r.law = "distributed-discrete-gaussian";
  r.parameters = {{"sensitivity", "10"}, {"dropout", "1/10"}};
  const operations::CalibrateRunReport d = operations::calibrate_run(r);
  EXPECT_EQ(d.parameter, "sigma2");
  EXPECT_FALSE(d.per_client.has_value());  // sigma2 is already each client's
  EXPECT_NE(d.event.find("survivors=90"), std::string::npos) << d.event;
  EXPECT_TRUE(upper_at_most(d.epsilon_at, target));
  ASSERT_TRUE(d.epsilon_below.has_value());
  EXPECT_TRUE(lower_above(*d.epsilon_below, target));
  const Interval again = run_epsilon("distributed-discrete-gaussian",
                                     {{"sigma2", d.value.get_str()}, {"clients", "100"}, {"dropout", "1/10"},
                                      {"sensitivity", "10"}},
                                     q, 1000, delta);
  EXPECT_TRUE(upper_at_most(again, target)) << again.debug_string();
}

// A vector query (l1, dim): the calibrated mu meets the target on the vector event, and a larger
// L1 needs more noise than the scalar query of the same L2.
TEST(FederatedAccounting, CalibratedSkellamRunForAVectorQuery) {
  const mpq_class target(1), delta(1, 100'000), q(1, 100);
  operations::CalibrateRunRequest r{"skellam", target, delta, 100, q, mpz_class(100),
                                    {{"sensitivity", "10"}, {"l1", "30"}, {"dim", "1000"}}};
  const operations::CalibrateRunReport v = operations::calibrate_run(r);
  EXPECT_NE(v.event.find("l1=30, dim=1000"), std::string::npos) << v.event;
  const Interval at = run_epsilon("skellam", {{"mu", v.value.get_str()}, {"sensitivity", "10"}, {"l1", "30"}, {"dim", "1000"}},
                                  q, 100, delta);
  EXPECT_TRUE(upper_at_most(at, target)) << at.debug_string();
  ASSERT_TRUE(v.epsilon_below.has_value());
  EXPECT_TRUE(lower_above(*v.epsilon_below, target));
  r.parameters = {{"sensitivity", "10"}};
  EXPECT_LT(operations::calibrate_run(r).value, v.value);
}

void expect_refused_naming(operations::CalibrateRunRequest r, const std::string& name) {
  try {
    (void)operations::calibrate_run(r);
    ADD_FAILURE() << name << " accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), name) << e.what();
  }
}

TEST(FederatedAccounting, BadRunInputIsRefusedNamingTheParameter) {
  const operations::CalibrateRunRequest good{"skellam", 1, mpq_class(1, 100'000), 10, mpq_class(1, 10), {}, {}};
  auto with = [&](auto change) {
    operations::CalibrateRunRequest r = good;
    change(r);
    return r;
  };
  expect_refused_naming(with([](auto& r) { r.law = "gaussian"; }), "law");  // has its own calibration
  expect_refused_naming(with([](auto& r) { r.law = "gdp"; }), "law");       // not a noise law
  expect_refused_naming(with([](auto& r) { r.law = "staircase"; }), "law");  // gamma is no scale
  expect_refused_naming(with([](auto& r) {  // no rdp bound when subsampled (and sigma = 10^15 refused)
                          r.law = "vector-discrete-laplace";
                          r.parameters = {{"sensitivity", "1"}, {"dim", "10"}, {"granularity", "1/1024"}};
                        }),
                        "law");
  expect_refused_naming(with([](auto& r) { r.epsilon = 0; }), "epsilon");
  expect_refused_naming(with([](auto& r) { r.delta = 1; }), "delta");
  expect_refused_naming(with([](auto& r) { r.rounds = 0; }), "rounds");
  expect_refused_naming(with([](auto& r) { r.q = 0; }), "q");
  expect_refused_naming(with([](auto& r) { r.q = mpq_class(3, 2); }), "q");
  expect_refused_naming(with([](auto& r) { r.clients = mpz_class(0); }), "clients");
  expect_refused_naming(with([](auto& r) { r.parameters = {{"sensitivity", "0"}}; }), "sensitivity");
  expect_refused_naming(with([](auto& r) {
                          r.law = "distributed-discrete-gaussian";
                          r.clients = mpz_class(10);
                          r.parameters = {{"dim", "0"}};
                        }),
                        "dim");
}

}  // namespace federated_accounting_test
}  // namespace
}  // namespace exactdp::laws
