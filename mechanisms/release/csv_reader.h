// csv_reader.h — CsvReader: a streaming RFC 4180 reader that keeps every byte.
//
// Grammar (RFC 4180 section 2, with the two common relaxations listed):
//   - records end with CRLF or LF (each record remembers which; the last may have none);
//   - fields are separated by commas; a field is either unquoted (no '"', no CR, no LF) or
//     quoted: '"' ... '"' where the inside may hold commas, CR, LF and '""' (one quote);
//   - a UTF-8 byte order mark (EF BB BF) at the very start is recognised and set aside
//     (has_bom()); it is not part of the first field;
//   - an empty line is a record with one empty field (a table with more columns then calls it
//     a ragged row: nothing is silently skipped).
// Errors (CsvError, a ParameterError: exit 2 in the CLI, with the line number): a quote inside
// an unquoted field, a character other than ',' CR LF after a closing quote, a CR not followed
// by LF, an unterminated quoted field (reported with the line it was opened on), and the limits
// below (LimitError wording, also a CsvError).
// Byte-for-byte: CsvRecord::raw holds the record exactly as read (quotes and doubled quotes
// included, the terminator apart), so a writer can copy any field it does not change.
// Line numbers count LF bytes (a quoted field spanning lines advances them), starting at 1.
// Memory: one 64 KiB read buffer plus the current record (at most max_record_bytes).
// Thread-safety: one reader per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <exactdp/mechanisms/release/byte_source.h>
#include <exactdp/core/errors.h>

namespace exactdp::mechanisms {

// Bad or oversized CSV input; line() is the 1-based input line the problem was found on.
class CsvError : public ParameterError {
 public:
  CsvError(std::uint64_t line, const std::string& what)
      : ParameterError("input", "input line " + std::to_string(line) + ": " + what), line_(line) {}
  [[nodiscard]] std::uint64_t line() const noexcept { return line_; }

 private:
  std::uint64_t line_;
};

struct CsvLimits {
  std::uint64_t max_input_bytes = std::uint64_t{1} << 36;  // 64 GiB, the BOM included
  std::size_t max_record_bytes = std::size_t{1} << 24;     // 16 MiB per record
  std::size_t max_fields = 100'000;                        // per record
};

struct CsvField {
  std::size_t begin = 0;  // [begin, end) in CsvRecord::raw, quotes included
  std::size_t end = 0;
  bool quoted = false;
};

struct CsvRecord {
  std::string raw;               // the bytes of the record without its terminator
  std::vector<CsvField> fields;  // at least one
  std::string_view terminator;   // "\r\n", "\n", or "" for a last record without one
  std::uint64_t line = 0;        // the line the record starts on

  // The field exactly as written (quotes included).
  [[nodiscard]] std::string_view raw_field(std::size_t i) const {
    return std::string_view(raw).substr(fields[i].begin, fields[i].end - fields[i].begin);
  }
  // The field's value: quotes removed and '""' turned into '"'.
  [[nodiscard]] std::string value(std::size_t i) const;
};

class CsvReader {
 public:
  CsvReader(ByteReader& in, CsvLimits limits = {});
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  // Reads the next record into `record` (reusing its storage); false at the end of the input.
  // Throws CsvError for malformed input.
  bool next(CsvRecord& record);
  // True when the input started with a UTF-8 byte order mark (known after the first next()).
  [[nodiscard]] bool has_bom() const noexcept { return bom_; }
  [[nodiscard]] std::uint64_t bytes_read() const noexcept { return bytes_; }
  // The line the reader is on (1-based).
  [[nodiscard]] std::uint64_t line() const noexcept { return line_; }

 private:
  int get();  // next byte 0..255, or -1 at the end
  bool fill();
  void append(CsvRecord& record, int c);
  // The first call: reads up to three bytes and drops them if they are a UTF-8 BOM.
  void skip_bom();
  // One field whose first byte c is a quote / is not; returns the byte after the field (or -1).
  int read_quoted(CsvRecord& record, int c);
  int read_unquoted(CsvRecord& record, int c);
  // After the last field: the record's terminator (c is '\r', '\n' or -1).
  void read_terminator(CsvRecord& record, int c);

  ByteReader& in_;
  CsvLimits limits_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0;
  std::size_t len_ = 0;
  std::string pending_;  // bytes to hand out before the buffer's (a BOM that was not one)
  bool eof_ = false;
  bool started_ = false;
  bool bom_ = false;
  std::uint64_t bytes_ = 0;
  std::uint64_t line_ = 1;
};

// The field quoted per RFC 4180 when it needs it (a comma, quote, CR or LF), else as is.
[[nodiscard]] std::string csv_quote_if_needed(std::string_view value);

}  // namespace exactdp::mechanisms
