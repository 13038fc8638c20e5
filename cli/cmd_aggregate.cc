// exactdp aggregate — releases from raw records: contribution bounding, private partition
// selection (or public keys) and noisy counts, sums and means with a certified composed
// guarantee. The operation (operations/aggregate.h) checks the request and runs the library
// (mechanisms/aggregate/); this file turns options into the request and prints the report.
// docs/AGGREGATE.md has the semantics and the proofs.
#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/atomic_output.h"
#include "cli/cmd_aggregate_report.h"
#include "cli/commands.h"
#include "cli/input_check.h"
#include "cli/seed_option.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/aggregate/aggregate_input.h>
#include <exactdp/operations/aggregate.h>

namespace exactdp::cli {
namespace {

const std::string kHelp = std::string(
    "usage:\n"
    "  exactdp aggregate --privacy-unit COL --group-by COL[,COL...]\n"
    "          [--count] [--count-units] [--sum COL --bounds L,U] [--mean COL --bounds L,U]\n"
    "          [--quantile COL --bounds L,U --q R[,R...]]\n"
    "          --epsilon R [--delta R] [--max-groups L0] [--max-rows Linf]\n"
    "          [--mechanism discrete-laplace|discrete-gaussian] [--split S] [--keys FILE]\n"
    "          [--selection optimal|threshold] [--json FILE] [--digits D] [--max-input-bytes N]\n"
    "          [--seed HEX | --seed-file FILE] [--output FILE] < records.csv > table.csv\n"
    "\n"
    "Releases counts, sums and means per group from RAW records (an RFC 4180 CSV on stdin, one row\n"
    "per event, with a header): the library bounds each privacy unit's contribution and derives\n"
    "every sensitivity; nothing is asserted by the user. Unit-level DP: neighbours add or remove\n"
    "one unit with all its records. The budget (epsilon, delta) is for the WHOLE release.\n"
    "\n"
    "--privacy-unit COL  the column identifying the person (unit) to protect\n"
    "--group-by COLS     the group key columns, separated by commas\n"
    "--count             noisy number of kept rows per group\n"
    "--count-units       noisy number of units with a kept row per group\n"
    "--sum COL           noisy sum of COL's values clamped exactly to --bounds L,U (repeatable)\n"
    "--mean COL          clamp(m + noisy centred sum / max(noisy count, 1), L, U), m the midpoint\n"
    "                    of L,U on the grid: post-processing of the noisy sum of (COL - m), whose\n"
    "                    noise follows (U - L) / 2 per row (not max(|L|, |U|)), and the noisy count\n"
    "                    (shared with --count if given)\n"
    "--quantile COL      a private q-quantile of COL per group for each R of --q R[,R...]\n"
    "                    (0 <= R <= 1): the exponential mechanism on the grid of --bounds (at most\n"
    "                    100000 grid points), printed with d decimals (column quantile_COL_R)\n"
    "--bounds L,U        plain decimals, for the --sum/--mean/--quantile before it; values are read\n"
    "                    exactly,\n"
    "                    rounded to the grid 10^-d (d = the most decimals written in L and U) and\n"
    "                    clamped; sums are printed with d decimals, means with d + 6\n"
    "--max-groups L0     groups kept per unit (default 1), chosen uniformly at random\n"
    "--max-rows Linf     rows kept per unit and group (default 1), chosen uniformly at random\n"
    "--mechanism M       noise of the aggregates: discrete-laplace (default; L1 sensitivity, pure\n"
    "                    DP) or discrete-gaussian (L2 sensitivity, zCDP composed by the accountant)\n"
    "--keys FILE         a CSV whose header names the group-by columns: these groups, and only\n"
    "                    these, are released (even without records), in file order. Without it,\n"
    "                    groups are selected privately (--selection) and released in byte order\n"
    "                    of their key.\n"
    "--selection M       partition selection without --keys: optimal (default; each group released\n"
    "                    with the exact optimal probability p(units) of Desfontaines et al. 2022\n"
    "                    for (epsilon/L0, delta/L0) per group) or threshold (noisy unit count,\n"
    "                    discrete Laplace, over a certified threshold)\n"
    "--split S           share of epsilon for partition selection, 0 < S < 1 (default 1/3); of\n"
    "                    delta it gets all with discrete-laplace aggregates, the share S otherwise\n"
    "--json FILE         also write the guarantee to FILE (atomically)\n"
    "--output FILE       write the table to FILE instead of stdout, all or nothing: a temporary\n"
    "                    beside FILE renamed into place only when the run succeeded; a failed\n"
    "                    run leaves FILE as it was. FILE and --json FILE must each be a new path\n"
    "                    or a regular file you may write: a device (/dev/null), pipe, socket,\n"
    "                    directory, symbolic link, read-only file or an input of the run (stdin,\n"
    "                    --keys, --seed-file) is refused before any work (exit 2).\n"
    "--digits D          significant digits of printed bounds (default 20; rounded outward)\n"
    "--max-input-bytes N the input size limit (default and maximum 68719476736 = 64 GiB)\n"
    "Limits: the bounded state (distinct (unit, group) pairs and kept values) and the release's\n"
    "totals and rows are at most 2*10^6 pairs and an estimated 1 GiB, else exit 2 naming the input\n"
    "line (SECURITY.md, Limits); --keys rows are checked before reading, naming keys or epsilon.\n"
    ) + kSeedOptionsHelp + std::string(
    "Output: the table on stdout or in --output FILE (CRLF-free CSV: the group-by columns, then\n"
    "count, count_units, sum_COL, mean_COL in the order asked), written only after everything\n"
    "succeeded; the guarantee (certified epsilon and delta, the bounding, the selection, each\n"
    "quantity's noise and sensitivity, the composition) on stderr and with --json FILE.\n"
    "Exit status: 0 success; 2 bad usage, parameter or input (the message names the option or the\n"
    "input line; nothing on stdout); 1 a write error or an internal error.\n");

// The sums, means and quantiles of the command line, in order, as the operation takes them.
using ValueOptions = std::vector<operations::AggregateOutputRequest>;

// --q R[,R...] for the quantile column waiting for it: one q text per R.
std::vector<std::string> split_quantiles(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// Takes --sum COL, --mean COL, --quantile COL, --bounds L,U and --q R[,R...] (in order) out of
// args: each value column is followed by its --bounds, a quantile column then by its --q.
ValueOptions take_value_options(Args args, std::vector<std::string>& rest) {
  ValueOptions v;
  bool pending = false;   // the last output waits for its --bounds
  bool quantile = false;  // the last output, a quantile, waits for its --q
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i], value;
    const std::size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
    } else if (a == "--sum" || a == "--mean" || a == "--bounds" || a == "--quantile" || a == "--q") {
      if (i + 1 >= args.size()) throw UsageError("option " + a + " needs a value");
      value = args[++i];
    }
    if (a == "--sum" || a == "--mean" || a == "--quantile") {
      if (pending) throw UsageError("--sum/--mean/--quantile " + v.back().column + " needs --bounds L,U after it");
      if (quantile) throw UsageError("--quantile " + v.back().column + " needs --q R[,R...] after its --bounds");
      v.push_back({a.substr(2), value, std::nullopt, {}});
      pending = true;
      quantile = a == "--quantile";
    } else if (a == "--bounds") {
      if (!pending) throw UsageError("--bounds must follow a --sum COL, --mean COL or --quantile COL");
      v.back().bounds = value;
      pending = false;
    } else if (a == "--q") {
      if (!quantile || pending) throw UsageError("--q must follow a --quantile COL --bounds L,U");
      v.back().q = split_quantiles(value);
      quantile = false;
    } else {
      rest.push_back(args[i]);
    }
  }
  if (pending) throw UsageError("--sum/--mean/--quantile " + v.back().column + " needs --bounds L,U after it");
  if (quantile) throw UsageError("--quantile " + v.back().column + " needs --q R[,R...] after its --bounds");
  return v;
}

