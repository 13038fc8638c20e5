// exactdp release — the main job: calibrated exact noise on the integer columns of a CSV table,
// all or nothing, with the certified guarantee of the whole release on stderr (and in --json).
// The operation does the work (operations/release.h); this file reads the options into its
// request and prints its report.
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/accounting_options.h"
#include "cli/atomic_output.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/input_check.h"
#include "cli/json.h"
#include "cli/seed_option.h"
#include "cli/sensitivity_options.h"
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/release.h>

namespace exactdp::cli {
namespace {

using operations::release_exact_text;
using operations::ReleaseColumn;
using operations::ReleaseGrid;
using operations::ReleasePlan;
using operations::ReleaseReport;


const std::string kHelp = std::string(
    "usage:\n"
    "  exactdp release --mechanism discrete-gaussian|discrete-laplace --epsilon R [--delta R]\n"
    "          --column NAME [--column NAME ...] [--sensitivity INT] [--contributions K]\n"
    "          [--granularity G [--round refuse|nearest]] [--hardened] [--json FILE] [--digits D]\n"
    "          [--sensitivity NAME=S ...] [--granularity NAME=G ...] [--round NAME=MODE ...]\n"
    "          [--max-input-bytes N]\n"
    "          [--seed HEX | --seed-file FILE] < in.csv > out.csv\n"
    "\n"
    "Adds exact, calibrated noise to the named integer columns of an RFC 4180 CSV table read on\n"
    "stdin (header row; quoted fields with commas, quotes and newlines; CRLF or LF; a UTF-8 BOM)\n"
    "and writes the table on stdout: every other field byte for byte (quoting included), the row\n"
    "order and the line endings kept; each noised cell replaced by cell + noise (integers of any\n"
    "size). All or nothing: the whole input is validated before a byte is written.\n"
    "\n"
    "The budget (epsilon, delta) is for the WHOLE release. Contribution model: a person adds at\n"
    "most K records (--contributions, default 1); a record changes one row, and each noised\n"
    "column's cell in it by at most Delta (--sensitivity, default 1). The rows (and columns not\n"
    "noised) must be public, e.g. category keys. Per-cell noise, same for every noised cell:\n"
    "  discrete-laplace   scale C K Delta / epsilon: pure epsilon-DP (delta = 0; --delta optional)\n"
    "  discrete-gaussian  sigma2 certified: one column and K = 1 by the exact profile (CKS20\n"
    "                     Thm. 7), otherwise by rho-zCDP (rho = C K^2 Delta^2 / (2 sigma2))\n"
    "                     converted with CKS20 Cor. 13. --delta is required.\n"
    "The guarantee (epsilon and delta certified upper ends, rho-zCDP and mu-GDP where they hold,\n"
    "the contribution model, the composition route, the per-column parameters) goes to stderr\n"
    "and, with --json FILE, as one JSON object to FILE.\n"
    "\n"
    "--column NAME       a header name (unquoted value) to noise; repeat for more columns\n"
    "--sensitivity INT   Delta >= 1 (default 1); with --granularity a rational s > 0 in the\n"
    "                    column's units, and Delta = ceil(s / G) grid steps\n"
    "--granularity G     decimal (fixed-point) columns on the grid G Z: G is an exact rational\n"
    "                    whose denominator is 2^a 5^b (0.01, 0.25, 1/1024, also written 2^-10).\n"
    "                    A cell is a plain decimal ([+-]?digits[.digits]) read exactly; it must\n"
    "                    be a multiple of G, or with --round nearest it is rounded to the nearest\n"
    "                    multiple (ties toward +infinity). Integer noise is added to value / G and\n"
    "                    the result printed as an exact decimal with G's number of decimal places.\n"
    "Per column: --sensitivity NAME=S, --granularity NAME=G and --round NAME=MODE (repeatable,\n"
    "                    one each per column; NAME is the text before the last '=') give column\n"
    "                    NAME its own sensitivity, grid and rounding; the options without NAME= are\n"
    "                    the defaults of the other columns. A column without a grid is an integer\n"
    "                    column (integer sensitivity, integer noise, printed as an integer). Each\n"
    "                    column's noise is calibrated to its own Delta_c (docs/RELEASE.md):\n"
    "                    discrete-laplace scale C K Delta_c / epsilon; discrete-gaussian\n"
    "                    rho = sum_c K^2 Delta_c^2 / (2 sigma2_c), each column rho / C.\n"
    "--contributions K   1 <= K <= 1000000 records per person (default 1)\n"
    "--hardened          the timing-hardened samplers (docs/HARDENED.md); their certified distance\n"
    "                    tau <= 2^-64 per cell is charged to delta: (1 + e^eps) N tau for N cells\n"
    "--json FILE         also write the guarantee to FILE\n"
    "--output FILE       write the table to FILE instead of stdout, all or nothing: FILE is\n"
    "                    written as a temporary beside it and renamed into place (after fsync)\n"
    "                    only when the run succeeded; a failed or killed run leaves FILE as it\n"
    "                    was (a killed run may leave a hidden .FILE.exactdp-XXXXXX behind).\n"
    "                    --json FILE is written the same way. Each must be a new path or a\n"
    "                    regular file you may write: a device (/dev/null), pipe, socket,\n"
    "                    directory, symbolic link, read-only file or an input of the run (stdin,\n"
    "                    --seed-file) is refused before any work (exit 2).\n"
    "--digits D          significant digits of printed bounds (default 20; rounded outward)\n"
    "--max-input-bytes N the input size limit (default and maximum 68719476736 = 64 GiB)\n"
    "Limits: a cell has at most 10000 digits, a record at most 16 MiB and 100000 fields.\n"
    "Memory is bounded: a regular file on stdin is read twice in place; anything else (a pipe) is\n"
    "spooled to an unlinked temporary file in $TMPDIR during the first pass (docs/RELEASE.md).\n"
    "Killed runs: a run killed (SIGKILL, out of memory, a timeout) while writing stdout leaves a\n"
    "partial table there, which may end on a record boundary and so look like a well-formed CSV\n"
    "with fewer rows. Nothing marks it incomplete: check the exit status, or use --output FILE.\n"
    ) + kSeedOptionsHelp + std::string(
    "Exit status: 0 success; 2 bad usage, bad parameter or bad input (the message names the\n"
    "parameter or the input line; nothing on stdout); 1 a write error (closed pipe, full disk:\n"
    "the table on stdout is then incomplete; --output FILE is then left unchanged) or an internal\n"
    "error.\n");

// Takes every "--column NAME" / "--column=NAME" out of args (the option repeats).
std::vector<std::string> take_columns(Args args, std::vector<std::string>& rest) {
  std::vector<std::string> columns;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    if (a == "--column") {
      if (i + 1 >= args.size()) throw UsageError("option --column needs a value");
      columns.push_back(args[++i]);
    } else if (a.rfind("--column=", 0) == 0) {
      columns.push_back(a.substr(9));
    } else {
      rest.push_back(a);
    }
  }
  return columns;
}

void describe_grid(JsonValue& j, const std::optional<ReleaseGrid>& grid, const mechanisms::ReleaseCalibration& c) {
  if (!grid) {
    j.set("granularity", JsonValue::null());
    return;
  }
  j.set("granularity", release_exact_text(grid->granularity));
  j.set("rounding", grid->rounding == mechanisms::Rounding::kNearest ? "nearest (ties toward +infinity)" : "refuse");
  j.set("sensitivity_value_units", release_exact_text(grid->sensitivity));
  j.set("sensitivity_grid_steps", to_string(c.model.sensitivity));
}

// One noised column's entry of the JSON report; `own` (per-column options only) adds its
// sensitivity, grid and rounding.
JsonValue column_json(const mechanisms::ReleaseCalibration& c, std::size_t i, const std::string& name,
                      const std::optional<ReleaseGrid>& grid, const ReleaseColumn* own) {
  JsonValue col = JsonValue::object();
  col.set("column", name);
  col.set("mechanism", c.budget.mechanism);
  if (own != nullptr) {
    col.set("sensitivity", to_string(own->delta));
    col.set("granularity", grid ? JsonValue(release_exact_text(grid->granularity)) : JsonValue::null());
    if (grid) {
      col.set("rounding", grid->rounding == mechanisms::Rounding::kNearest ? "nearest (ties toward +infinity)" : "refuse");
      col.set("sensitivity_value_units", release_exact_text(grid->sensitivity));
    }
  }
  const mpq_class& noise = c.noise_of(i);
  if (c.parameter == "sigma2") {
    col.set("sigma2", release_exact_text(noise));
    if (grid) col.set("sigma2_value_units", release_exact_text(noise * grid->granularity * grid->granularity));
  } else {
    col.set("scale", release_exact_text(noise));
    if (grid) col.set("scale_value_units", release_exact_text(noise * grid->granularity));
  }
  if (own != nullptr && c.budget.hardened) col.set("tau_upper", to_string(c.column_tau_upper[i]));
  return col;
}

JsonValue guarantee_json(const ReleaseReport& report, bool seeded, int digits) {
  const mechanisms::ReleaseCalibration& c = report.calibration;
  const std::vector<std::string>& columns = report.noised;
  const std::optional<ReleaseGrid>& grid = report.grid;
  const std::vector<ReleaseColumn>& per_column = report.per_column;
  JsonValue j = JsonValue::object();
  j.set("command", "release");
  j.set("mechanism", c.budget.mechanism);
  j.set("hardened", c.budget.hardened);
  JsonValue requested = JsonValue::object();
  requested.set("epsilon", release_exact_text(c.budget.epsilon));
  requested.set("delta", c.budget.delta ? JsonValue(release_exact_text(*c.budget.delta)) : JsonValue::null());
  j.set("requested", requested);
  j.set("epsilon", JsonValue::interval(c.epsilon, c.epsilon_exact, digits));
  j.set("delta", JsonValue::interval(c.delta, c.delta_exact, digits));
  j.set("epsilon_exact", c.epsilon_exact ? JsonValue(release_exact_text(*c.epsilon_exact)) : JsonValue::null());
  j.set("delta_exact", c.delta_exact ? JsonValue(release_exact_text(*c.delta_exact)) : JsonValue::null());
  j.set("rho_zcdp", c.rho ? JsonValue(release_exact_text(*c.rho)) : JsonValue::null());
  j.set("mu_gdp", c.mu ? JsonValue::interval(*c.mu, digits) : JsonValue::null());
  JsonValue model = JsonValue::object();
  model.set("description",
            "a person contributes at most K records; each record changes one row and each noised "
            "column's cell in that row by at most Delta; rows and non-noised columns are public");
  model.set("sensitivity", per_column.empty() ? to_string(c.model.sensitivity) : std::string("per column"));
  model.set("contributions", c.model.contributions);
  model.set("columns", c.model.columns);
  model.set("l1_sensitivity", to_string(c.l1_sensitivity));
  model.set("l2_sensitivity_squared", to_string(c.l2_sensitivity_squared));
  j.set("contribution_model", model);
  if (per_column.empty()) {
    describe_grid(j, grid, c);
  } else {
    j.set("granularity", "per column");
  }
  j.set("route", c.route);
  j.set("route_detail", c.route_detail);
  JsonValue columns_json = JsonValue::array();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    columns_json.push(column_json(c, i, columns[i], per_column.empty() ? grid : per_column[i].grid,
                                  per_column.empty() ? nullptr : &per_column[i]));
  }
  j.set("columns", columns_json);
  j.set("rows", static_cast<unsigned long long>(c.cells / c.model.columns));
  j.set("cells", static_cast<unsigned long long>(c.cells));
  if (c.budget.hardened) {
    j.set("tau_upper_per_cell", to_string(c.tau_upper_per_cell));
    j.set_interval("hardened_delta_charge", c.hardened_charge, digits);
  }
  j.set("randomness", seeded ? "seeded ChaCha20 (reproducible demo: NOT private)" : "OS CSPRNG");
  j.set("input", report.in_place ? "regular file, read twice in place" : "spooled to a temporary file");
  return j;
}

