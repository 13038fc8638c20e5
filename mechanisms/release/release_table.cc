#include <exactdp/mechanisms/release/release_table.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>

#include <exactdp/mechanisms/internal/noise_drawer.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

constexpr const char kBom[] = "\xEF\xBB\xBF";

void check_output(std::ostream& out) {
  if (!out) {
    const int e = errno;
    throw ReleaseOutputError(std::string("error writing the output") +
                             (e != 0 ? std::string(": ") + std::strerror(e) : std::string()) +
                             " (the released table is incomplete)");
  }
}

}  // namespace

TableScan scan_table(ByteReader& input, const std::vector<std::string>& columns,
                     const ReleaseLimits& limits, const CellCodec& codec) {
  return scan_table(input, columns, limits, std::vector<CellCodec>(columns.size(), codec));
}

TableScan scan_table(ByteReader& input, const std::vector<std::string>& columns,
                     const ReleaseLimits& limits, const std::vector<CellCodec>& codecs) {
  if (codecs.size() != columns.size()) throw std::invalid_argument("scan_table: one codec per column");
  CsvReader reader(input, limits.csv);
  CsvRecord record;
  TableScan scan;
  if (!reader.next(record)) {
    throw CsvError(1, "the input is empty: a header row naming the columns is required");
  }
  const std::uint64_t header_line = record.line;
  for (std::size_t i = 0; i < record.fields.size(); ++i) scan.header.push_back(record.value(i));
  for (std::size_t a = 0; a < columns.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      if (columns[a] == columns[b]) {
        throw ParameterError("column", "column '" + columns[a] + "' is named twice");
      }
    }
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < scan.header.size(); ++i) {
      if (scan.header[i] != columns[a]) continue;
      if (found) {
        throw CsvError(header_line, "column '" + columns[a] +
                                        "' appears more than once in the header");
      }
      found = i;
    }
    if (!found) {
      throw CsvError(header_line, "no column named '" + columns[a] + "' in the header (" +
                                      std::to_string(scan.header.size()) + " columns)");
    }
    scan.noised.push_back(*found);
  }
  // Header order, so pass 2 walks each record left to right.
  std::vector<std::size_t> order(columns.size());
  for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scan.noised[a] < scan.noised[b]; });
  const std::vector<std::size_t> found = scan.noised;
  for (std::size_t j = 0; j < order.size(); ++j) scan.noised[j] = found[order[j]];
  scan.requested = order;
  mpz_class value;
  while (reader.next(record)) {
    if (record.fields.size() != scan.header.size()) {
      const bool empty_line = record.raw.empty();
      throw CsvError(record.line,
                     (empty_line ? std::string("an empty line") :
                                   "a ragged row of " + std::to_string(record.fields.size()) + " fields") +
                         " (the header has " + std::to_string(scan.header.size()) + ")");
    }
    for (std::size_t j = 0; j < scan.noised.size(); ++j) {
      const std::size_t i = scan.noised[j];
      codecs[scan.requested[j]].parse(record.value(i), record.line, scan.header[i], value);
    }
    ++scan.rows;
  }
  scan.bytes = reader.bytes_read();
  return scan;
}

void write_release(ByteReader& input, std::ostream& out, const TableScan& scan,
                   const ReleaseCalibration& calibration, BitSource& bits,
                   const ReleaseLimits& limits, const CellCodec& codec) {
  write_release(input, out, scan, calibration, bits, limits, std::vector<CellCodec>(scan.noised.size(), codec));
}

void write_release(ByteReader& input, std::ostream& out, const TableScan& scan,
                   const ReleaseCalibration& calibration, BitSource& bits,
                   const ReleaseLimits& limits, const std::vector<CellCodec>& codecs) {
  if (codecs.size() != scan.noised.size() ||
      (!calibration.column_noise.empty() && calibration.column_noise.size() != scan.noised.size())) {
    throw std::invalid_argument("write_release: one codec and one calibrated column per noised column");
  }
  std::vector<internal::NoiseDrawer> drawers = internal::column_drawers(calibration, scan.noised.size());
  CsvReader reader(input, limits.csv);
  CsvRecord record;
  auto changed = [](std::uint64_t line) {
    return ReleaseInputChanged("the input changed between the two passes (at line " +
                               std::to_string(line) + "); the released table is incomplete");
  };
  if (!reader.next(record)) throw changed(1);
  errno = 0;
  if (reader.has_bom()) out.write(kBom, 3);
  out.write(record.raw.data(), static_cast<std::streamsize>(record.raw.size()));
  out.write(record.terminator.data(), static_cast<std::streamsize>(record.terminator.size()));
  check_output(out);
  mpz_class value;
  std::string text;
  std::uint64_t rows = 0;
  while (reader.next(record)) {
    if (++rows > scan.rows || record.fields.size() != scan.header.size()) throw changed(record.line);
    std::size_t copied = 0;  // bytes of record.raw written so far
    for (std::size_t j = 0; j < scan.noised.size(); ++j) {
      const std::size_t i = scan.noised[j];
      const CellCodec& codec = codecs[scan.requested[j]];
      const CsvField& f = record.fields[i];
      out.write(record.raw.data() + copied, static_cast<std::streamsize>(f.begin - copied));
      try {
        codec.parse(record.value(i), record.line, scan.header[i], value);
      } catch (const CsvError&) {
        throw changed(record.line);
      }
      drawers[j].add_noise(bits, value);
      codec.format(value, text);
      if (f.quoted) out.put('"');
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      if (f.quoted) out.put('"');
      copied = f.end;
    }
    out.write(record.raw.data() + copied, static_cast<std::streamsize>(record.raw.size() - copied));
    out.write(record.terminator.data(), static_cast<std::streamsize>(record.terminator.size()));
    check_output(out);
  }
  if (rows != scan.rows) throw changed(reader.line());
  out.flush();
  check_output(out);
}

}  // namespace exactdp::mechanisms
