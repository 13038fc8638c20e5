#include <exactdp/mechanisms/aggregate/aggregate_input.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>

#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::mechanisms {
namespace {

// The index of `name` in the header (exactly once), else a CsvError at the header's line.
std::size_t find_column(const std::vector<std::string>& header, const std::string& name,
                        const char* role, std::uint64_t line) {
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] != name) continue;
    if (found) throw CsvError(line, "column '" + name + "' appears more than once in the header");
    found = i;
  }
  if (!found) {
    throw CsvError(line, std::string("no ") + role + " column named '" + name + "' in the header (" +
                             std::to_string(header.size()) + " columns)");
  }
  return *found;
}

std::vector<std::string> read_header(CsvReader& reader, CsvRecord& record, const char* what) {
  if (!reader.next(record)) {
    throw CsvError(1, std::string("the ") + what + " is empty: a header row naming the columns is required");
  }
  std::vector<std::string> header;
  for (std::size_t i = 0; i < record.fields.size(); ++i) header.push_back(record.value(i));
  return header;
}

void check_width(const CsvRecord& record, std::size_t width) {
  if (record.fields.size() == width) return;
  throw CsvError(record.line, (record.raw.empty() ? std::string("an empty line")
                                                  : "a ragged row of " + std::to_string(record.fields.size()) +
                                                        " fields") +
                                  " (the header has " + std::to_string(width) + ")");
}

// The group key of a record into `key` (reused): an unquoted field is its own quoted-if-needed
// text (it holds no comma, quote, CR or LF), so only quoted fields are re-encoded.
void key_into(const CsvRecord& record, const std::vector<std::size_t>& columns, std::string& key) {
  key.clear();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) key += ',';
    if (record.fields[columns[i]].quoted) {
      key += csv_quote_if_needed(record.value(columns[i]));
    } else {
      key += record.raw_field(columns[i]);
    }
  }
}

// A field's value, without a copy when it is not quoted.
std::string_view field_value(const CsvRecord& record, std::size_t i, std::string& scratch) {
  if (!record.fields[i].quoted) return record.raw_field(i);
  scratch = record.value(i);
  return scratch;
}

struct ValueReader {
  std::size_t index;
  std::string name;
  const ValueBounds* bounds;
  CellCodec codec;
};

bool fits_int64(const mpz_class& v) {
  static_assert(sizeof(long) == sizeof(std::int64_t));
  return mpz_fits_slong_p(v.get_mpz_t()) != 0;
}

// The clamped grid index of every value column as int64, when the bounds allow it (decided
// before reading: every clamped index lies in [lower_index, upper_index]). A cell of at most 18
// digits on a grid whose numerator and denominator are at most 10^18 is read with 128-bit
// integers: k = floor((2 N den + 10^f num) / (2 10^f num)) for the cell N / 10^f and G = num / den,
// the formula of CellCodec::parse (Rounding::kNearest), every term below 2^123. Any other cell
// (longer, or malformed: CellCodec::parse then throws its CsvError) takes CellCodec::parse.
class Int64Values {
 public:
  static bool applies(const std::vector<ValueReader>& values) {
    for (const auto& v : values) {
      if (!fits_int64(v.bounds->lower_index) || !fits_int64(v.bounds->upper_index)) return false;
    }
    return true;
  }
  explicit Int64Values(const ValueReader& v)
      : lower_(v.bounds->lower_index.get_si()), upper_(v.bounds->upper_index.get_si()) {
    const mpz_class limit("1000000000000000000");
    const mpq_class& g = v.codec.granularity();
    fast_ = g.get_num() <= limit && g.get_den() <= limit;
    if (fast_) {
      num_ = g.get_num().get_si();
      den_ = g.get_den().get_si();
    }
  }
  std::int64_t read(const ValueReader& v, std::string_view cell, std::uint64_t line, mpz_class& scratch) const {
    int128 k = 0;
    if (!fast_ || !read_short(cell, k)) {
      v.codec.parse(cell, line, v.name, scratch);
      if (scratch < v.bounds->lower_index) return lower_;
      if (scratch > v.bounds->upper_index) return upper_;
      return scratch.get_si();
    }
    return static_cast<std::int64_t>(k < lower_ ? lower_ : (k > upper_ ? upper_ : k));
  }

 private:
  // [+-]? digits with at most one '.', 1 to 18 digits: the rounded grid index; else false.
  bool read_short(std::string_view cell, int128& k) const {
    std::size_t i = 0;
    const bool negative = !cell.empty() && cell[0] == '-';
    if (!cell.empty() && (cell[0] == '+' || cell[0] == '-')) i = 1;
    std::int64_t n = 0, ten_f = 1;
    int digits = 0;
    bool point = false;
    for (; i < cell.size(); ++i) {
      const char ch = cell[i];
      if (ch >= '0' && ch <= '9') {
        if (++digits > 18) return false;
        n = 10 * n + (ch - '0');
        if (point) ten_f *= 10;
      } else if (ch == '.' && !point) {
        point = true;
      } else {
        return false;
      }
    }
    if (digits == 0) return false;
    const int128 num = static_cast<int128>(negative ? -n : n) * den_;
    const int128 den = static_cast<int128>(ten_f) * num_;
    const int128 twice = 2 * num + den, d2 = 2 * den;
    k = twice / d2;
    if (twice % d2 != 0 && twice < 0) --k;  // floor
    return true;
  }
  std::int64_t lower_, upper_;
  bool fast_ = false;
  std::int64_t num_ = 1, den_ = 1;
};

}  // namespace