// The report's per-column lines of a release with per-column options: law, noise parameter,
// Delta and grid of each column.
void print_column_lines(std::ostream& err, const mechanisms::ReleaseCalibration& c,
                        const std::vector<std::string>& columns, const std::vector<ReleaseColumn>& per_column) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const ReleaseColumn& own = per_column[i];
    err << "  column " << columns[i] << ": " << c.budget.mechanism << (c.budget.hardened ? " (hardened)" : "")
        << ", " << c.parameter << " = " << release_exact_text(c.noise_of(i));
    if (!own.grid) {
      err << ", Delta = " << to_string(own.delta) << " (integer column)\n";
      continue;
    }
    const ReleaseGrid& g = *own.grid;
    err << " grid steps, Delta = ceil(" << release_exact_text(g.sensitivity) << " / G) = " << to_string(own.delta)
        << " grid steps; decimal grid G = " << release_exact_text(g.granularity) << ", values "
        << (g.rounding == mechanisms::Rounding::kNearest ? "rounded to the nearest multiple (ties up)"
                                                         : "must be multiples of G")
        << "\n";
  }
}

void print_guarantee(std::ostream& err, const ReleaseReport& report, bool seeded, int digits) {
  const mechanisms::ReleaseCalibration& c = report.calibration;
  const std::vector<std::string>& columns = report.noised;
  const std::optional<ReleaseGrid>& grid = report.grid;
  const std::vector<ReleaseColumn>& per_column = report.per_column;
  using exactdp::to_decimal;
  const bool gaussian = c.parameter == "sigma2";
  err << "exactdp release: guarantee of the whole release (certified upper ends, rounded up)\n";
  const std::string eps_text = c.epsilon_exact ? release_exact_text(*c.epsilon_exact) : to_decimal(c.epsilon, digits).upper;
  const std::string delta_text = c.delta_exact ? release_exact_text(*c.delta_exact) : to_decimal(c.delta, digits).upper;
  err << "  (epsilon, delta)-DP  epsilon <= " << eps_text << ", delta <= " << delta_text
      << "  (requested epsilon = "
      << abbreviate(release_exact_text(c.budget.epsilon)) << ", delta = "
      << (c.budget.delta ? abbreviate(release_exact_text(*c.budget.delta)) : std::string("0")) << ")\n";
  err << "  rho-zCDP             "
      << (c.rho ? "rho = " + release_exact_text(*c.rho) + (gaussian ? "" : " (epsilon^2/2, BS16 Prop. 3.3)")
                : std::string(c.budget.hardened ? "not claimed (hardened samplers: TV charge only)"
                                                : "not claimed"))
      << "\n";
  err << "  mu-GDP               "
      << (c.mu ? "mu <= " + to_decimal(*c.mu, digits).upper + " (pure DP => GDP, DRS Sec. 2.4)"
               : std::string(gaussian ? "not claimed (the discrete Gaussian is not exactly "
                                        "Delta/sigma-GDP)"
                                      : "not claimed (hardened samplers: TV charge only)"))
      << "\n";
  if (!per_column.empty()) {
    err << "  contribution model   a person contributes at most K = " << c.model.contributions
        << " record(s); each changes one row, and each noised column c's cell in it by at most its own "
           "Delta_c (below); rows and other columns are public\n";
    err << "  sensitivity          C = " << c.model.columns << " noised column(s): L1 = K sum_c Delta_c = "
        << to_string(c.l1_sensitivity) << ", L2^2 = K^2 sum_c Delta_c^2 = "
        << to_string(c.l2_sensitivity_squared) << "\n";
  } else {
    err << "  contribution model   a person contributes at most K = " << c.model.contributions
        << " record(s); each changes one row, and each noised column's cell in it by at most Delta = "
        << to_string(c.model.sensitivity) << "; rows and other columns are public\n";
    err << "  sensitivity          C = " << c.model.columns << " noised column(s): L1 = C K Delta = "
        << to_string(c.l1_sensitivity) << ", L2^2 = C K^2 Delta^2 = "
        << to_string(c.l2_sensitivity_squared) << "\n";
  }
  if (grid && per_column.empty()) {
    err << "  decimal grid         G = " << release_exact_text(grid->granularity) << ", values "
        << (grid->rounding == mechanisms::Rounding::kNearest ? "rounded to the nearest multiple (ties up)"
                                                             : "must be multiples of G")
        << "; sensitivity " << release_exact_text(grid->sensitivity) << " = Delta = ceil(s/G) = "
        << to_string(c.model.sensitivity) << " grid steps; noise below is in grid steps\n";
  }
  err << "  composition route    " << c.route << ": " << c.route_detail << "\n";
  if (!per_column.empty()) print_column_lines(err, c, columns, per_column);
  for (std::size_t i = 0; i < columns.size() && per_column.empty(); ++i) {
    const std::string& name = columns[i];
    err << "  column " << name << ": " << c.budget.mechanism
        << (c.budget.hardened ? " (hardened)" : "") << ", "
        << (gaussian ? "sigma2 = " + release_exact_text(c.sigma2) : "scale = " + release_exact_text(c.scale)) << "\n";
  }
  err << "  cells noised         " << c.cells << "\n";
  if (c.budget.hardened) {
    err << "  hardened charge      (1 + e^eps) N tau <= " << to_decimal(c.hardened_charge, digits).upper
        << " (tau <= " << release_exact_text(c.tau_upper_per_cell) << " per cell), included in delta\n";
  }
  if (seeded) {
    err << "  randomness           SEEDED: a reproducible demo, NOT a private release (anyone with "
           "the seed can remove the noise)\n";
  }
}

