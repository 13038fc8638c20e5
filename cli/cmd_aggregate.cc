// exactdp aggregate — releases from raw records: contribution bounding, private partition
// selection (or public keys) and noisy counts, sums and means with a certified composed
// guarantee. The library does the work (mechanisms/aggregate/); this file parses options and
// prints. docs/AGGREGATE.md has the semantics and the proofs.
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
#include "cli/seed_option.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/aggregate/aggregate_release.h>

namespace exactdp::cli {
namespace {

using mechanisms::AggregateKind;

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

struct ValueOptions {
  std::vector<mechanisms::AggregateOutput> outputs;
  std::vector<mechanisms::ValueColumn> columns;
};

// Adds COL's bounds (the same bounds when COL is named twice).
void add_bounds(ValueOptions& v, const std::string& column, const std::string& text) {
  const mechanisms::ValueBounds b = mechanisms::parse_value_bounds(text);
  for (const auto& c : v.columns) {
    if (c.name != column) continue;
    if (c.bounds.lower != b.lower || c.bounds.upper != b.upper || c.bounds.decimals != b.decimals) {
      throw ParameterError("bounds", "column '" + column + "' is given two different --bounds");
    }
    return;
  }
  v.columns.push_back({column, b});
}

// --q R[,R...] for quantile column COL: one output per R (exact rationals).
void add_quantiles(ValueOptions& v, const std::string& column, const std::string& text) {
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const mpq_class q = parse_rational("q", text.substr(start, comma - start));
    v.outputs.push_back({AggregateKind::kQuantile, column, q});
    if (comma == std::string::npos) return;
    start = comma + 1;
  }
}

// Takes --sum COL, --mean COL, --quantile COL, --bounds L,U and --q R[,R...] (in order) out of
// args: each value column is followed by its --bounds, a quantile column then by its --q.
ValueOptions take_value_options(Args args, std::vector<std::string>& rest) {
  ValueOptions v;
  std::optional<std::string> pending;   // the column waiting for its --bounds
  std::optional<std::string> quantile;  // the quantile column waiting for its --q
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
      if (pending) throw UsageError("--sum/--mean/--quantile " + *pending + " needs --bounds L,U after it");
      if (quantile) throw UsageError("--quantile " + *quantile + " needs --q R[,R...] after its --bounds");
      if (a == "--quantile") {
        quantile = value;
      } else {
        v.outputs.push_back({a == "--sum" ? AggregateKind::kSum : AggregateKind::kMean, value});
      }
      pending = value;
    } else if (a == "--bounds") {
      if (!pending) throw UsageError("--bounds must follow a --sum COL, --mean COL or --quantile COL");
      add_bounds(v, *pending, value);
      pending.reset();
    } else if (a == "--q") {
      if (!quantile || pending) throw UsageError("--q must follow a --quantile COL --bounds L,U");
      add_quantiles(v, *quantile, value);
      quantile.reset();
    } else {
      rest.push_back(args[i]);
    }
  }
  if (pending) throw UsageError("--sum/--mean/--quantile " + *pending + " needs --bounds L,U after it");
  if (quantile) throw UsageError("--quantile " + *quantile + " needs --q R[,R...] after its --bounds");
  return v;
}

