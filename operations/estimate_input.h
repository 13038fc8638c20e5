// estimate_input.h — the rows of the operation `estimate sparse-mean`: an RFC 4180 CSV (the reader
// of `release`, mechanisms/release/csv_reader.h) whose header names the d coordinates and whose
// every other record is one row of d numbers, reduced in one pass to the truncated grid column
// sums S_j = sum_i clamp(round_half_even(x_ij 2^k), -B, B) that sparse_mean_from_column_sums
// takes (mechanisms/estimation/sparse_mean.h). Nothing else of the data is kept: memory is O(d).
//
// Values are read EXACTLY as decimals: [+-]?(digits[.digits*] | .digits)([eE][+-]?digits)?, at
// most 10,000 mantissa digits, any exponent ("1e-999999999" is 0 on any grid the radius allows,
// "1e999999999" is clamped to +-B, both without arithmetic on the exponent's size). No NaN, inf,
// hex, spaces or empty cells. The exact decimal x is mapped to the grid without passing through a
// double: round half to even of x 2^k, then clamped to [-B, B] — the map sparse_mean applies to a
// double, so a decimal that is a double gives the same S_j, bit for bit. Each c_ij is in
// [-B, B] whatever the text, which is all the privacy argument needs.
// Errors: CsvError (a ParameterError, exit 2) naming the input line and, for a value, the column:
// malformed CSV, a row whose field count is not d, a bad value, an empty or repeated header name,
// no data row. Cost: linear in the input (int128 arithmetic for values of at most 18 digits and a
// grid exponent in [0, 64]; GMP otherwise, on numbers of at most the cell's digits plus ~1,300).
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <exactdp/mechanisms/release/byte_source.h>
#include <exactdp/mechanisms/release/csv_reader.h>

namespace exactdp::operations {

// One exact decimal to clamp(round_half_even(x 2^k), -bound, bound), 1 <= bound < 2^62.
class DecimalGridMap {
 public:
  // radius: the public R with bound = floor(R 2^k) (sets the size above which a value is
  // clamped without arithmetic).
  DecimalGridMap(long exponent, std::int64_t bound, const mpq_class& radius);
  // The grid value of `text`; false (and `value` unchanged) when text is not a decimal as above.
  [[nodiscard]] bool map(std::string_view text, std::int64_t& value) const;

 private:
  long k_;
  std::int64_t bound_;
  long radius_digits_;  // D with 10^D > R
};

struct GridColumnSums {
  std::vector<std::string> names;  // the header's values, in order
  std::vector<mpz_class> sums;     // S_j
  std::uint64_t rows = 0;          // n
};

// Called once the header is read (d known), before any row: where a command refuses work it
// cannot serve (a cost limit on d) without reading the data.
using HeaderCheck = std::function<void(std::size_t columns)>;

// Reads the whole table; on_header (if set) is called with the number of columns.
[[nodiscard]] GridColumnSums read_grid_column_sums(mechanisms::ByteReader& in, const DecimalGridMap& map,
                                                   const mechanisms::CsvLimits& limits,
                                                   const HeaderCheck& on_header = {});

}  // namespace exactdp::operations