std::vector<std::string> split_columns(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

struct AggregateOptions {
  operations::AggregatePlan plan;
  std::optional<std::string> keys_path;
  std::optional<std::string> json_path;
  std::optional<std::string> output_path;
  int digits = 20;
};

ParsedArgs parse_aggregate_args(Args args, ValueOptions& values) {
  std::vector<std::string> rest;
  values = take_value_options(args, rest);
  std::vector<OptionSpec> specs = {
      {"--privacy-unit", true}, {"--group-by", true}, {"--count", false}, {"--count-units", false},
      {"--max-groups", true},   {"--max-rows", true}, {"--mechanism", true}, {"--epsilon", true},
      {"--delta", true},        {"--split", true},    {"--keys", true},     {"--json", true},
      {"--selection", true},    {"--output", true},
      {"--digits", true},       {"--max-input-bytes", true},
  };
  for (const auto& s : seed_option_specs()) specs.push_back(s);
  for (const auto& s : help_option_specs()) specs.push_back(s);
  return ParsedArgs(Args(rest), specs);
}

// The command line as the operation's request. Output order: --count, --count-units, then the
// sums, means and quantiles as given.
operations::AggregateRequest aggregate_request(const ParsedArgs& parsed, ValueOptions values) {
  operations::AggregateRequest r;
  r.privacy_unit = parsed.require("--privacy-unit");
  r.group_by = split_columns(parsed.require("--group-by"));
  if (parsed.has("--count")) r.outputs.push_back({"count"});
  if (parsed.has("--count-units")) r.outputs.push_back({"count_units"});
  for (auto& out : values) r.outputs.push_back(std::move(out));
  r.max_groups = parsed.get("--max-groups");
  r.max_rows = parsed.get("--max-rows");
  r.mechanism = parsed.get("--mechanism");
  r.epsilon = parsed.require("--epsilon");
  r.delta = parsed.get("--delta");
  r.split = parsed.get("--split");
  r.public_keys = parsed.has("--keys");
  r.selection = parsed.get("--selection");
  r.max_input_bytes = parsed.get("--max-input-bytes");
  return r;
}

AggregateOptions parse_aggregate_options(const ParsedArgs& parsed, ValueOptions values) {
  if (!parsed.positionals().empty()) {
    throw UsageError("aggregate takes no positional argument ('" + parsed.positionals()[0] +
                     "'); the records are read on stdin (see --help)");
  }
  AggregateOptions o;
  o.plan = operations::plan_aggregate(aggregate_request(parsed, std::move(values)));
  o.keys_path = parsed.get("--keys");
  o.digits = digits_option(parsed, 1000);
  o.json_path = parsed.get("--json");
  o.output_path = parsed.get("--output");
  return o;
}

std::vector<std::string> load_keys(const std::string& path, const mechanisms::AggregateRequest& r) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ParameterError("keys", "keys file '" + abbreviate(path) + "' cannot be read");
  mechanisms::StreamByteReader reader(file);
  return operations::read_aggregate_keys(reader, r, "keys file '" + abbreviate(path) + "'");
}

}  // namespace

