#include <exactdp/mechanisms/release/release_values.h>

#include <string>

#include <exactdp/mechanisms/internal/noise_drawer.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

template <class T>
std::uint64_t common_length(const std::vector<std::vector<T>>& columns) {
  if (columns.empty()) {
    throw ParameterError::out_of_range("columns", "0", "1 to 100000 columns");
  }
  for (const auto& c : columns) {
    if (c.size() != columns[0].size()) {
      throw ParameterError("columns", "columns have different lengths (" + std::to_string(c.size()) +
                                          " and " + std::to_string(columns[0].size()) + " values)");
    }
  }
  return columns[0].size();
}

// The grid index of value on G Z: exact (refuse) or nearest, ties toward +infinity.
mpz_class grid_index(const mpq_class& value, const mpq_class& granularity, Rounding rounding, std::size_t c,
                     std::uint64_t r) {
  const mpq_class k = value / granularity;
  if (rounding == Rounding::kRefuse) {
    if (k.get_den() != 1) {
      throw ParameterError("values", "value " + abbreviate(to_string(value)) + " (column " + std::to_string(c) +
                                         ", row " + std::to_string(r) + ") is not a multiple of the granularity " +
                                         abbreviate(to_string(granularity)));
    }
    return k.get_num();
  }
  // floor(k + 1/2) = floor((2 num + den) / (2 den)).
  const mpz_class twice = 2 * k.get_num() + k.get_den();
  const mpz_class d2 = 2 * k.get_den();
  mpz_class out;
  mpz_fdiv_q(out.get_mpz_t(), twice.get_mpz_t(), d2.get_mpz_t());
  return out;
}

// Delta_c in grid steps for one column spec; ParameterError naming sensitivity (and the column).
mpz_class spec_sensitivity(const ColumnSpec& spec, std::size_t c) {
  if (spec.granularity) {
    (void)CellCodec::decimals(*spec.granularity, spec.rounding);  // checks G (naming granularity)
    return grid_sensitivity(spec.sensitivity, *spec.granularity);
  }
  if (spec.sensitivity.get_den() != 1 || sgn(spec.sensitivity) <= 0) {
    throw ParameterError("sensitivity", "column " + std::to_string(c) + ": sensitivity = " +
                                            abbreviate(to_string(spec.sensitivity)) +
                                            " is out of range: allowed an integer sensitivity >= 1 for an "
                                            "integer column (a column with a granularity takes a rational one)");
  }
  return spec.sensitivity.get_num();
}

}  // namespace

ReleaseCalibration release_integer_columns(std::vector<std::vector<mpz_class>>& columns,
                                           const ReleaseBudget& budget, ContributionModel model,
                                           BitSource& bits) {
  const std::uint64_t rows = common_length(columns);
  model.columns = static_cast<unsigned long>(columns.size());
  ReleaseCalibration c = calibrate_release(budget, model, rows);
  std::vector<internal::NoiseDrawer> drawers = internal::column_drawers(c, columns.size());
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::size_t i = 0; i < columns.size(); ++i) drawers[i].add_noise(bits, columns[i][r]);
  }
  return c;
}

ReleaseCalibration release_decimal_columns(std::vector<std::vector<mpq_class>>& columns,
                                           const mpq_class& granularity, Rounding rounding,
                                           const mpq_class& sensitivity, const ReleaseBudget& budget,
                                           unsigned long contributions, BitSource& bits) {
  (void)CellCodec::decimals(granularity, rounding);  // checks G (ParameterError naming granularity)
  const std::uint64_t rows = common_length(columns);
  ContributionModel model;
  model.sensitivity = grid_sensitivity(sensitivity, granularity);
  model.contributions = contributions;
  model.columns = static_cast<unsigned long>(columns.size());
  // Every value to its grid index first (all or nothing), then calibrate and noise.
  std::vector<std::vector<mpz_class>> index(columns.size(), std::vector<mpz_class>(rows));
  for (std::size_t c = 0; c < columns.size(); ++c) {
    for (std::uint64_t r = 0; r < rows; ++r) index[c][r] = grid_index(columns[c][r], granularity, rounding, c, r);
  }
  ReleaseCalibration cal = calibrate_release(budget, model, rows);
  std::vector<internal::NoiseDrawer> drawers = internal::column_drawers(cal, index.size());
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::size_t i = 0; i < index.size(); ++i) drawers[i].add_noise(bits, index[i][r]);
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    for (std::uint64_t r = 0; r < rows; ++r) columns[c][r] = mpq_class(index[c][r]) * granularity;
  }
  return cal;
}

ReleaseCalibration release_columns(std::vector<std::vector<mpq_class>>& columns, const std::vector<ColumnSpec>& specs,
                                   const ReleaseBudget& budget, unsigned long contributions, BitSource& bits) {
  const std::uint64_t rows = common_length(columns);
  if (specs.size() != columns.size()) {
    throw ParameterError("columns", std::to_string(specs.size()) + " column specs for " +
                                        std::to_string(columns.size()) + " columns: allowed one per column");
  }
  ContributionModel model;
  model.contributions = contributions;
  model.columns = static_cast<unsigned long>(columns.size());
  for (std::size_t c = 0; c < specs.size(); ++c) model.column_sensitivities.push_back(spec_sensitivity(specs[c], c));
  // Every value to its index first (all or nothing), then calibrate and noise.
  std::vector<std::vector<mpz_class>> index(columns.size(), std::vector<mpz_class>(rows));
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const mpq_class grid = specs[c].granularity.value_or(1);
    const Rounding rounding = specs[c].granularity ? specs[c].rounding : Rounding::kRefuse;
    for (std::uint64_t r = 0; r < rows; ++r) index[c][r] = grid_index(columns[c][r], grid, rounding, c, r);
  }
  ReleaseCalibration cal = calibrate_release(budget, model, rows);
  std::vector<internal::NoiseDrawer> drawers = internal::column_drawers(cal, columns.size());
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < columns.size(); ++c) drawers[c].add_noise(bits, index[c][r]);
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const mpq_class grid = specs[c].granularity.value_or(1);
    for (std::uint64_t r = 0; r < rows; ++r) columns[c][r] = mpq_class(index[c][r]) * grid;
  }
  return cal;
}

}  // namespace exactdp::mechanisms
