// release_values.h — the release on in-memory columns: the C++ API of `exactdp release` for
// integer and fixed-point (decimal) data, without a CSV file.
//
// columns[c][r] is the value of column c in row r; every column must have the same length R.
// The contribution model, calibration and guarantee are exactly those of the CSV release
// (release_calibration.h; model.columns is set to columns.size()). Noise is drawn in the same
// order as the CSV release (row by row, columns left to right), so with the same seed a vector
// release and a CSV release of the same table give the same noisy values.
//
// release_integer_columns: adds the noise in place.
// release_decimal_columns: values are exact rationals; each is mapped to its grid index on
//   G Z exactly (cell_codec.h: refused with ParameterError naming "values" when not on the grid
//   under Rounding::kRefuse, else rounded to the nearest multiple, ties toward +infinity), the
//   sensitivity s (value units) becomes Delta = ceil(s / G) grid steps, integer noise is added
//   to the index and the result k' G returned as an exact rational (no floating point).
// release_columns: each column with its own grid and sensitivity (docs/RELEASE.md, "Per-column
//   sensitivity and grid"): a ColumnSpec without granularity is an integer column (its values
//   must be integers, its sensitivity an integer >= 1: Delta_c = s), one with granularity G is a
//   decimal column as above (Delta_c = ceil(s / G)). The calibration is the per-column one
//   (ContributionModel::column_sensitivities, always set here), in the order of `columns`.
// Errors: ParameterError (bad budget, model, granularity, ragged columns, values off the grid;
//   release_columns names the column by its index: "column 2: ...").
// Thread-safety: one call per BitSource at a time.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <vector>

#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

[[nodiscard]] ReleaseCalibration release_integer_columns(std::vector<std::vector<mpz_class>>& columns,
                                                         const ReleaseBudget& budget,
                                                         ContributionModel model, BitSource& bits);

[[nodiscard]] ReleaseCalibration release_decimal_columns(std::vector<std::vector<mpq_class>>& columns,
                                                         const mpq_class& granularity, Rounding rounding,
                                                         const mpq_class& sensitivity,
                                                         const ReleaseBudget& budget,
                                                         unsigned long contributions, BitSource& bits);

// How one column of release_columns is read: integers, or decimals on the grid G Z.
struct ColumnSpec {
  std::optional<mpq_class> granularity;  // none: an integer column
  Rounding rounding = Rounding::kRefuse;
  mpq_class sensitivity = 1;  // in the column's units: an integer >= 1 for an integer column
};

[[nodiscard]] ReleaseCalibration release_columns(std::vector<std::vector<mpq_class>>& columns,
                                                 const std::vector<ColumnSpec>& specs,
                                                 const ReleaseBudget& budget, unsigned long contributions,
                                                 BitSource& bits);

}  // namespace exactdp::mechanisms
