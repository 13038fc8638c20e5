// exactdp release — the main job: calibrated exact noise on the integer columns of a CSV table,
// all or nothing, with the certified guarantee of the whole release on stderr (and in --json).
// The library does the work (mechanisms/release/); this file parses options and prints.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/accounting_options.h"
#include "cli/atomic_output.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/seed_option.h"
#include "cli/sensitivity_options.h"
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/decimal.h>
#include <exactdp/mechanisms/release/byte_source.h>
#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/mechanisms/release/release_table.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {


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

// exactdp::exact_decimal, except for a denominator too large to divide 10^2000 (p/q then).
std::string exact_text(const mpq_class& q) {
  if (mpz_sizeinbase(q.get_den_mpz_t(), 2) > 6700) return to_string(q);
  return exactdp::exact_decimal(q);
}

// --granularity, --round and the sensitivity in value units.
struct GridChoice {
  mpq_class granularity;
  mechanisms::Rounding rounding = mechanisms::Rounding::kRefuse;
  mpq_class sensitivity;
};

// One noised column of a per-column release: its grid (none: an integer column), its
// sensitivity in its own units and Delta in grid steps.
struct ColumnChoice {
  std::optional<GridChoice> grid;
  mpq_class sensitivity;  // value units (an integer for an integer column)
  mpz_class delta;        // grid steps
};

// An exact rational (parse_rational), or 2^k written "2^k" / "2^-k" with |k| <= 10000.
mpq_class parse_granularity(const std::string& text) {
  if (text.rfind("2^", 0) == 0) {
    const mpz_class k = parse_integer("granularity", text.substr(2));
    if (abs(k) > 10'000) {
      throw ParameterError::out_of_range("granularity", abbreviate(text), "2^k with |k| <= 10000");
    }
    return power_of_two(k.get_si());
  }
  return parse_rational("granularity", text);
}

void describe_grid(JsonValue& j, const std::optional<GridChoice>& grid, const mechanisms::ReleaseCalibration& c) {
  if (!grid) {
    j.set("granularity", JsonValue::null());
    return;
  }
  j.set("granularity", exact_text(grid->granularity));
  j.set("rounding", grid->rounding == mechanisms::Rounding::kNearest ? "nearest (ties toward +infinity)" : "refuse");
  j.set("sensitivity_value_units", exact_text(grid->sensitivity));
  j.set("sensitivity_grid_steps", to_string(c.model.sensitivity));
}

// A registry law the release serves (ParameterError naming mechanism for an unknown name,
// UnsupportedError naming law for a law without a release route).
std::string parse_mechanism(const std::string& name) { return mechanisms::release_law(name).name(); }

// One noised column's entry of the JSON report; `own` (per-column options only) adds its
// sensitivity, grid and rounding.
JsonValue column_json(const mechanisms::ReleaseCalibration& c, std::size_t i, const std::string& name,
                      const std::optional<GridChoice>& grid, const ColumnChoice* own) {
  JsonValue col = JsonValue::object();
  col.set("column", name);
  col.set("mechanism", c.budget.mechanism);
  if (own != nullptr) {
    col.set("sensitivity", to_string(own->delta));
    col.set("granularity", grid ? JsonValue(exact_text(grid->granularity)) : JsonValue::null());
    if (grid) {
      col.set("rounding", grid->rounding == mechanisms::Rounding::kNearest ? "nearest (ties toward +infinity)" : "refuse");
      col.set("sensitivity_value_units", exact_text(grid->sensitivity));
    }
  }
  const mpq_class& noise = c.noise_of(i);
  if (c.parameter == "sigma2") {
    col.set("sigma2", exact_text(noise));
    if (grid) col.set("sigma2_value_units", exact_text(noise * grid->granularity * grid->granularity));
  } else {
    col.set("scale", exact_text(noise));
    if (grid) col.set("scale_value_units", exact_text(noise * grid->granularity));
  }
  if (own != nullptr && c.budget.hardened) col.set("tau_upper", to_string(c.column_tau_upper[i]));
  return col;
}

