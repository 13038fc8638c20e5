// release.h — the operation `release`: calibrated exact noise on the integer and decimal columns
// of a table, all or nothing, with the certified guarantee of the whole release (docs/RELEASE.md,
// docs/DESIGN.md, "Operations"). Two inputs, one calibration (mechanisms/release/):
//   - a CSV table read twice (the command line, cli/cmd_release.cc): a ReleaseRequest holds the
//     options as text; plan_release checks them all before the table is read, scan_release reads
//     and checks the table and calibrates (pass 1), write_release_table writes it (pass 2);
//   - in-memory columns (Python's exactdp.release, python/src/release.cc): a ReleaseValuesRequest
//     holds each column's grid, rounding and sensitivity; plan_release_values checks them,
//     release_values calibrates and noises the values, and returns each noisy value as the text
//     the CSV release prints.
// Every check and limit is here: contributions 1..10^6 (kMaxContributions), 1..10^5 noised
// columns, epsilon <= 10^6, the input size limit, the draws' cost (check_release_cost); the text
// forms face by face differ only in the spelling of the parameters (operations/spelling.h).
//
// Example:
//   ReleaseRequest r{.columns = {"count"}, .mechanism = "discrete-laplace", .epsilon = "1"};
//   const ReleasePlan plan = plan_release(r);
//   const ReleaseReport report = scan_release(plan, *input);   // pass 1: nothing written
//   write_release_table(plan, report, *input, std::cout, bits);   // pass 2
#pragma once

#include <gmpxx.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <exactdp/mechanisms/release/byte_source.h>
#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/mechanisms/release/release_table.h>
#include <exactdp/mechanisms/release/release_values.h>
#include <exactdp/operations/spelling.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::operations {

// One per-column value, "NAME=VALUE" of the command line's --sensitivity, --granularity or
// --round: `option` is the parameter ("sensitivity", "granularity" or "round").
struct ReleaseColumnOption {
  std::string option;
  std::string column;
  std::string value;
};

struct ReleaseRequest {
  std::vector<std::string> columns{};      // header names to noise, at least one
  std::optional<std::string> mechanism{};  // a release law (required)
  std::optional<std::string> epsilon{};    // exact text, 0 < epsilon <= 10^6 (required)
  std::optional<std::string> delta{};      // exact text, 0 < delta < 1
  bool hardened = false;
  // The defaults of every column (or of the columns without a per-column value).
  std::optional<std::string> sensitivity{};  // an integer; with a grid, a rational in value units
  std::optional<std::string> granularity{};  // exact rational or 2^k: the decimal grid G Z
  std::optional<std::string> round{};        // "refuse" or "nearest"; only with a grid
  std::vector<ReleaseColumnOption> per_column{};
  std::optional<std::string> contributions{};    // 1..kMaxContributions (default 1)
  std::optional<std::string> digits{};           // significant digits printed, 1..1000 (default 20)
  std::optional<std::string> max_input_bytes{};  // 1..64 GiB (default 64 GiB)
  Spelling spelling = kCommandLineSpelling;
};

// A column's decimal grid G Z: its rounding and the sensitivity in value units.
struct ReleaseGrid {
  mpq_class granularity;
  mechanisms::Rounding rounding = mechanisms::Rounding::kRefuse;
  mpq_class sensitivity;
};

// One noised column of a release with per-column values: its grid (none: an integer column), its
// sensitivity in its own units and Delta in grid steps.
struct ReleaseColumn {
  std::optional<ReleaseGrid> grid;
  mpq_class sensitivity;
  mpz_class delta;
};

// Everything that can be checked before the table is read.
struct ReleasePlan {
  std::vector<std::string> columns;
  std::vector<ReleaseColumn> per_column;  // one per column (same order), with per-column values only
  mechanisms::ReleaseBudget budget;
  mechanisms::ContributionModel model;  // per-column sensitivities in `columns` order
  std::optional<ReleaseGrid> grid;      // the one grid of every column (no per-column values)
  mechanisms::ReleaseLimits limits;
  int digits = 20;

  // One codec per column (same order): the column's grid, or the integers.
  [[nodiscard]] std::vector<mechanisms::CellCodec> codecs() const;
};

