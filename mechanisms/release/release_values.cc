#include <exactdp/mechanisms/release/release_values.h>

#include <string>

#include <exactdp/mechanisms/release/internal/noise_drawer.h>
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

}  // namespace

ReleaseCalibration release_integer_columns(std::vector<std::vector<mpz_class>>& columns,
                                           const ReleaseBudget& budget, ContributionModel model,
                                           BitSource& bits) {
  const std::uint64_t rows = common_length(columns);
  model.columns = static_cast<unsigned long>(columns.size());
  ReleaseCalibration c = calibrate_release(budget, model, rows);
  internal::NoiseDrawer drawer(c);
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (auto& column : columns) drawer.add_noise(bits, column[r]);
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
    for (std::uint64_t r = 0; r < rows; ++r) {
      const mpq_class k = columns[c][r] / granularity;
      if (rounding == Rounding::kRefuse) {
        if (k.get_den() != 1) {
          throw ParameterError("values", "value " + abbreviate(to_string(columns[c][r])) + " (column " +
                                             std::to_string(c) + ", row " + std::to_string(r) +
                                             ") is not a multiple of the granularity " +
                                             abbreviate(to_string(granularity)));
        }
        index[c][r] = k.get_num();
      } else {
        // floor(k + 1/2) = floor((2 num + den) / (2 den)).
        const mpz_class twice = 2 * k.get_num() + k.get_den();
        const mpz_class d2 = 2 * k.get_den();
        mpz_fdiv_q(index[c][r].get_mpz_t(), twice.get_mpz_t(), d2.get_mpz_t());
      }
    }
  }
  ReleaseCalibration cal = calibrate_release(budget, model, rows);
  internal::NoiseDrawer drawer(cal);
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (auto& column : index) drawer.add_noise(bits, column[r]);
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    for (std::uint64_t r = 0; r < rows; ++r) columns[c][r] = mpq_class(index[c][r]) * granularity;
  }
  return cal;
}

}  // namespace exactdp::mechanisms
