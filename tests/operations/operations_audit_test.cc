// The operations audit and audit-timing (operations/audit.h, operations/audit_timing.h) called
// directly: every check and the draws' cost limit run before a bit is drawn or a sample read,
// named as the face spells the parameter; the audit of drawn samples passes for a correct
// sampler. tests/operations/test_faces.py runs the over-limit requests through the command line
// and Python.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/operations/audit.h>
#include <exactdp/operations/audit_timing.h>
#include <exactdp/operations/draw_cost.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/operations/thrown.h"
#include "tests/support/seeds.h"

namespace exactdp::operations {
namespace {
namespace operations_audit_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr unsigned kSuite = 9403;

TEST(OperationsAudit, DrawsAndAuditsTheLawsOwnSampler) {
  AuditRequest r{.law = "discrete-laplace", .parameters = {{"scale", "3"}}, .samples = "2000", .alpha = "1/1000"};
  const AuditPlan plan = plan_audit(r);
  EXPECT_EQ(plan.draws, 2000u);
  EXPECT_EQ(plan.alpha, mpq_class(1, 1000));
  verification::SampleCounter counter = audit_counter(plan);
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  unsigned long long seen = 0;
  draw_audit_samples(plan, bits, counter, [&](unsigned long long drawn) { seen = drawn; });
  EXPECT_EQ(seen, 2000u);
  const verification::AuditReport report = run_audit(plan, counter);
  EXPECT_EQ(report.n, 2000u);
  EXPECT_TRUE(report.passed);
}

TEST(OperationsAudit, ChecksRunBeforeAnyDraw) {
  AuditRequest r{.law = "discrete-gaussian", .parameters = {{"sigma2", "1"}}, .samples = "0"};
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_audit(r); }).what(),
               "samples = 0 is out of range: allowed 1 <= samples <= 10000000000");
  r.samples = "10";
  r.alpha = "1";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_audit(r); }).parameter(), "alpha");
  r.alpha.reset();
  r.parameters = {{"sigma2", "1e100000"}};
  r.samples = "100000";
  const auto limit = thrown<LimitError>([&] { (void)plan_audit(r); });
  EXPECT_EQ(limit.parameter(), "samples");
  r.parameters = {};
  r.spelling = kPythonSpelling;
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_audit(r); }).what(), "missing required argument sigma2");
  const AuditPlan external = plan_audit({.law = "bernoulli-exp", .parameters = {{"gamma", "1"}}});
  EXPECT_EQ(external.draws, 0u);
  EXPECT_EQ(thrown<ParameterError>([&] { (void)run_audit(external, audit_counter(external)); }).parameter(),
            "samples");
}