ParsedArgs parse_release_args(Args args, std::vector<std::string>& columns,
                              std::vector<PerColumnValue>& per_column) {
  std::vector<std::string> without_columns;
  columns = take_columns(args, without_columns);
  std::vector<std::string> rest;
  per_column = take_per_column_values(without_columns, {"--sensitivity", "--granularity", "--round"}, rest);
  std::vector<OptionSpec> specs = {
      {"--mechanism", true},   {"--epsilon", true},  {"--delta", true},
      {"--sensitivity", true}, {"--contributions", true}, {"--hardened", false},
      {"--json", true},        {"--digits", true},   {"--max-input-bytes", true},
      {"--granularity", true}, {"--round", true},    {"--output", true},
  };
  for (const auto& s : seed_option_specs()) specs.push_back(s);
  for (const auto& s : help_option_specs()) specs.push_back(s);
  return ParsedArgs(Args(rest), specs);
}

// The command line as the operation's request (operations/release.h), which checks it all.
operations::ReleaseRequest release_request(const ParsedArgs& parsed, std::vector<std::string> columns,
                                           const std::vector<PerColumnValue>& per_column) {
  if (!parsed.positionals().empty()) {
    throw UsageError("release takes no positional argument ('" + parsed.positionals()[0] +
                     "'); the table is read on stdin (see --help)");
  }
  operations::ReleaseRequest r;
  r.columns = std::move(columns);
  r.mechanism = parsed.get("--mechanism");
  r.epsilon = parsed.get("--epsilon");
  r.delta = parsed.get("--delta");
  r.hardened = parsed.has("--hardened");
  r.sensitivity = parsed.get("--sensitivity");
  r.granularity = parsed.get("--granularity");
  r.round = parsed.get("--round");
  for (const PerColumnValue& v : per_column) r.per_column.push_back({parameter_name(v.option), v.column, v.value});
  r.contributions = parsed.get("--contributions");
  r.digits = parsed.get("--digits");
  r.max_input_bytes = parsed.get("--max-input-bytes");
  return r;
}

