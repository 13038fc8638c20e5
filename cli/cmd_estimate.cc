// exactdp estimate — the estimators of Cai, Wang and Zhang, "The cost of privacy", for people
// without Python: `estimate sparse-mean` (Algorithm 3: truncated mean, Peeling of the top s
// coordinates) on an RFC 4180 CSV of rows. The operation (operations/estimate.h) checks the
// request, reads the rows and runs the library (mechanisms/estimation/sparse_mean.h); this file
// turns options into the request and prints the report (cmd_estimate_report.h).
// docs/ESTIMATION.md, "From the command line".
#include <csignal>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/atomic_output.h"
#include "cli/cmd_estimate_report.h"
#include "cli/commands.h"
#include "cli/input_check.h"
#include "cli/seed_option.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/aggregate/aggregate_input.h>
#include <exactdp/operations/estimate.h>

namespace exactdp::cli {
namespace {

const std::string kHelp = std::string(
    "usage:\n"
    "  exactdp estimate sparse-mean --s INT --bound R --epsilon R [--delta R]\n"
    "          [--route basic|advanced|kov] [--json FILE] [--digits D] [--max-input-bytes N]\n"
    "          [--seed HEX | --seed-file FILE] [--output FILE] < rows.csv > estimate.csv\n"
    "\n"
    "The private s-sparse mean of Cai, Wang and Zhang (\"The cost of privacy\", Algorithm 3): each\n"
    "value is truncated to [-R, R], the d column means are taken, and Peeling keeps the s\n"
    "coordinates of largest noisy |mean| with fresh noisy values (exact discrete Laplace noise on the\n"
    "grid 2^-k, k = 32 - floor(log2 R)); every other coordinate is estimated 0. Neighbouring data\n"
    "sets replace one row; the number of rows n is public. The budget is for the whole estimate.\n"
    "\n"
    "Input on stdin: an RFC 4180 CSV (the reader of `release`), a header naming the d coordinates\n"
    "(non-empty, distinct), then n >= 1 rows of d numbers. A number is read EXACTLY as a decimal,\n"
    "[+-]digits[.digits][e[+-]digits] (1.5, -.25, 3e-7; at most 10000 digits; no NaN, inf, hex or\n"
    "spaces), then rounded to the grid (half to even) and clamped to [-R, R]: no double rounding.\n"
    "\n"
    "--s INT             the sparsity s, 1 <= s <= d (the number of coordinates released)\n"
    "--bound R           the truncation radius R > 0 (a rational): choose it WITHOUT looking at the\n"
    "                    data, e.g. |mu|_inf + sigma sqrt(2 ln(n d)) for Gaussian rows\n"
    "--epsilon R         0 < epsilon <= 1000, for the whole estimate (at most 1024 bits of\n"
    "                    numerator plus denominator: ~300 digits)\n"
    "--delta R           0 < delta < 1; without it: pure epsilon-DP by the basic route\n"
    "--route ROUTE       how the s rounds compose: basic (s eps0, pure), advanced (Dwork-Rothblum-\n"
    "                    Vadhan, the paper's), kov (the optimal composition, certified; default\n"
    "                    with --delta). Every route that applies is reported, with its noise.\n"
    "--json FILE         also write the guarantee to FILE (atomically)\n"
    "--output FILE       write the estimate to FILE instead of stdout, all or nothing: a temporary\n"
    "                    beside FILE renamed into place only when the run succeeded; a failed\n"
    "                    run leaves FILE as it was. FILE and --json FILE must each be a new path\n"
    "                    or a regular file you may write: a device (/dev/null), pipe, socket,\n"
    "                    directory, symbolic link, read-only file or an input of the run (stdin,\n"
    "                    --seed-file) is refused before any work (exit 2).\n"
    "--digits D          significant digits of printed bounds (default 20; rounded outward)\n"
    "--max-input-bytes N the input size limit (default and maximum 68719476736 = 64 GiB)\n"
    ) + kSeedOptionsHelp + std::string(
    "Output: on stdout (or in --output FILE) \"coordinate,estimate\", then one line per coordinate\n"
    "in input order, the estimate printed as the shortest decimal that reads back as the double\n"
    "nearest the exact value (0 off the support); the guarantee (certified epsilon, each route's\n"
    "budget and noise, the budget split, the tuning values, the support in the order chosen) on\n"
    "stderr and with --json FILE, where the chosen coordinates' exact values are given too.\n"
    "Limits: d <= 100000 columns, 16 MiB per row; the peeling's work (about s d - s^2/2 noise\n"
    "draws, plus 2000 a round for the routes' calibration with --delta, times 1 + the bits of\n"
    "epsilon / 512) is estimated once the header is read, before any row, and refused over\n"
    "4000000 draws (about 5 s; exit 2 naming s).\n"
    "Reading is linear in the input (about 2 s of CPU for 10^7 values); memory is O(d).\n"
    "Exit status: 0 success; 2 bad usage, parameter or input (the message names the option or the\n"
    "input line and column; nothing on stdout); 1 a write error or an internal error.\n");

struct EstimateOptions {
  operations::EstimatePlan plan;
  std::optional<std::string> json_path;
  std::optional<std::string> output_path;
  int digits = 20;
};

ParsedArgs parse_estimate_args(Args args) {
  std::vector<OptionSpec> specs = {
      {"--s", true},      {"--bound", true}, {"--epsilon", true},         {"--delta", true},
      {"--route", true},  {"--json", true},  {"--max-input-bytes", true}, {"--digits", true},
      {"--output", true},
  };
  for (const auto& s : seed_option_specs()) specs.push_back(s);
  for (const auto& s : help_option_specs()) specs.push_back(s);
  return ParsedArgs(args, specs);
}

EstimateOptions parse_estimate_options(const ParsedArgs& parsed) {
  const auto& pos = parsed.positionals();
  if (pos.empty()) throw UsageError("estimate needs an estimator: sparse-mean (see --help)");
  if (pos[0] != "sparse-mean") {
    throw UsageError("estimate: unknown estimator '" + abbreviate(pos[0]) + "' (allowed: sparse-mean)");
  }
  if (pos.size() > 1) throw UsageError("estimate sparse-mean takes no other positional argument ('" + pos[1] + "')");
  operations::EstimateRequest r;
  r.sparsity = parsed.require("--s");
  r.epsilon = parsed.require("--epsilon");
  r.delta = parsed.get("--delta");
  r.route = parsed.get("--route");
  r.radius = parsed.require("--bound");
  r.max_input_bytes = parsed.get("--max-input-bytes");
  EstimateOptions o;
  o.plan = operations::plan_estimate(r);
  o.digits = digits_option(parsed, 1000);
  o.json_path = parsed.get("--json");
  o.output_path = parsed.get("--output");
  return o;
}

}  // namespace

int cmd_estimate(Args args, Io& io) {
  const ParsedArgs parsed = parse_estimate_args(args);
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  const EstimateOptions opts = parse_estimate_options(parsed);
  if (&io.in == &std::cin) check_stdin_readable();
  // The output files: regular files or new paths, never an input of the run, never each other;
  // temporaries beside their targets until everything succeeded.
  check_output_paths(named_paths(parsed, {"--output", "--json"}), named_paths(parsed, {"--seed-file"}),
                     &io.in == &std::cin);
  std::unique_ptr<AtomicOutputFile> table_file;
  std::unique_ptr<AtomicOutputFile> json_file;
  if (opts.output_path) table_file = std::make_unique<AtomicOutputFile>("--output", *opts.output_path);
  if (opts.json_path) json_file = std::make_unique<AtomicOutputFile>("--json", *opts.json_path);
  const bool seeded = has_seed_option(parsed);
  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);

  mechanisms::StreamByteReader input(io.in);
  const operations::EstimateReport report = operations::estimate_sparse_mean(opts.plan, input, *bits);
  const EstimateContext context{seeded, opts.digits};

  std::ostream& out = table_file ? table_file->stream() : io.out;
  if (&out == &std::cout) std::signal(SIGPIPE, SIG_IGN);
  write_estimate_csv(out, report);
  out.flush();
  if (!out) {
    io.err << "exactdp estimate: error writing the output (the estimate is incomplete)\n";
    return 1;
  }
  if (json_file) json_file->stream() << estimate_guarantee_json(report, context).dump() << "\n";
  if (!commit_outputs(table_file.get(), json_file.get(), "estimate", io.err)) return 1;
  print_estimate_guarantee(io.err, report, context);
  return 0;
}

}  // namespace exactdp::cli