// Checks, in this order: at least one column; mechanism, epsilon, delta; the grid, rounding and
// sensitivity of each column (a per-column value for a column not named is refused, as is one
// given twice, and a rounding without a grid); contributions; the budget and model together
// (mechanisms::validate_release); digits; max_input_bytes. ParameterError naming the parameter.
[[nodiscard]] ReleasePlan plan_release(const ReleaseRequest& request);

// What pass 1 learnt and the calibration: every field the guarantee prints.
struct ReleaseReport {
  mechanisms::TableScan scan;
  mechanisms::ReleaseCalibration calibration;  // its columns in header order (scan.noised)
  std::vector<std::string> noised;             // the noised columns' names, header order
  std::vector<ReleaseColumn> per_column;       // header order, with per-column values only
  std::optional<ReleaseGrid> grid;             // the plan's
  bool in_place = false;                       // the input is re-read in place (not spooled)
};

// Pass 1: reads and checks the whole table (CsvError with its line) and calibrates.
[[nodiscard]] ReleaseReport scan_release(const ReleasePlan& plan, mechanisms::TwoPassInput& input);

// Pass 2, from the first byte of the same input: the noisy table to `out`.
// mechanisms::ReleaseOutputError when `out` fails, ReleaseInputChanged when the input changed.
void write_release_table(const ReleasePlan& plan, const ReleaseReport& report, mechanisms::TwoPassInput& input,
                         std::ostream& out, BitSource& bits);

// One in-memory column's grid, rounding and sensitivity, as text.
struct ReleaseValuesColumn {
  std::optional<std::string> granularity{};  // none: an integer column
  std::string rounding = "refuse";           // "refuse" or "nearest"
  std::string sensitivity = "1";
};

struct ReleaseValuesRequest {
  std::string mechanism{};
  std::string epsilon{};
  std::optional<std::string> delta{};
  bool hardened = false;
  std::string contributions = "1";           // 1..kMaxContributions
  std::vector<ReleaseValuesColumn> columns{};  // in the draw order
};

// The checked budget, contributions and column grids.
struct ReleaseValuesPlan {
  mechanisms::ReleaseBudget budget;
  unsigned long contributions = 1;
  std::vector<mechanisms::ColumnSpec> specs;
};

// Checks the budget (law, epsilon, delta), contributions, then each column's granularity,
// rounding and sensitivity (their ranges: release_values). ParameterError naming the parameter.
[[nodiscard]] ReleaseValuesPlan plan_release_values(const ReleaseValuesRequest& request);

struct ReleaseValuesReport {
  mechanisms::ReleaseCalibration calibration;
  std::vector<std::vector<std::string>> values;  // per column: integers, or decimals with G's places
};

// values[c][r] (each column the same length) noised as the CSV release noises them, drawn row by
// row, the columns in order (mechanisms::release_columns): with the same seed, the same noisy
// values as the CSV release of the same table. ParameterError naming the parameter (a value's
// column by its index: "column 2: ...").
[[nodiscard]] ReleaseValuesReport release_values(const ReleaseValuesPlan& plan,
                                                 std::vector<std::vector<mpq_class>>& values, BitSource& bits);

// The budget of a release from its text: the law (a release law; with hardened, one with a
// hardened sampler), epsilon and delta parsed (their ranges: mechanisms::validate_release).
[[nodiscard]] mechanisms::ReleaseBudget checked_release_budget(const std::string& mechanism,
                                                               const std::string& epsilon,
                                                               const std::optional<std::string>& delta,
                                                               bool hardened);

// The cost limit of a release's draws (operations/draw_cost.h), checked once it is calibrated and
// before any noise is drawn: a draw's work grows with the digits of the noise parameter (scale =
// C K Delta / epsilon holds the digits of epsilon: --epsilon 1e-9999 draws 20,000 cells in 8 s),
// so the cells are refused (LimitError naming epsilon) when their draws would take over 4 s.
// Noise parameters under 1,000 digits are not limited here.
void check_release_cost(const mechanisms::ReleaseCalibration& calibration);

// The exact text of a release's numbers: exact_decimal, or p/q for a denominator too large to
// divide 10^2000.
[[nodiscard]] std::string release_exact_text(const mpq_class& q);

}  // namespace exactdp::operations
