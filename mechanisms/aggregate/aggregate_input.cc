#include <exactdp/mechanisms/aggregate/aggregate_input.h>

#include <optional>
#include <system_error>

#include <exactdp/mechanisms/release/cell_codec.h>

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

std::string key_of(const CsvRecord& record, const std::vector<std::size_t>& columns) {
  std::string key;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) key += ',';
    key += csv_quote_if_needed(record.value(columns[i]));
  }
  return key;
}

struct ValueReader {
  std::size_t index;
  std::string name;
  const ValueBounds* bounds;
  CellCodec codec;
};

void check_state(const ContributionBounder& b, const AggregateLimits& limits, std::uint64_t line) {
  if (b.pairs() <= limits.max_pairs && b.estimated_bytes() <= limits.max_state_bytes) return;
  throw LimitError("input", "input line " + std::to_string(line) + ": the bounded state (" +
                                std::to_string(b.pairs()) + " distinct (unit, group) pairs, about " +
                                std::to_string(b.estimated_bytes() >> 20) + " MiB) is over the limit of " +
                                std::to_string(limits.max_pairs) + " pairs and " +
                                std::to_string(limits.max_state_bytes >> 20) +
                                " MiB (SECURITY.md, Limits): use fewer units or groups, or a smaller --max-rows");
}

}  // namespace

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
  std::vector<mpz_class> cells(values.size());
  AggregateInputStats stats;
  while (reader.next(record)) {
    check_width(record, header.size());
    ++stats.rows;
    for (std::size_t c = 0; c < values.size(); ++c) {
      const ValueReader& v = values[c];
      v.codec.parse(record.value(v.index), record.line, v.name, cells[c]);
      if (cells[c] < v.bounds->lower_index) cells[c] = v.bounds->lower_index;
      if (cells[c] > v.bounds->upper_index) cells[c] = v.bounds->upper_index;
    }
    const std::string key = key_of(record, group_cols);
    if (keys != nullptr && keys->count(key) == 0) {
      ++stats.rows_dropped;
      continue;
    }
    const std::uint32_t unit = bounder.unit_id(record.value(unit_col));
    bounder.add(unit, bounder.group_id(key), cells);
    check_state(bounder, limits, record.line);
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
    std::string key = key_of(record, cols);
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