// Pass 2 into `out`; false (message on stderr) when the output or the input failed.
bool write_table(const ReleasePlan& plan, const ReleaseReport& report, mechanisms::TwoPassInput& input,
                 std::ostream& out, std::ostream& err, BitSource& bits) {
  try {
    operations::write_release_table(plan, report, input, out, bits);
  } catch (const mechanisms::ReleaseOutputError& e) {
    err << "exactdp release: " << e.what() << "\n";
    return false;
  } catch (const mechanisms::ReleaseInputChanged& e) {
    err << "exactdp release: " << e.what() << "\n";
    return false;
  }
  return true;
}
}  // namespace

int cmd_release(Args args, Io& io) {
  std::vector<std::string> columns;
  std::vector<PerColumnValue> per_column;
  const ParsedArgs parsed = parse_release_args(args, columns, per_column);
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  const ReleasePlan plan = operations::plan_release(release_request(parsed, std::move(columns), per_column));
  const std::optional<std::string> json_path = parsed.get("--json");
  const std::optional<std::string> output_path = parsed.get("--output");
  const bool real_stdin = &io.in == &std::cin;
  if (real_stdin) check_stdin_readable();
  if (real_stdin && &io.out == &std::cout && !output_path) check_stdout_is_not_stdin();
  // The output files: regular files or new paths, never an input of the run, never each other.
  check_output_paths(named_paths(parsed, {"--output", "--json"}), named_paths(parsed, {"--seed-file"}), real_stdin);
  // The output files are temporaries beside their targets until everything succeeded.
  std::unique_ptr<AtomicOutputFile> table_file;
  std::unique_ptr<AtomicOutputFile> json_file;
  if (output_path) table_file = std::make_unique<AtomicOutputFile>("--output", *output_path);
  if (json_path) json_file = std::make_unique<AtomicOutputFile>("--json", *json_path);
  const bool seeded = has_seed_option(parsed);
  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);

  // Pass 1: read and validate everything; nothing is written.
  const std::unique_ptr<mechanisms::TwoPassInput> input =
      real_stdin ? mechanisms::TwoPassInput::from_fd(STDIN_FILENO)
                 : mechanisms::TwoPassInput::from_stream(io.in);
  const ReleaseReport report = operations::scan_release(plan, *input);

  // Pass 2: write. A closed pipe must be an error with a message, not a silent SIGPIPE death.
  std::ostream& out = table_file ? table_file->stream() : io.out;
  if (&out == &std::cout) std::signal(SIGPIPE, SIG_IGN);
  if (!write_table(plan, report, *input, out, io.err, *bits)) return 1;
  if (json_file) json_file->stream() << guarantee_json(report, seeded, plan.digits).dump() << "\n";
  if (!commit_outputs(table_file.get(), json_file.get(), "release", io.err)) return 1;
  print_guarantee(io.err, report, seeded, plan.digits);
  return 0;
}

}  // namespace exactdp::cli
