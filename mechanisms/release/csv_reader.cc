#include <exactdp/mechanisms/release/csv_reader.h>

namespace exactdp::mechanisms {
namespace {

constexpr std::size_t kReadBufferBytes = std::size_t{1} << 16;

}  // namespace

std::string CsvRecord::value(std::size_t i) const {
  const std::string_view f = raw_field(i);
  if (!fields[i].quoted) return std::string(f);
  std::string out;
  out.reserve(f.size());
  // f = '"' inside '"'; inside has every quote doubled (the reader checked).
  for (std::size_t k = 1; k + 1 < f.size(); ++k) {
    out.push_back(f[k]);
    if (f[k] == '"') ++k;  // skip the second of a doubled quote
  }
  return out;
}

CsvReader::CsvReader(ByteReader& in, CsvLimits limits)
    : in_(in), limits_(limits), buffer_(kReadBufferBytes) {}

bool CsvReader::fill() {
  if (eof_) return false;
  len_ = in_.read(buffer_.data(), buffer_.size());
  pos_ = 0;
  if (len_ == 0) {
    eof_ = true;
    return false;
  }
  bytes_ += len_;
  if (bytes_ > limits_.max_input_bytes) {
    throw CsvError(line_, "the input is longer than the limit of " +
                              std::to_string(limits_.max_input_bytes) + " bytes (max-input-bytes)");
  }
  return true;
}

int CsvReader::get() {
  if (!pending_.empty()) {
    const int c = static_cast<unsigned char>(pending_.front());
    pending_.erase(0, 1);
    return c;
  }
  if (pos_ == len_ && !fill()) return -1;
  return static_cast<unsigned char>(buffer_[pos_++]);
}

void CsvReader::append(CsvRecord& record, int c) {
  if (record.raw.size() >= limits_.max_record_bytes) {
    throw CsvError(record.line, "the record is longer than the limit of " +
                                    std::to_string(limits_.max_record_bytes) + " bytes");
  }
  record.raw.push_back(static_cast<char>(c));
}

void CsvReader::skip_bom() {
  // Read up to three bytes; keep them for the first record unless they are EF BB BF.
  std::string head;
  for (int i = 0; i < 3; ++i) {
    const int b = get();
    if (b < 0) break;
    head.push_back(static_cast<char>(b));
  }
  if (head == "\xEF\xBB\xBF") {
    bom_ = true;
  } else {
    pending_ = head;
  }
}

int CsvReader::read_quoted(CsvRecord& record, int c) {
  const std::uint64_t opened = line_;
  append(record, c);
  for (;;) {
    c = get();
    if (c < 0) {
      throw CsvError(line_, "unterminated quoted field (the quote opened on line " +
                                std::to_string(opened) + " is never closed)");
    }
    if (c == '\n') ++line_;
    append(record, c);
    if (c == '"') {
      c = get();
      if (c != '"') break;  // the closing quote; c is what follows it
      append(record, c);    // a doubled quote
    }
  }
  if (c >= 0 && c != ',' && c != '\n' && c != '\r') {
    throw CsvError(line_, "unexpected character after a closing quote (a field is either"
                          " wholly quoted or not quoted; write a quote inside one as \"\")");
  }
  return c;
}

int CsvReader::read_unquoted(CsvRecord& record, int c) {
  while (c >= 0 && c != ',' && c != '\n' && c != '\r') {
    if (c == '"') {
      throw CsvError(line_, "a quote inside an unquoted field (quote the whole field and"
                            " write each inner quote twice: \"a \"\"b\"\"\")");
    }
    append(record, c);
    c = get();
  }
  return c;
}

void CsvReader::read_terminator(CsvRecord& record, int c) {
  if (c == '\r') {
    if (get() != '\n') {
      throw CsvError(line_, "a carriage return not followed by a line feed (records end with"
                            " CRLF or LF)");
    }
    record.terminator = "\r\n";
    ++line_;
  } else if (c == '\n') {
    record.terminator = "\n";
    ++line_;
  }
}

bool CsvReader::next(CsvRecord& record) {
  if (!started_) {
    started_ = true;
    skip_bom();
  }
  record.raw.clear();
  record.fields.clear();
  record.terminator = "";
  record.line = line_;
  int c = get();
  if (c < 0) return false;
  for (;;) {  // one field per iteration; c is its first byte (or -1)
    if (record.fields.size() >= limits_.max_fields) {
      throw CsvError(line_, "a record has more than the limit of " +
                                std::to_string(limits_.max_fields) + " fields");
    }
    CsvField field;
    field.begin = record.raw.size();
    field.quoted = c == '"';
    c = field.quoted ? read_quoted(record, c) : read_unquoted(record, c);
    field.end = record.raw.size();
    record.fields.push_back(field);
    if (c != ',') break;
    append(record, c);
    c = get();
  }
  read_terminator(record, c);
  return true;
}

std::string csv_quote_if_needed(std::string_view value) {
  if (value.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(value);
  std::string out = "\"";
  for (const char ch : value) {
    out.push_back(ch);
    if (ch == '"') out.push_back('"');
  }
  out.push_back('"');
  return out;
}

}  // namespace exactdp::mechanisms