JsonValue guarantee_json(const mechanisms::ReleaseCalibration& c,
                         const std::vector<std::string>& columns, bool seeded, bool in_place,
                         int digits, const std::optional<GridChoice>& grid,
                         const std::vector<ColumnChoice>& per_column) {
  JsonValue j = JsonValue::object();
  j.set("command", "release");
  j.set("mechanism", c.budget.mechanism);
  j.set("hardened", c.budget.hardened);
  JsonValue requested = JsonValue::object();
  requested.set("epsilon", exact_text(c.budget.epsilon));
  requested.set("delta", c.budget.delta ? JsonValue(exact_text(*c.budget.delta)) : JsonValue::null());
  j.set("requested", requested);
  j.set("epsilon", JsonValue::interval(c.epsilon, c.epsilon_exact, digits));
  j.set("delta", JsonValue::interval(c.delta, c.delta_exact, digits));
  j.set("epsilon_exact", c.epsilon_exact ? JsonValue(exact_text(*c.epsilon_exact)) : JsonValue::null());
  j.set("delta_exact", c.delta_exact ? JsonValue(exact_text(*c.delta_exact)) : JsonValue::null());
  j.set("rho_zcdp", c.rho ? JsonValue(exact_text(*c.rho)) : JsonValue::null());
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
  j.set("input", in_place ? "regular file, read twice in place" : "spooled to a temporary file");
  return j;
}

// The report's per-column lines of a release with per-column options: law, noise parameter,
// Delta and grid of each column.
void print_column_lines(std::ostream& err, const mechanisms::ReleaseCalibration& c,
                        const std::vector<std::string>& columns, const std::vector<ColumnChoice>& per_column) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const ColumnChoice& own = per_column[i];
    err << "  column " << columns[i] << ": " << c.budget.mechanism << (c.budget.hardened ? " (hardened)" : "")
        << ", " << c.parameter << " = " << exact_text(c.noise_of(i));
    if (!own.grid) {
      err << ", Delta = " << to_string(own.delta) << " (integer column)\n";
      continue;
    }
    const GridChoice& g = *own.grid;
    err << " grid steps, Delta = ceil(" << exact_text(g.sensitivity) << " / G) = " << to_string(own.delta)
        << " grid steps; decimal grid G = " << exact_text(g.granularity) << ", values "
        << (g.rounding == mechanisms::Rounding::kNearest ? "rounded to the nearest multiple (ties up)"
                                                         : "must be multiples of G")
        << "\n";
  }
}

void print_guarantee(std::ostream& err, const mechanisms::ReleaseCalibration& c,
                     const std::vector<std::string>& columns, bool seeded, int digits,
                     const std::optional<GridChoice>& grid, const std::vector<ColumnChoice>& per_column) {
  using exactdp::to_decimal;
  const bool gaussian = c.parameter == "sigma2";
  err << "exactdp release: guarantee of the whole release (certified upper ends, rounded up)\n";
  const std::string eps_text = c.epsilon_exact ? exact_text(*c.epsilon_exact) : to_decimal(c.epsilon, digits).upper;
  const std::string delta_text = c.delta_exact ? exact_text(*c.delta_exact) : to_decimal(c.delta, digits).upper;
  err << "  (epsilon, delta)-DP  epsilon <= " << eps_text << ", delta <= " << delta_text
      << "  (requested epsilon = "
      << abbreviate(exact_text(c.budget.epsilon)) << ", delta = "
      << (c.budget.delta ? abbreviate(exact_text(*c.budget.delta)) : std::string("0")) << ")\n";
  err << "  rho-zCDP             "
      << (c.rho ? "rho = " + exact_text(*c.rho) + (gaussian ? "" : " (epsilon^2/2, BS16 Prop. 3.3)")
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
    err << "  decimal grid         G = " << exact_text(grid->granularity) << ", values "
        << (grid->rounding == mechanisms::Rounding::kNearest ? "rounded to the nearest multiple (ties up)"
                                                             : "must be multiples of G")
        << "; sensitivity " << exact_text(grid->sensitivity) << " = Delta = ceil(s/G) = "
        << to_string(c.model.sensitivity) << " grid steps; noise below is in grid steps\n";
  }
  err << "  composition route    " << c.route << ": " << c.route_detail << "\n";
  if (!per_column.empty()) print_column_lines(err, c, columns, per_column);
  for (std::size_t i = 0; i < columns.size() && per_column.empty(); ++i) {
    const std::string& name = columns[i];
    err << "  column " << name << ": " << c.budget.mechanism
        << (c.budget.hardened ? " (hardened)" : "") << ", "
        << (gaussian ? "sigma2 = " + exact_text(c.sigma2) : "scale = " + exact_text(c.scale)) << "\n";
  }
  err << "  cells noised         " << c.cells << "\n";
  if (c.budget.hardened) {
    err << "  hardened charge      (1 + e^eps) N tau <= " << to_decimal(c.hardened_charge, digits).upper
        << " (tau <= " << exact_text(c.tau_upper_per_cell) << " per cell), included in delta\n";
  }
  if (seeded) {
    err << "  randomness           SEEDED: a reproducible demo, NOT a private release (anyone with "
           "the seed can remove the noise)\n";
  }
}