void check_bounded_state(const ContributionBounder& b, const AggregateLimits& limits, const char* where,
                         std::uint64_t at, bool value_columns) {
  const std::uint64_t bytes = b.estimated_bytes() + limits.reserved_bytes;
  if (b.pairs() <= limits.max_pairs && bytes <= limits.max_state_bytes) return;
  // Named after the option when the release's per-group totals of the value columns dominate.
  const bool totals = value_columns && 2 * b.group_bytes() > bytes;
  throw LimitError(totals ? "sum" : "input",
                   std::string(where) + " " + std::to_string(at) + ": the bounded state (" + std::to_string(b.pairs()) +
                       " distinct (unit, group) pairs, " + std::to_string(b.groups()) +
                       " groups, with the release's totals and rows about " + std::to_string(bytes >> 20) +
                       " MiB) is over the limit of " + std::to_string(limits.max_pairs) + " pairs and " +
                       std::to_string(limits.max_state_bytes >> 20) + " MiB (SECURITY.md, Limits): " +
                       (totals ? "use fewer --sum/--mean columns or fewer groups"
                               : "use fewer units or groups, or a smaller --max-rows"));
}

AggregateInputStats read_records(ByteReader& input, const AggregateRequest& r,
                                 ContributionBounder& bounder,
                                 const std::unordered_set<std::string>* keys,
                                 const AggregateLimits& limits) {
  CsvReader reader(input, limits.csv);
  CsvRecord record;
  const std::vector<std::string> header = read_header(reader, record, "input");
  const std::uint64_t header_line = record.line;
  const std::size_t unit_col = find_column(header, r.privacy_unit, "privacy-unit", header_line);
  std::vector<std::size_t> group_cols;
  for (const auto& g : r.group_by) group_cols.push_back(find_column(header, g, "group-by", header_line));
  std::vector<ValueReader> values;
  for (const auto& v : r.value_columns) {
    values.push_back({find_column(header, v.name, "value", header_line), v.name, &v.bounds,
                      CellCodec::decimals(v.bounds.grid, Rounding::kNearest)});
  }
  const bool narrow = Int64Values::applies(values);
  std::vector<Int64Values> narrow_readers;
  if (narrow) {
    for (const auto& v : values) narrow_readers.emplace_back(v);
  }
  std::vector<mpz_class> cells(values.size());
  std::vector<std::int64_t> narrow_cells(values.size());
  std::string key, cell_text, unit_text;
  AggregateInputStats stats;
  while (reader.next(record)) {
    check_width(record, header.size());
    ++stats.rows;
    for (std::size_t c = 0; c < values.size(); ++c) {
      const ValueReader& v = values[c];
      const std::string_view cell = field_value(record, v.index, cell_text);
      if (narrow) {
        narrow_cells[c] = narrow_readers[c].read(v, cell, record.line, cells[c]);
        continue;
      }
      v.codec.parse(cell, record.line, v.name, cells[c]);
      if (cells[c] < v.bounds->lower_index) cells[c] = v.bounds->lower_index;
      if (cells[c] > v.bounds->upper_index) cells[c] = v.bounds->upper_index;
    }
    key_into(record, group_cols, key);
    if (keys != nullptr && keys->count(key) == 0) {
      ++stats.rows_dropped;
      continue;
    }
    const std::uint32_t unit = bounder.unit_id(field_value(record, unit_col, unit_text));
    const std::uint32_t group = bounder.group_id(key);
    if (narrow) {
      bounder.add(unit, group, std::span<const std::int64_t>(narrow_cells));
    } else {
      bounder.add(unit, group, std::span<const mpz_class>(cells));
    }
    check_bounded_state(bounder, limits, "input line", record.line, !values.empty());
  }
  stats.bytes = reader.bytes_read();
  return stats;
}

std::vector<std::string> read_public_keys(ByteReader& input, const std::vector<std::string>& group_by,
                                          const CsvLimits& limits) {
  CsvReader reader(input, limits);
  CsvRecord record;
  const std::vector<std::string> header = read_header(reader, record, "keys file");
  std::vector<std::size_t> cols;
  for (const auto& g : group_by) cols.push_back(find_column(header, g, "group-by", record.line));
  std::vector<std::string> keys;
  std::unordered_set<std::string> seen;
  while (reader.next(record)) {
    check_width(record, header.size());
    std::string key;
    key_into(record, cols, key);
    if (!seen.insert(key).second) throw CsvError(record.line, "the key " + key + " is listed twice");
    keys.push_back(std::move(key));
  }
  return keys;
}

std::size_t StreamByteReader::read(char* out, std::size_t n) {
  in_.read(out, static_cast<std::streamsize>(n));
  if (in_.bad()) throw std::system_error(std::make_error_code(std::errc::io_error), "reading the input");
  return static_cast<std::size_t>(in_.gcount());
}

}  // namespace exactdp::mechanisms
