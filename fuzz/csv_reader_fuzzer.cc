// csv_reader_fuzzer — the RFC 4180 reader of `exactdp release` (mechanisms/release/csv_reader.h)
// and the release's validating pass.
//
// Input: one byte c (the reader is fed at most 1 + c % 16 bytes per read, so records and quotes
// straddle buffer ends), then the CSV text. Invariants:
//   * the reader either reads everything or throws CsvError, nothing else; an error's line is
//     between 1 and 1 + the number of LF bytes;
//   * on success the records' raw bytes and terminators, after the BOM when has_bom(), rebuild
//     the input exactly (byte-for-byte preservation), every record has >= 1 field, and every
//     field's value survives csv_quote_if_needed and a second read;
//   * every field value that a CellCodec (integers; decimals on G = 0.01 or 2^-3, refuse and
//     nearest) accepts is written back by format() as text the codec reads to the same index;
//   * scan_table on the same text (noising the header's first column) either succeeds with
//     rows = records - 1 or throws ParameterError (a CsvError for input problems).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/chunk_reader.h"
#include "fuzz/fuzz_support.h"
#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/mechanisms/release/release_table.h>

namespace {

using exactdp::fuzz::ChunkReader;
using exactdp::mechanisms::CsvError;
using exactdp::mechanisms::CsvReader;
using exactdp::mechanisms::CsvRecord;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t chunk = 1 + data[0] % 16;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::uint64_t lfs = 0;
  for (const char ch : text) lfs += ch == '\n';

  std::vector<CsvRecord> records;
  bool bom = false;
  try {
    ChunkReader in(text, chunk);
    CsvReader reader(in);
    CsvRecord r;
    while (reader.next(r)) records.push_back(r);
    bom = reader.has_bom();
  } catch (const CsvError& e) {
    FUZZ_CHECK(e.line() >= 1 && e.line() <= lfs + 1, "error line out of range");
    return 0;
  }
  std::string rebuilt = bom ? "\xEF\xBB\xBF" : "";
  for (const auto& r : records) {
    FUZZ_CHECK(!r.fields.empty(), "a record without fields");
    rebuilt += r.raw;
    rebuilt += r.terminator;
    for (std::size_t i = 0; i < r.fields.size(); ++i) {
      const std::string value = r.value(i);
      const std::string quoted = exactdp::mechanisms::csv_quote_if_needed(value);
      if (value.empty() || value.substr(0, 3) == "\xEF\xBB\xBF") continue;  // re-read alone: no record / a BOM
      ChunkReader again_in(quoted, chunk);
      CsvReader again(again_in);
      CsvRecord one;
      FUZZ_CHECK(again.next(one) && one.fields.size() == 1 && one.value(0) == value,
                 "a quoted value does not read back");
    }
  }
  FUZZ_CHECK(rebuilt == text, "the records do not rebuild the input");

  using exactdp::mechanisms::CellCodec;
  using exactdp::mechanisms::Rounding;
  const CellCodec codecs[] = {CellCodec::integers(),
                              CellCodec::decimals(mpq_class(1, 100), Rounding::kRefuse),
                              CellCodec::decimals(mpq_class(1, 8), Rounding::kNearest)};
  std::size_t checked = 0;
  for (const auto& r : records) {
    for (std::size_t i = 0; i < r.fields.size() && checked < 64; ++i, ++checked) {
      const std::string value = r.value(i);
      for (const CellCodec& codec : codecs) {
        mpz_class k, again;
        try {
          codec.parse(value, 1, "c", k);
        } catch (const CsvError&) {
          continue;
        }
        std::string out;
        codec.format(k, out);
        codec.parse(out, 1, "c", again);  // must not throw
        FUZZ_CHECK(again == k, "a formatted cell does not read back to its index");
      }
    }
  }

  if (records.empty()) return 0;
  try {
    ChunkReader in(text, chunk);
    const auto scan = exactdp::mechanisms::scan_table(in, {records[0].value(0)});
    FUZZ_CHECK(scan.rows + 1 == records.size(), "scan_table counted a different number of rows");
  } catch (const exactdp::ParameterError&) {
    // A ragged row, a non-integer cell, a duplicated header name: refused, as it must be.
  }
  return 0;
}
