// release_table.h — the two passes of `exactdp release`: scan (validate everything, count the
// rows) and write (copy the table, adding calibrated exact noise to the named integer columns).
//
// Contract (docs/RELEASE.md):
//   - input: RFC 4180 CSV (csv_reader.h) whose first record is the header; every data record
//     has as many fields as the header; every cell of a noised column is read by the CellCodec
//     (cell_codec.h): by default an integer [+-]?[0-9]+ of at most 10000 digits (any size: GMP
//     integers), bare or quoted ("12"), nothing else (no spaces, no decimal point, not empty);
//     with a decimal codec a plain decimal on (or rounded to) the grid G Z;
//   - all or nothing: scan_table reads and checks the WHOLE input before write_release writes a
//     byte; any problem is a CsvError naming the input line (exit 2, nothing on stdout);
//   - output: the same bytes in the same order (the BOM, the header, every field that is not
//     noised with its quoting, the record terminators CRLF / LF / none), except each noised
//     cell, whose grid index k becomes k + noise, written by the codec (inside quotes if the
//     cell was quoted);
//   - each noised cell gets one independent draw from the calibrated sampler
//     (release_calibration.h), drawn in row-major order (row by row, columns left to right),
//     so a seeded BitSource reproduces a release exactly.
// Errors: CsvError (bad input), ParameterError (bad request), ReleaseOutputError (the output
// stream failed: closed pipe, full disk), ReleaseInputChanged (pass 2 read different bytes).
// Thread-safety: one release per thread.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/mechanisms/release/byte_source.h>
#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

class ReleaseOutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ReleaseInputChanged : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReleaseLimits {
  CsvLimits csv;
};

// What pass 1 learnt.
struct TableScan {
  std::vector<std::string> header;        // the header's field values
  std::vector<std::size_t> noised;        // indices of the noised columns, in header order
  std::vector<std::size_t> requested;     // for each of `noised`: its index in scan_table's `columns`
  std::uint64_t rows = 0;                 // data records
  std::uint64_t bytes = 0;                // input bytes
};

// Pass 1. `columns` are the header names to noise (each must appear exactly once in the header
// and be named once). Throws CsvError for any problem, with its line.
// `codec` reads the noised cells (cell_codec.h: integers by default, or decimals on a grid).
[[nodiscard]] TableScan scan_table(ByteReader& input, const std::vector<std::string>& columns,
                                   const ReleaseLimits& limits = {},
                                   const CellCodec& codec = CellCodec::integers());

// Pass 1 with one codec per column: codecs[i] reads the cells of columns[i] (an integer column
// next to a decimal one). std::invalid_argument unless codecs.size() == columns.size().
[[nodiscard]] TableScan scan_table(ByteReader& input, const std::vector<std::string>& columns,
                                   const ReleaseLimits& limits, const std::vector<CellCodec>& codecs);

// Pass 2, from the first byte of the same input: writes the noisy table to `out`.
// The calibration's columns are the noised columns in header order (scan.noised): column j of
// the calibration (its noise_of(j)) noises header column scan.noised[j].
void write_release(ByteReader& input, std::ostream& out, const TableScan& scan,
                   const ReleaseCalibration& calibration, BitSource& bits,
                   const ReleaseLimits& limits = {},
                   const CellCodec& codec = CellCodec::integers());

// Pass 2 with one codec per column, as passed to scan_table (codecs[i] for columns[i]).
void write_release(ByteReader& input, std::ostream& out, const TableScan& scan,
                   const ReleaseCalibration& calibration, BitSource& bits,
                   const ReleaseLimits& limits, const std::vector<CellCodec>& codecs);

}  // namespace exactdp::mechanisms