// Everything of the command line that can be checked before reading the table.
struct ReleaseOptions {
  std::vector<std::string> columns;
  std::vector<ColumnChoice> per_column;  // per --column (same order), with per-column options only
  mechanisms::ReleaseBudget budget;
  mechanisms::ContributionModel model;
  std::optional<GridChoice> grid;
  mechanisms::ReleaseLimits limits;
  int digits = 20;
  std::optional<std::string> json_path;
  std::optional<std::string> output_path;
};

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

mechanisms::Rounding parse_round(const std::string& round) {
  if (round != "refuse" && round != "nearest") {
    throw ParameterError("round", "round = " + abbreviate(round) + " is not known: allowed refuse or nearest");
  }
  return round == "nearest" ? mechanisms::Rounding::kNearest : mechanisms::Rounding::kRefuse;
}

// --granularity, --round and --sensitivity into opts.grid and opts.model.sensitivity.
void parse_grid_options(const ParsedArgs& parsed, ReleaseOptions& opts) {
  if (const auto g = parsed.get("--granularity")) {
    GridChoice& grid = opts.grid.emplace();
    grid.granularity = parse_granularity(*g);
    grid.rounding = parse_round(parsed.get("--round").value_or("refuse"));
    grid.sensitivity = parsed.rational("--sensitivity").value_or(1);
    (void)mechanisms::CellCodec::decimals(grid.granularity, grid.rounding);  // checks G now
    opts.model.sensitivity = mechanisms::grid_sensitivity(grid.sensitivity, grid.granularity);
  } else {
    if (parsed.has("--round")) throw UsageError("--round needs --granularity");
    if (const auto s = parsed.integer("--sensitivity")) opts.model.sensitivity = *s;
  }
}

using ColumnValues = std::map<std::string, std::string>;  // option -> value for one column

// The per-column options by column, each naming a --column at most once per option.
std::map<std::string, ColumnValues> per_column_table(const std::vector<PerColumnValue>& values,
                                                     const std::vector<std::string>& columns) {
  std::map<std::string, ColumnValues> out;
  for (const PerColumnValue& v : values) {
    if (std::find(columns.begin(), columns.end(), v.column) == columns.end()) {
      throw ParameterError("column", "column '" + v.column + "' (in " + v.option + " " + v.column + "=" +
                                         abbreviate(v.value) + ") is not a noised column: name it with --column");
    }
    if (!out[v.column].emplace(v.option, v.value).second) {
      throw UsageError("option " + v.option + " given more than once for column '" + v.column + "'");
    }
  }
  return out;
}

