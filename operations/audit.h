// audit.h — the operation `audit`: a goodness-of-fit audit with certified p-values
// (verification/audit.h) of samples of a registry law, against its exact reference law: samples
// drawn here from the law's own sampler (the command line's --samples N) or given by the caller
// (the command line's --expect, Python's exactdp.audit). The command line (cli/cmd_audit.cc) and
// Python (python/src/audit.cc) build an AuditRequest; plan_audit runs every check and the cost
// limit before a bit is drawn or a sample read; run_audit gives the report every face prints.
//
// Example:
//   AuditRequest r{.law = "discrete-laplace", .parameters = {{"scale", "3"}}, .samples = "2000"};
//   const AuditPlan plan = plan_audit(r);
//   verification::SampleCounter counter = audit_counter(plan);
//   draw_audit_samples(plan, bits, counter);
//   const verification::AuditReport report = run_audit(plan, counter);
#pragma once

#include <gmpxx.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <exactdp/operations/mechanisms.h>
#include <exactdp/operations/sample.h>
#include <exactdp/verification/audit.h>

namespace exactdp::operations {

struct AuditRequest {
  std::string law{};
  GivenParameters parameters{};            // the law's noise and sampling parameters, exact texts
  bool hardened = false;                   // draw from the hardened sampler (with samples)
  std::optional<std::string> tau_bits{};
  std::optional<std::string> samples{};    // draws to make, 1..10^10; none: the caller's samples
  std::optional<std::string> alpha{};      // the overall level, 0 < alpha < 1 (default 10^-6)
  Spelling spelling = kCommandLineSpelling;
};

struct AuditPlan {
  SamplePlan sample;                                         // the law, its parameters and sampler
  std::shared_ptr<const verification::ReferenceLaw> reference;
  mpq_class alpha{1, 1'000'000};
  unsigned long long draws = 0;  // 0: the samples come from the caller
};

// Checks, in this order: the law and its parameters (plan_sample), the law's reference law
// (ParameterError naming law when it has none), alpha, then with samples their count
// (1..10^10, named samples) and the draws' cost, samples times the law's draws per sample, after
// the reference law's own from 20,000 digits (operations/draw_cost.h: LimitError naming samples).
[[nodiscard]] AuditPlan plan_audit(const AuditRequest& request);

// The counter of the plan's reference law (verification::make_audit_counter).
[[nodiscard]] verification::SampleCounter audit_counter(const AuditPlan& plan);

// Draws plan.draws samples of the plan's sampler into counter; on_draw (if set) is called after
// each draw with the number drawn so far (for progress).
void draw_audit_samples(const AuditPlan& plan, BitSource& bits, verification::SampleCounter& counter,
                        const std::function<void(unsigned long long)>& on_draw = {});

// The audit of the counted samples at the plan's alpha; ParameterError naming samples when none
// were counted.
[[nodiscard]] verification::AuditReport run_audit(const AuditPlan& plan, const verification::SampleCounter& counter);

}  // namespace exactdp::operations
