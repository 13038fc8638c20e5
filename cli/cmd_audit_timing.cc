// exactdp audit-timing — does a sampler's running time or bit use reveal its noise? The dudect
// timing-leak test of verification/timing_audit.h on the plain or the hardened sampler:
//   exactdp audit-timing <law> <parameters> [--hardened [--tau-bits B]] [--calls N] [--seed HEX]
//                        [--json]
// Exit status: 0 holds (every |t| < 5), 3 leak or inconclusive, 2 bad usage or parameter,
// 1 internal error. docs/TIMING_AUDIT.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/sampler_spec.h"
#include "cli/seed_option.h"
#include <exactdp/core/rational.h>
#include <exactdp/operations/audit_timing.h>
#include <exactdp/verification/timing_audit.h>

namespace exactdp::cli {
namespace {

using verification::TimingAuditReport;
using verification::WelchTest;

const std::string kHelp = std::string(
    "usage:\n"
    "  exactdp audit-timing discrete-gaussian --sigma2 R [--mean INT] [--hardened [--tau-bits B]]\n"
    "                       [--calls N] [--seed HEX] [--json]\n"
    "  exactdp audit-timing discrete-laplace  --scale R  [--mean INT] [--hardened [--tau-bits B]]\n"
    "                       [--calls N] [--seed HEX] [--json]\n"
    "  (--seed HEX may be replaced by --seed-file FILE; --allow-weak-seed: see below)\n"
    "\n"
    "Times N calls of the sampler (the plain one, or the isochronous one with --hardened) and tests\n"
    "whether the time of a call, or the number of random bits it reads, depends on its output\n"
    "(dudect: Reparaz, Balasch, Verbauwhede 2017). Per call: cycles (rdtsc with lfence on x86-64,\n"
    "else clock_gettime nanoseconds) and bits drawn, after 10^4 warm-up calls. Classes from the\n"
    "output x: A = |x - mean| < sigma, B = |x - mean| >= 2 sigma, with sigma = sqrt(sigma2) for the\n"
    "discrete Gaussian and sigma = scale for the discrete Laplace; and by bits drawn: at most the\n"
    "median vs above it. The slowest 5 % of all calls are cropped. Welch's t of: time A vs B, time\n"
    "by bit class, bits drawn A vs B. A sampler that reads the same number of bits on every call\n"
    "reports 'constant, N bits' for the last two.\n"
    "Verdict: every |t| < 5 holds (false alarm under the null 5.7e-7 per test, 1.7e-6 for all\n"
    "three); any |t| >= 5 is a leak.\n"
    "--calls N   timed calls, 1000 <= N <= 1000000000 (default 1000000). Cost limit: with\n"
    "            parameters of 1,000 digits or more, N plus the warm-up calls is refused up\n"
    "            front when estimated over 4 s (sigma2 = 1e100000: 153 draws).\n"
    ) + kSeedOptionsHelp + std::string(
    "--hardened, --tau-bits B, --mean INT: as for exactdp sample.\n"
    "--json prints one JSON object (numbers as decimal strings).\n"
    "Exit status: 0 holds, 3 leak (or inconclusive: a class had fewer than 2 calls), 2 bad usage or\n"
    "parameter, 1 internal error. The result depends on the machine and its load; see\n"
    "docs/TIMING_AUDIT.md.\n");

using operations::timing_law_list;

std::string fixed(double x, int decimals) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (std::isnan(x)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string verdict_of(const TimingAuditReport& r) {
  if (r.leak) return "leak";
  return r.conclusive ? "holds" : "inconclusive";
}

std::string test_verdict(const WelchTest& w) {
  if (!w.applicable) return "not run";
  return w.leak ? "LEAK" : "holds";
}

void print_text(const laws::Sampler& sampler, const TimingAuditReport& r, const std::string& sigma, std::ostream& out) {
  out << "exactdp audit-timing: " << sampler.describe() << "\n"
      << "clock: " << r.clock << "; " << r.calls << " timed calls after " << r.warmup << " warm-up calls\n"
      << "classes by the output: A |x - mean| < sigma, B |x - mean| >= 2 sigma, sigma = " << sigma << "\n"
      << "time tests keep calls of at most " << r.crop_time << " " << (r.clock.find("cycles") != std::string::npos ? "cycles" : "ns")
      << " (95th percentile of the first " << r.pilot << " calls)\n"
      << "bits drawn per call: min " << r.bits_min << ", median " << r.bits_median << ", max " << r.bits_max
      << "\n\n";
  for (const WelchTest* w : {&r.time_by_output, &r.time_by_bits, &r.bits_by_output}) {
    if (w->constant) {
      out << "  " << w->name << ": " << w->detail << " -> holds\n";
      continue;
    }
    if (!w->applicable) {
      out << "  " << w->name << ": not run (A: " << w->n_a << " calls, B: " << w->n_b
          << " calls; a class has fewer than 2)\n";
      continue;
    }
    out << "  " << w->name << ": t = " << fixed(w->t, 2) << " -> " << test_verdict(*w) << "\n"
        << "      A (" << w->class_a << "): " << w->n_a << " calls, mean " << fixed(w->mean_a, 2) << " " << w->unit
        << "\n"
        << "      B (" << w->class_b << "): " << w->n_b << " calls, mean " << fixed(w->mean_b, 2) << " " << w->unit
        << "\n";
  }
  out << "\nthreshold |t| < 5; false alarm under the null: 5.7e-7 per test, at most 1.7e-6 for all three\n"
      << "verdict: " << (r.leak ? "LEAK" : r.conclusive ? "HOLDS" : "INCONCLUSIVE") << "\n";
}

JsonValue test_json(const WelchTest& w) {
  JsonValue j = JsonValue::object();
  j.set("name", w.name).set("class_a", w.class_a).set("class_b", w.class_b).set("unit", w.unit);
  j.set("constant", w.constant).set("applicable", w.applicable);
  if (!w.constant) {
    j.set("t", fixed(w.t, 4)).set("n_a", std::to_string(w.n_a)).set("n_b", std::to_string(w.n_b));
    j.set("mean_a", fixed(w.mean_a, 4)).set("mean_b", fixed(w.mean_b, 4));
  }
  j.set("detail", w.detail).set("leak", w.leak);
  return j;
}

void print_json(const laws::Sampler& sampler, const TimingAuditReport& r, const std::string& sigma, std::ostream& out) {
  JsonValue j = JsonValue::object();
  j.set("command", "audit-timing").set("law", sampler.describe()).set("hardened", sampler.hardened());
  j.set("clock", r.clock).set("calls", std::to_string(r.calls)).set("warmup", std::to_string(r.warmup));
  j.set("sigma", sigma).set("crop_time", std::to_string(r.crop_time));
  JsonValue bits = JsonValue::object();
  bits.set("min", std::to_string(r.bits_min)).set("median", std::to_string(r.bits_median));
  bits.set("max", std::to_string(r.bits_max));
  j.set("bits_per_call", std::move(bits));
  JsonValue tests = JsonValue::array();
  for (const WelchTest* w : {&r.time_by_output, &r.time_by_bits, &r.bits_by_output}) tests.push(test_json(*w));
  j.set("tests", std::move(tests));
  j.set("threshold", "5").set("false_alarm_per_test", "5.733e-7").set("verdict", verdict_of(r));
  out << j.dump() << "\n";
}

}  // namespace

int cmd_audit_timing(Args args, Io& io) {
  std::vector<OptionSpec> specs = law_option_specs();
  for (const auto& s : std::vector<OptionSpec>{{"--calls", true}, {"--json", false}}) {
    specs.push_back(s);
  }
  for (const auto& s : seed_option_specs()) specs.push_back(s);
  for (const auto& s : help_option_specs()) specs.push_back(s);
  const ParsedArgs parsed(args, specs);
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  if (parsed.positionals().size() != 1) {
    throw UsageError("audit-timing needs one law: " + timing_law_list() + " (see --help)");
  }
  // Validate everything before drawing a bit (operations/audit_timing.h).
  operations::AuditTimingRequest request;
  request.law = parsed.positionals()[0];
  request.parameters = sampler_parameters(parsed);
  request.hardened = parsed.has("--hardened");
  request.tau_bits = parsed.get("--tau-bits");
  request.calls = parsed.get("--calls");
  const operations::AuditTimingPlan plan = operations::plan_audit_timing(request);
  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);
  const TimingAuditReport report = operations::run_audit_timing(plan, *bits);
  const laws::Sampler& sampler = *plan.sample.sampler;
  const std::string& sigma = plan.unit.text;
  if (parsed.has("--json")) {
    print_json(sampler, report, sigma, io.out);
  } else {
    print_text(sampler, report, sigma, io.out);
  }
  return (report.leak || !report.conclusive) ? 3 : 0;
}

}  // namespace exactdp::cli