int cmd_aggregate(Args args, Io& io) {
  ValueOptions values;
  const ParsedArgs parsed = parse_aggregate_args(args, values);
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  const AggregateOptions opts = parse_aggregate_options(parsed, std::move(values));
  const bool real_stdin = &io.in == &std::cin;
  if (real_stdin) check_stdin_readable();
  if (opts.keys_path) check_input_file("--keys", *opts.keys_path);
  // The output files: regular files or new paths, never an input of the run, never each other;
  // temporaries beside their targets until everything succeeded.
  check_output_paths(named_paths(parsed, {"--output", "--json"}), named_paths(parsed, {"--keys", "--seed-file"}),
                     real_stdin);
  std::unique_ptr<AtomicOutputFile> table_file;
  std::unique_ptr<AtomicOutputFile> json_file;
  if (opts.output_path) table_file = std::make_unique<AtomicOutputFile>("--output", *opts.output_path);
  if (opts.json_path) json_file = std::make_unique<AtomicOutputFile>("--json", *opts.json_path);
  std::optional<std::vector<std::string>> keys;
  if (opts.keys_path) keys = load_keys(*opts.keys_path, opts.plan.request);
  const bool seeded = has_seed_option(parsed);
  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);

  mechanisms::StreamByteReader input(io.in);
  const operations::AggregateReport report =
      operations::aggregate_records(opts.plan, input, keys ? &*keys : nullptr, *bits);

  std::ostream& out = table_file ? table_file->stream() : io.out;
  if (&out == &std::cout) std::signal(SIGPIPE, SIG_IGN);
  out << report.header << "\n";
  for (const auto& row : report.rows) out << row << "\n";
  out.flush();
  if (!out) {
    io.err << "exactdp aggregate: error writing the output (the released table is incomplete)\n";
    return 1;
  }
  if (json_file) {
    json_file->stream() << aggregate_guarantee_json(opts.plan.request, report, seeded, opts.digits).dump() << "\n";
  }
  if (!commit_outputs(table_file.get(), json_file.get(), "aggregate", io.err)) return 1;
  print_aggregate_guarantee(io.err, opts.plan.request, report, seeded, opts.digits);
  return 0;
}

}  // namespace exactdp::cli
