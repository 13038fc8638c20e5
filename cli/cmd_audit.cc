// exactdp audit — goodness-of-fit audit with certified p-values (verification/audit.h):
//   exactdp audit <law> <params> --samples N [--seed HEX]      audits our own sampler
//   exactdp audit --expect <law> <params> [FILE]               audits anyone's samples, one
//                                                              integer per line, FILE or stdin
// Options: --alpha R (overall level, default 1e-6), --json, --digits D.
// Exit status: 0 pass, 3 fail, 2 bad usage, bad parameter or malformed input (the message names
// the line), 1 internal error. Streaming: memory does not grow with the number of samples.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include <exactdp/core/decimal.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/sampler_spec.h"
#include "cli/seed_option.h"
#include "cli/text_json_report.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/audit.h>
#include <exactdp/verification/audit.h>
#include <exactdp/verification/sample_reader.h>

namespace exactdp::cli {
namespace {

using verification::AuditReport;
using verification::TestResult;

constexpr int kMaxDigits = 1000;

const std::string kHelp = std::string(
    "usage:\n"
    "  exactdp audit <law> <parameters> --samples N [--seed HEX | --seed-file FILE]\n"
    "                [--allow-weak-seed] [--alpha R] [--json]\n"
    "  exactdp audit --expect <law> <parameters> [FILE] [--alpha R] [--json]\n"
    "\n"
    "laws and parameters (as for exactdp sample):\n"
    "  discrete-gaussian --sigma2 R [--mean INT]\n"
    "  discrete-laplace  --scale R  [--mean INT]\n"
    "  bernoulli-exp     --gamma R\n"
    "\n"
    "The first form draws N samples (1 <= N <= 10000000000) from exactdp's own sampler (the OS\n"
    "CSPRNG, or the keyed stream with --seed or --seed-file) and audits them. The second reads\n"
    "samples produced by anything else, one integer per line (any size; surrounding blanks\n"
    "allowed), from FILE or standard input ('-'), streaming, and audits them against the law.\n"
    "Cost limit: with parameters of 1,000 digits or more (sigma2 = 1e100000), N is refused up\n"
    "front when the draws (each law has its own cost) and, from 20,000 digits, the reference law\n"
    "are estimated over 4 s (discrete-gaussian at 1e100000: 467 draws; at 1e10000: 24,992).\n"
    "\n"
    "Tests: Pearson chi-square and G-test (bins with expected count >= 5, pooled tails; p-values\n"
    "from the incomplete gamma function), KS with the DKW bound, exact binomial tests of the tail\n"
    "masses P[|X - mean| > 2s], P[|X - mean| > 3s] and of P[X - mean even], mean and variance\n"
    "z-tests (Bernoulli: exact\n"
    "binomial test, support, chi-square, G). p-values are certified intervals; a test rejects only\n"
    "if the upper end is below its Holm-Bonferroni threshold at overall level alpha\n"
    "(--alpha R, 0 < R < 1, default 1e-6).\n"
    "--json prints one JSON object; --digits D (1..1000) sets significant digits, rounded outward\n"
    "(default 20).\n"
    "Exit status: 0 pass, 3 fail, 2 bad usage, parameter or malformed input, 1 internal error.\n"
    "See docs/AUDIT.md.\n") + kSeedOptionsHelp;

// An interval as text: one exact integer when both ends are the same integer (counts).
std::string interval_text(const exactdp::Interval& b, int digits) {
  if (mpfr_equal_p(b.lower(), b.upper()) && mpfr_integer_p(b.lower()) && mpfr_cmpabs_ui(b.lower(), 1UL << 62) < 0) {
    return std::to_string(mpfr_get_si(b.lower(), MPFR_RNDD));  // exact: an integer below 2^62
  }
  return exactdp::to_decimal_string(b, digits);
}

JsonValue test_json(const TestResult& t, int digits) {
  JsonValue out = JsonValue::object();
  out.set("name", t.name)
      .set("statistic_name", t.statistic_name)
      .set_interval("statistic", t.statistic, digits)
      .set_interval("p_value", t.p_value, digits)
      .set("threshold", t.threshold.get_str())
      .set("applicable", t.applicable)
      .set("asymptotic", t.asymptotic)
      .set("rejected", t.rejected)
      .set("detail", t.detail);
  return out;
}

// The text lines of one test.
void add_test_lines(const TestResult& t, int digits, std::vector<std::string>& lines) {
  const std::string stat = interval_text(t.statistic, digits);
  lines.push_back("  " + t.name + ": " + t.statistic_name + (stat.front() == '[' ? " in " : " = ") + stat);
  if (!t.applicable) {
    lines.push_back("      not run: " + t.detail);
    return;
  }
  lines.push_back("      p-value in " + exactdp::to_decimal_string(t.p_value, digits) + ", threshold " +
                  t.threshold.get_str() + " -> " + (t.rejected ? "REJECT" : "pass") +
                  (t.asymptotic ? " (asymptotic p-value)" : ""));
  lines.push_back("      " + t.detail);
}

TextJsonReport audit_report(const AuditReport& r, int digits) {
  TextJsonReport out;
  std::size_t applicable = 0;
  for (const auto& t : r.tests) applicable += t.applicable ? 1 : 0;
  out.json.set("law", r.law).set("n", std::to_string(r.n)).set("alpha", r.alpha.get_str());
  out.json.set("verdict", r.passed ? "pass" : "fail");
  JsonValue tests = JsonValue::array();
  for (const auto& t : r.tests) tests.push(test_json(t, digits));
  out.json.set("tests", std::move(tests));
  out.lines = {"exactdp audit: " + r.law,
               "samples: " + std::to_string(r.n) + ", overall alpha = " + r.alpha.get_str() +
                   " (Holm-Bonferroni over " + std::to_string(applicable) +
                   " tests; a test rejects when its p-value upper bound",
               "is below its threshold)", ""};
  for (const auto& t : r.tests) add_test_lines(t, digits, out.lines);
  out.lines.push_back("");
  out.lines.push_back(std::string("verdict: ") + (r.passed ? "PASS" : "FAIL"));
  return out;
}

// Reads the sample file (FILE, or standard input for none or "-") into counter, with a progress
// line on a terminal.
void read_sample_file(const std::optional<std::string>& file, verification::SampleCounter& counter, Io& io) {
  bool progress_shown = false;
  const verification::SampleProgress progress = [&](unsigned long long lines) {
    if (!io.err_is_terminal) return;
    io.err << "\rexactdp audit: " << lines << " samples read" << std::flush;
    progress_shown = true;
  };
  if (!file || *file == "-") {
    verification::read_samples(io.in, "standard input", counter, progress);
  } else {
    std::ifstream in(*file, std::ios::binary);
    if (!in) throw UsageError("cannot open FILE '" + abbreviate(*file) + "'");
    verification::read_samples(in, "'" + abbreviate(*file) + "'", counter, progress);
  }
  if (progress_shown) io.err << "\n";
}

}  // namespace

int cmd_audit(Args args, Io& io) {
  std::vector<OptionSpec> specs = law_option_specs();
  for (const auto& s : std::vector<OptionSpec>{{"--samples", true}, {"--expect", true},
                                               {"--alpha", true}}) {
    specs.push_back(s);
  }
  for (const auto& s : seed_option_specs()) specs.push_back(s);
  const ParsedArgs parsed(args, with_report_options(specs));
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  const bool external = parsed.has("--expect");
  std::string law_name;
  std::optional<std::string> file;
  if (external) {
    law_name = *parsed.get("--expect");
    if (parsed.positionals().size() > 1) throw UsageError("audit --expect takes at most one FILE (see --help)");
    if (!parsed.positionals().empty()) file = parsed.positionals()[0];
    if (parsed.has("--samples") || has_seed_option(parsed)) {
      throw UsageError("--samples, --seed and --seed-file apply to auditing our own sampler, not to --expect (see --help)");
    }
  } else {
    if (parsed.positionals().size() != 1) {
      throw UsageError("audit needs one law (discrete-gaussian, discrete-laplace, bernoulli-exp) or --expect LAW (see --help)");
    }
    law_name = parsed.positionals()[0];
    if (!parsed.has("--samples")) throw UsageError("missing required option --samples N (or use --expect LAW FILE)");
  }
  // Validate everything before drawing a bit or reading a line (operations/audit.h).
  operations::AuditRequest request;
  request.law = law_name;
  request.parameters = sampler_parameters(parsed);
  request.hardened = parsed.has("--hardened");
  request.tau_bits = parsed.get("--tau-bits");
  request.alpha = parsed.get("--alpha");
  if (!external) request.samples = parsed.get("--samples");
  const operations::AuditPlan plan = operations::plan_audit(request);
  const int digits = digits_option(parsed, kMaxDigits);
  verification::SampleCounter counter = operations::audit_counter(plan);

  if (external) {
    try {
      read_sample_file(file, counter, io);
    } catch (const verification::SampleInputError& e) {
      io.err << "exactdp audit: " << (file && *file != "-" ? abbreviate(*file) + ": " : std::string()) << e.what()
             << "\n";
      return 2;
    }
  } else {
    const unsigned long long n = plan.draws;
    const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);
    const unsigned long long step = n >= 100 ? n / 100 : 1;
    const bool progress = io.err_is_terminal && n >= 1'000'000;
    operations::draw_audit_samples(plan, *bits, counter, [&](unsigned long long drawn) {
      if (progress && drawn % step == 0) io.err << "\rexactdp audit: sampling " << drawn / step << "%" << std::flush;
    });
    if (progress) io.err << "\n";
  }
  const AuditReport report = operations::run_audit(plan, counter);
  TextJsonReport out = audit_report(report, digits);
  if (plan.sample.sampler->hardened()) {
    // The draws came from the hardened sampler; the reference is the exact law, which the
    // hardened law is within tau (<= 2^-40) of: far below what any sample size here can see.
    const std::string sampler = "hardened, tau_upper = " +
                                exactdp::decimal_upper(exactdp::Interval(plan.sample.sampler->tau_upper(), 128).upper(), 6) +
                                " (audited against the exact law)";
    out.json.set("sampler", sampler);
    out.lines.insert(out.lines.begin() + 1, "sampler: " + sampler);
  }
  out.emit(io, parsed.has("--json"));
  return report.passed ? 0 : 3;
}

}  // namespace exactdp::cli
