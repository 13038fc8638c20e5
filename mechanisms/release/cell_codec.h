// cell_codec.h — CellCodec: how a noised cell's text becomes an integer and back.
//
// integers(): cells are [+-]?[0-9]+ (at most max_digits digits), the integer itself; written
//   back in plain decimal.
// decimals(G, rounding): fixed-point data on the grid G Z (docs/RELEASE.md, "Decimal
//   (fixed-point) columns"). G is an exact rational > 0 whose denominator (in lowest terms) has
//   no prime factor other than 2 and 5 (0.01, 0.25, 1/1024 = 2^-10, 5, ...), so that every grid
//   point has a finite decimal expansion.
//   A cell is a plain decimal [+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+) (no exponent, no spaces, at most
//   max_digits digits) read EXACTLY as a rational x; its grid index is
//     Rounding::kRefuse  k = x / G, which must be an integer (else a CsvError with the line);
//     Rounding::kNearest k = floor(x / G + 1/2) (nearest grid point, ties toward +infinity).
//   The noisy index k' is written as the exact decimal k' G with exactly `decimals()` places,
//   the number of decimal places of G (0.01 -> 2, 2^-10 -> 10, 5 -> 0): "12.30", "-0.05".
//   No binary floating point anywhere: x, G and k' G are GMP integers and rationals.
// Sensitivity on the grid: a record that moves a value by at most s (value units) moves its grid
//   index by at most grid_sensitivity(s, G) = ceil(s / G) in both modes (for kNearest because
//   floor(u + 1/2) - floor(v + 1/2) <= ceil(u - v)), and K records moving one cell by at most
//   K s move its index by at most ceil(K s / G) <= K ceil(s / G); so the integer release on the
//   indices with Delta = ceil(s / G) has the guarantee stated in release_calibration.h.
// Errors: ParameterError naming granularity or sensitivity (decimals(), grid_sensitivity());
// CsvError naming the line and column (parse()). Thread-safety: immutable after construction.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace exactdp::mechanisms {

inline constexpr std::size_t kDefaultMaxCellDigits = 10'000;

enum class Rounding { kRefuse, kNearest };

class CellCodec {
 public:
  [[nodiscard]] static CellCodec integers(std::size_t max_digits = kDefaultMaxCellDigits);
  [[nodiscard]] static CellCodec decimals(const mpq_class& granularity, Rounding rounding,
                                          std::size_t max_digits = kDefaultMaxCellDigits);

  // The grid index of a cell (the integer itself for integers()). Throws CsvError at `line`.
  void parse(std::string_view value, std::uint64_t line, const std::string& column,
             mpz_class& index) const;
  // The text of a grid index (appends nothing else; `out` is overwritten).
  void format(const mpz_class& index, std::string& out) const;

  [[nodiscard]] const mpq_class& granularity() const noexcept { return granularity_; }
  [[nodiscard]] Rounding rounding() const noexcept { return rounding_; }
  [[nodiscard]] unsigned decimals() const noexcept { return decimals_; }
  [[nodiscard]] std::size_t max_digits() const noexcept { return max_digits_; }

 private:
  CellCodec() = default;
  bool decimal_ = false;
  mpq_class granularity_ = 1;
  Rounding rounding_ = Rounding::kRefuse;
  unsigned decimals_ = 0;
  mpz_class scale_;  // num(G) 10^decimals / den(G): k G = k scale_ / 10^decimals
  std::size_t max_digits_ = kDefaultMaxCellDigits;
};

// ceil(sensitivity / granularity); ParameterError naming sensitivity unless sensitivity > 0.
[[nodiscard]] mpz_class grid_sensitivity(const mpq_class& sensitivity, const mpq_class& granularity);

}  // namespace exactdp::mechanisms