// Column `name`'s grid and sensitivity: its own options, else the global ones, else an integer
// column of sensitivity 1. Errors name the column.
ColumnChoice column_choice(const std::string& name, const ColumnValues& own, const ParsedArgs& parsed) {
  auto get = [&](const std::string& option) -> std::optional<std::string> {
    const auto it = own.find(option);
    return it != own.end() ? std::optional<std::string>(it->second) : parsed.get(option);
  };
  ColumnChoice c;
  try {
    if (const auto g = get("--granularity")) {
      GridChoice& grid = c.grid.emplace();
      grid.granularity = parse_granularity(*g);
      grid.rounding = parse_round(get("--round").value_or("refuse"));
      grid.sensitivity = parse_rational("sensitivity", get("--sensitivity").value_or("1"));
      (void)mechanisms::CellCodec::decimals(grid.granularity, grid.rounding);  // checks G now
      c.sensitivity = grid.sensitivity;
      c.delta = mechanisms::grid_sensitivity(grid.sensitivity, grid.granularity);
    } else {
      if (own.count("--round") != 0) {
        throw UsageError("--round " + name + "=... needs a granularity for column '" + name + "'");
      }
      c.delta = parse_integer("sensitivity", get("--sensitivity").value_or("1"));
      accounting::require_integer_sensitivity(c.delta);
      c.sensitivity = c.delta;
    }
  } catch (const ParameterError& e) {
    throw ParameterError(e.parameter(), "column '" + name + "': " + e.what());
  }
  return c;
}

// Per-column options: opts.per_column (one per --column) and the per-column model.
void parse_column_options(const ParsedArgs& parsed, const std::vector<PerColumnValue>& values,
                          ReleaseOptions& opts) {
  const std::map<std::string, ColumnValues> table = per_column_table(values, opts.columns);
  bool any_grid = false;
  for (const std::string& name : opts.columns) {
    const auto it = table.find(name);
    opts.per_column.push_back(column_choice(name, it != table.end() ? it->second : ColumnValues{}, parsed));
    opts.model.column_sensitivities.push_back(opts.per_column.back().delta);
    any_grid = any_grid || opts.per_column.back().grid.has_value();
  }
  if (parsed.has("--round") && !any_grid) throw UsageError("--round needs --granularity");
}

ReleaseOptions parse_release_options(const ParsedArgs& parsed, std::vector<std::string> columns,
                                     const std::vector<PerColumnValue>& per_column) {
  if (!parsed.positionals().empty()) {
    throw UsageError("release takes no positional argument ('" + parsed.positionals()[0] +
                     "'); the table is read on stdin (see --help)");
  }
  if (columns.empty()) throw UsageError("release needs at least one --column NAME to noise");
  ReleaseOptions opts;
  opts.columns = std::move(columns);
  opts.budget.mechanism = parse_mechanism(parsed.require("--mechanism"));
  opts.budget.epsilon = parsed.require_rational("--epsilon");
  opts.budget.delta = parsed.rational("--delta");
  opts.budget.hardened = parsed.has("--hardened");
  if (per_column.empty()) {
    parse_grid_options(parsed, opts);
  } else {
    parse_column_options(parsed, per_column, opts);
  }
  opts.model.contributions = static_cast<unsigned long>(
      parsed.count("--contributions", 1, mechanisms::kMaxContributions).value_or(1));
  opts.model.columns = static_cast<unsigned long>(opts.columns.size());
  mechanisms::validate_release(opts.budget, opts.model);
  opts.digits = digits_option(parsed, 1000);
  if (const auto n = parsed.count("--max-input-bytes", 1, opts.limits.csv.max_input_bytes)) {
    opts.limits.csv.max_input_bytes = *n;
  }
  opts.json_path = parsed.get("--json");
  opts.output_path = parsed.get("--output");
  return opts;
}

// Pass 2 into `out`; false (message on stderr) when the output or the input failed.
bool write_table(mechanisms::TwoPassInput& input, std::ostream& out, std::ostream& err,
                 const mechanisms::TableScan& scan, const mechanisms::ReleaseCalibration& calibration,
                 BitSource& bits, const ReleaseOptions& opts, const std::vector<mechanisms::CellCodec>& codecs) {
  input.rewind();
  try {
    mechanisms::write_release(input, out, scan, calibration, bits, opts.limits, codecs);
  } catch (const mechanisms::ReleaseOutputError& e) {
    err << "exactdp release: " << e.what() << "\n";
    return false;
  } catch (const mechanisms::ReleaseInputChanged& e) {
    err << "exactdp release: " << e.what() << "\n";
    return false;
  }
  return true;
}

