// audit_timing.h — the operation `audit-timing`: does a sampler's running time or bit use reveal
// its noise? The dudect timing-leak test (verification/timing_audit.h) on the plain or the
// hardened sampler of a law with a timing unit. The command line (cli/cmd_audit_timing.cc)
// builds an AuditTimingRequest; plan_audit_timing runs every check and the draws' cost limit
// before a bit is drawn; run_audit_timing times the calls and gives the report it prints.
//
// Example:
//   const AuditTimingPlan plan = plan_audit_timing({.law = "discrete-laplace", .parameters = {{"scale", "2"}}});
//   const verification::TimingAuditReport report = run_audit_timing(plan, bits);
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>

#include <exactdp/operations/mechanisms.h>
#include <exactdp/operations/sample.h>
#include <exactdp/verification/timing_audit.h>

namespace exactdp::operations {

struct AuditTimingRequest {
  std::string law{};
  GivenParameters parameters{};          // the law's noise and sampling parameters, exact texts
  bool hardened = false;                 // time the hardened (isochronous) sampler
  std::optional<std::string> tau_bits{};
  std::optional<std::string> calls{};    // timed calls, 1000..10^9 (default 10^6)
  Spelling spelling = kCommandLineSpelling;
};

struct AuditTimingPlan {
  SamplePlan sample;
  verification::TimingAuditOptions options;
  unsigned long long warmup = 0;  // untimed calls before the timed ones
  laws::TimingUnit unit;          // the class unit sigma, by its exact square
  mpz_class mean;                 // the law's centre
};

// The laws audit-timing applies to, "a and b".
[[nodiscard]] std::string timing_law_list();

// Checks, in this order: a known law has a timing unit (UnsupportedError naming law), the law and
// its parameters (plan_sample), calls (1000..10^9) and the cost of calls + warm-up draws
// (operations/draw_cost.h: LimitError naming calls).
[[nodiscard]] AuditTimingPlan plan_audit_timing(const AuditTimingRequest& request);

// The timing audit of the plan's sampler: the plain one through its GMP output (its class
// computed after the clock stopped), the hardened one through exactly its isochronous call.
[[nodiscard]] verification::TimingAuditReport run_audit_timing(const AuditTimingPlan& plan, BitSource& bits);

}  // namespace exactdp::operations