std::vector<std::string> split_columns(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (out.back().empty()) throw ParameterError("group-by", "group-by has an empty column name");
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// The release's laws (registry names, mechanisms::release_laws()); any other law is refused by
// name.
std::string parse_mechanism(const std::optional<std::string>& name) {
  if (!name) return "discrete-laplace";
  for (const auto& law : mechanisms::release_laws()) {
    if (*name == law) return law;
  }
  throw ParameterError("mechanism", "mechanism = " + abbreviate(*name) +
                                        " is not a noise law aggregate adds: allowed " + mechanisms::release_law_names());
}

struct AggregateOptions {
  mechanisms::AggregateRequest request;
  mechanisms::AggregateLimits limits;
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

// Output order: --count, --count-units, then the sums and means as given.
AggregateOptions parse_aggregate_options(const ParsedArgs& parsed, ValueOptions values) {
  if (!parsed.positionals().empty()) {
    throw UsageError("aggregate takes no positional argument ('" + parsed.positionals()[0] +
                     "'); the records are read on stdin (see --help)");
  }
  AggregateOptions o;
  mechanisms::AggregateRequest& r = o.request;
  r.privacy_unit = parsed.require("--privacy-unit");
  r.group_by = split_columns(parsed.require("--group-by"));
  if (parsed.has("--count")) r.outputs.push_back({AggregateKind::kCount, ""});
  if (parsed.has("--count-units")) r.outputs.push_back({AggregateKind::kCountUnits, ""});
  for (auto& out : values.outputs) r.outputs.push_back(std::move(out));
  r.value_columns = std::move(values.columns);
  r.bounding.max_groups = static_cast<unsigned long>(
      parsed.count("--max-groups", 1, mechanisms::kMaxAggregateGroupsPerUnit).value_or(1));
  r.bounding.max_rows = static_cast<unsigned long>(
      parsed.count("--max-rows", 1, mechanisms::kMaxAggregateRowsPerGroup).value_or(1));
  r.mechanism = parse_mechanism(parsed.get("--mechanism"));
  r.epsilon = parsed.require_rational("--epsilon");
  r.delta = parsed.rational("--delta");
  r.split = parsed.rational("--split");
  o.keys_path = parsed.get("--keys");
  r.public_keys = o.keys_path.has_value();
  if (const auto method = parsed.get("--selection")) r.selection = mechanisms::parse_selection_method(*method);
  mechanisms::validate_aggregate_request(r);
  o.digits = digits_option(parsed, 1000);
  if (const auto n = parsed.count("--max-input-bytes", 1, o.limits.csv.max_input_bytes)) {
    o.limits.csv.max_input_bytes = *n;
  }
  o.json_path = parsed.get("--json");
  o.output_path = parsed.get("--output");
  return o;
}

std::vector<std::string> load_keys(const std::string& path, const mechanisms::AggregateRequest& r) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ParameterError("keys", "keys file '" + abbreviate(path) + "' cannot be read");
  mechanisms::StreamByteReader reader(file);
  try {
    return mechanisms::read_public_keys(reader, r.group_by);
  } catch (const mechanisms::CsvError& e) {
    throw ParameterError("keys", "keys file '" + abbreviate(path) + "': " + e.what());
  }
}

}  // namespace

int cmd_aggregate(Args args, Io& io) {
  ValueOptions values;
  const ParsedArgs parsed = parse_aggregate_args(args, values);
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  const AggregateOptions opts = parse_aggregate_options(parsed, std::move(values));
  const bool real_stdin = &io.in == &std::cin;
  // The output files: regular files or new paths, never an input of the run, never each other;
  // temporaries beside their targets until everything succeeded.
  check_output_paths(named_paths(parsed, {"--output", "--json"}), named_paths(parsed, {"--keys", "--seed-file"}),
                     real_stdin);
  std::unique_ptr<AtomicOutputFile> table_file;
  std::unique_ptr<AtomicOutputFile> json_file;
  if (opts.output_path) table_file = std::make_unique<AtomicOutputFile>("--output", *opts.output_path);
  if (opts.json_path) json_file = std::make_unique<AtomicOutputFile>("--json", *opts.json_path);
  std::optional<std::vector<std::string>> keys;
  if (opts.keys_path) keys = load_keys(*opts.keys_path, opts.request);
  const bool seeded = has_seed_option(parsed);
  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);

  mechanisms::StreamByteReader input(io.in);
  const mechanisms::AggregateRelease release = mechanisms::aggregate_records(
      input, opts.request, keys ? &*keys : nullptr, *bits, opts.limits);

  std::ostream& out = table_file ? table_file->stream() : io.out;
  if (&out == &std::cout) std::signal(SIGPIPE, SIG_IGN);
  out << release.header << "\n";
  for (const auto& row : release.rows) out << row << "\n";
  out.flush();
  if (!out) {
    io.err << "exactdp aggregate: error writing the output (the released table is incomplete)\n";
    return 1;
  }
  if (json_file) {
    json_file->stream() << aggregate_guarantee_json(opts.request, release, seeded, opts.digits).dump() << "\n";
  }
  if (!commit_outputs(table_file.get(), json_file.get(), "aggregate", io.err)) return 1;
  print_aggregate_guarantee(io.err, opts.request, release, seeded, opts.digits);
  return 0;
}

}  // namespace exactdp::cli