// One codec per --column (same order): the column's grid, or the integers.
std::vector<mechanisms::CellCodec> column_codecs(const ReleaseOptions& opts) {
  std::vector<mechanisms::CellCodec> out;
  for (std::size_t i = 0; i < opts.columns.size(); ++i) {
    const std::optional<GridChoice>& grid = opts.per_column.empty() ? opts.grid : opts.per_column[i].grid;
    out.push_back(grid ? mechanisms::CellCodec::decimals(grid->granularity, grid->rounding)
                       : mechanisms::CellCodec::integers());
  }
  return out;
}

// The model in the draw order (header order, scan.noised) and, per column, the choices in it.
mechanisms::ContributionModel model_in_header_order(const ReleaseOptions& opts, const mechanisms::TableScan& scan,
                                                    std::vector<ColumnChoice>& ordered) {
  mechanisms::ContributionModel model = opts.model;
  if (opts.per_column.empty()) return model;
  model.column_sensitivities.clear();
  for (const std::size_t i : scan.requested) {
    ordered.push_back(opts.per_column[i]);
    model.column_sensitivities.push_back(opts.per_column[i].delta);
  }
  return model;
}

}  // namespace

int cmd_release(Args args, Io& io) {
  std::vector<std::string> columns;
  std::vector<PerColumnValue> per_column;
  const ParsedArgs parsed = parse_release_args(args, columns, per_column);
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  const ReleaseOptions opts = parse_release_options(parsed, std::move(columns), per_column);
  const bool real_stdin = &io.in == &std::cin;
  // The output files: regular files or new paths, never an input of the run, never each other.
  check_output_paths(named_paths(parsed, {"--output", "--json"}), named_paths(parsed, {"--seed-file"}), real_stdin);
  // The output files are temporaries beside their targets until everything succeeded.
  std::unique_ptr<AtomicOutputFile> table_file;
  std::unique_ptr<AtomicOutputFile> json_file;
  if (opts.output_path) table_file = std::make_unique<AtomicOutputFile>("--output", *opts.output_path);
  if (opts.json_path) json_file = std::make_unique<AtomicOutputFile>("--json", *opts.json_path);
  const bool seeded = has_seed_option(parsed);
  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);

  // Pass 1: read and validate everything; nothing is written.
  const std::unique_ptr<mechanisms::TwoPassInput> input =
      real_stdin ? mechanisms::TwoPassInput::from_fd(STDIN_FILENO)
                 : mechanisms::TwoPassInput::from_stream(io.in);
  const std::vector<mechanisms::CellCodec> codecs = column_codecs(opts);
  const mechanisms::TableScan scan = mechanisms::scan_table(*input, opts.columns, opts.limits, codecs);
  std::vector<ColumnChoice> ordered;  // per-column options only: each noised column's, header order
  const mechanisms::ReleaseCalibration calibration =
      mechanisms::calibrate_release(opts.budget, model_in_header_order(opts, scan, ordered), scan.rows);

  // Pass 2: write. A closed pipe must be an error with a message, not a silent SIGPIPE death.
  std::ostream& out = table_file ? table_file->stream() : io.out;
  if (&out == &std::cout) std::signal(SIGPIPE, SIG_IGN);
  if (!write_table(*input, out, io.err, scan, calibration, *bits, opts, codecs)) return 1;
  std::vector<std::string> noised_names;
  for (const std::size_t i : scan.noised) noised_names.push_back(scan.header[i]);
  if (json_file) {
    json_file->stream() << guarantee_json(calibration, noised_names, seeded, input->rereads_in_place(),
                                          opts.digits, opts.grid, ordered)
                               .dump()
                        << "\n";
  }
  if (!commit_outputs(table_file.get(), json_file.get(), "release", io.err)) return 1;
  print_guarantee(io.err, calibration, noised_names, seeded, opts.digits, opts.grid, ordered);
  return 0;
}

}  // namespace exactdp::cli