// A distributed discrete Gaussian sample is one discrete Gaussian per surviving client: the cost
// limit charges samples * survivors draws (0.035 us each at small sigma2: 1.14*10^8 draws in 4 s).
TEST(OperationsAudit, ChargesEverySurvivorsDraw) {
  AuditRequest r{.law = "distributed-discrete-gaussian",
                 .parameters = {{"sigma2", "1/4"}, {"clients", "1000"}},
                 .samples = "1000000"};
  const auto limit = thrown<LimitError>([&] { (void)plan_audit(r); });
  EXPECT_EQ(limit.parameter(), "samples");
  EXPECT_TRUE(message_contains(limit, "samples = 1000000 is over the cost limit of distributed-discrete-gaussian: "
                                      "a sample is 1000 draws"));
  EXPECT_TRUE(message_contains(limit, "allowed at most 114285 samples"));
  r.samples = "114285";
  EXPECT_EQ(plan_audit(r).draws, 114285u);
  r.samples = "114286";
  EXPECT_EQ(thrown<LimitError>([&] { (void)plan_audit(r); }).parameter(), "samples");
  // Dropouts leave fewer draws: 500 survivors of 1000.
  r.parameters.emplace_back("dropout", "1/2");
  EXPECT_EQ(plan_audit(r).draws, 114286u);
  // A one-draw law keeps the count limit alone below 1,000 digits.
  const AuditRequest gaussian{.law = "discrete-gaussian", .parameters = {{"sigma2", "9/4"}}, .samples = "10000000000"};
  EXPECT_EQ(plan_audit(gaussian).draws, 10'000'000'000ULL);
}

// The draws' cost is the law's own (Law::draw_costs): the discrete Gaussian's about 3.5 us a draw
// at sigma2 = 10^1000 and 160 us at 10^10000 (the law-independent model said 70 us and 350 us).
// The most draws within 4 s are accepted, one more is refused naming the option, for audit's
// samples and audit-timing's calls (plus their warm-up calls).
TEST(OperationsAudit, HugeDiscreteGaussianIsChargedItsOwnDrawCost) {
  struct Case {
    const char* sigma2;
    unsigned long long most;
  };
  for (const Case& c : {Case{"1e1000", 1'139'072}, Case{"1e10000", 24'992}}) {
    SCOPED_TRACE(c.sigma2);
    AuditRequest r{.law = "discrete-gaussian", .parameters = {{"sigma2", c.sigma2}}, .samples = std::to_string(c.most)};
    EXPECT_EQ(plan_audit(r).draws, c.most);
    r.samples = std::to_string(c.most + 1);
    const auto e = thrown<LimitError>([&] { (void)plan_audit(r); });
    EXPECT_EQ(e.parameter(), "samples");
    EXPECT_TRUE(message_contains(e, "is over the cost limit of discrete-gaussian at parameters of "));
    EXPECT_TRUE(message_contains(e, "allowed at most " + std::to_string(c.most) + " draws"));
    const unsigned long long calls = c.most - verification::kTimingWarmupCalls;
    AuditTimingRequest t{.law = "discrete-gaussian", .parameters = {{"sigma2", c.sigma2}}, .calls = std::to_string(calls)};
    EXPECT_EQ(plan_audit_timing(t).options.calls, calls);
    t.calls = std::to_string(calls + 1);
    EXPECT_EQ(thrown<LimitError>([&] { (void)plan_audit_timing(t); }).parameter(), "calls");
  }
  EXPECT_STREQ(thrown<LimitError>([&] {
                 (void)plan_audit({.law = "discrete-gaussian", .parameters = {{"sigma2", "1e10000"}}, .samples = "24993"});
               }).what(),
               "samples = 24993 is over the cost limit of discrete-gaussian at parameters of 10002 digits (sigma2 "
               "10001): allowed at most 24992 draws (each takes about 160 us)");
}

// From 20,000 digits the audit's reference law and report are charged with the draws
// (draw_cost.h): about 1.1 s at 10^5 digits, so sigma2 = 10^99999 (6.2 ms a draw) allows
// (4 s - 1.1 s) / 6.2 ms = 467 samples, not 4 s / 6.2 ms = 645; below 20,000 digits nothing is charged
// (sigma2 = 10^10000 above keeps its 24,992).
TEST(OperationsAudit, ReferenceLawIsChargedWithTheDraws) {
  EXPECT_EQ(estimated_audit_reference_seconds(19'999), 0);
  EXPECT_DOUBLE_EQ(estimated_audit_reference_seconds(20'000), 0.25);
  EXPECT_NEAR(estimated_audit_reference_seconds(100'000), 1.1, 1e-12);
  AuditRequest r{.law = "discrete-gaussian", .parameters = {{"sigma2", "1e99999"}}, .samples = "467"};
  EXPECT_EQ(plan_audit(r).draws, 467u);
  r.samples = "468";
  EXPECT_STREQ(thrown<LimitError>([&] { (void)plan_audit(r); }).what(),
               "samples = 468 is over the cost limit of discrete-gaussian at parameters of 100001 digits (sigma2 "
               "100000): allowed at most 467 draws (each takes about 6200 us, after about 1.1 s for the audit's "
               "reference law)");
  // The same law sampled (no reference law) keeps the whole budget.
  const SamplePlan sample = plan_sample({.law = "discrete-gaussian", .parameters = {{"sigma2", "1e99999"}}});
  EXPECT_NO_THROW(check_sample_cost(*sample.law, sample.params, 645, "n", false));
  EXPECT_THROW(check_sample_cost(*sample.law, sample.params, 646, "n", false), LimitError);
}

// Skellam's draws are its own measured cost (1.85 us, the envelope route's, at any digits of mu),
// not the law-independent model's 70 us at 1,000 digits: a mu of 1,000 digits allows
// 4 s / 1.85 us = 2,162,162 samples (was 57,142); at 10^5 digits the reference law's 1 s comes
// first: 2.9 s / 1.85 us = 1,567,551.
TEST(OperationsAudit, SkellamIsChargedItsOwnDrawCost) {
  struct Case {
    std::string mu;
    unsigned long long most;
  };
  for (const Case& c : {Case{"12." + std::string(498, '9'), 2'162'162}, Case{"1e-99999", 1'567'551}}) {
    SCOPED_TRACE(c.mu.size());
    AuditRequest r{.law = "skellam", .parameters = {{"mu", c.mu}}, .samples = std::to_string(c.most)};
    EXPECT_EQ(plan_audit(r).draws, c.most);
    r.samples = std::to_string(c.most + 1);
    const auto e = thrown<LimitError>([&] { (void)plan_audit(r); });
    EXPECT_EQ(e.parameter(), "samples");
    EXPECT_TRUE(message_contains(e, "is over the cost limit of skellam at parameters of "));
    EXPECT_TRUE(message_contains(e, "allowed at most " + std::to_string(c.most) + " draws (each takes about 1.9 us"));
  }
}

TEST(OperationsAuditTiming, ChecksRunBeforeAnyCall) {
  // A law without a timing unit is refused before its parameters are read.
  AuditTimingRequest r{.law = "bernoulli-exp", .parameters = {{"gamma", "-1"}}};
  const auto law = thrown<ParameterError>([&] { (void)plan_audit_timing(r); });
  EXPECT_EQ(law.parameter(), "law");
  EXPECT_NE(std::string(law.what()).find("audit-timing applies to "), std::string::npos);
  r = {.law = "discrete-laplace", .parameters = {{"scale", "2"}}, .calls = "999"};
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_audit_timing(r); }).what(),
               "calls = 999 is out of range: allowed 1000 <= calls <= 1000000000");
  r.parameters = {{"scale", "1e100000"}};
  r.calls = "100000";
  EXPECT_EQ(thrown<LimitError>([&] { (void)plan_audit_timing(r); }).parameter(), "calls");
  r.parameters = {{"scale", "2"}};
  r.calls = "1000";
  const AuditTimingPlan plan = plan_audit_timing(r);
  EXPECT_EQ(plan.options.calls, 1000u);
  EXPECT_EQ(plan.warmup, 1000u);
  EXPECT_EQ(plan.unit.square, 4);
  SeededBits bits(test_support::fixed_seed(kSuite, 2));
  const verification::TimingAuditReport report = run_audit_timing(plan, bits);
  EXPECT_EQ(report.calls, 1000u);
}

}  // namespace operations_audit_test
}  // namespace
}  // namespace exactdp::operations
