// aggregate_input.h — reading the records of `exactdp aggregate` (one streaming pass) and the
// public keys file, with the release reader (csv_reader.h: RFC 4180, BOM, CRLF/LF, line numbers).
//
// Records: the first record is the header; it must name the privacy unit, every group-by column
// and every sum/mean column exactly once (other columns are ignored). Every data record has as
// many fields as the header. A group key is the group-by values, each quoted per RFC 4180 when it
// needs it (csv_quote_if_needed) and joined by commas: the text the output row starts with, and
// one key per distinct tuple. A value cell is a plain decimal read exactly, rounded to the grid
// of its bounds and clamped (aggregate_request.h); an empty or malformed cell is a CsvError.
// With public keys, records of groups outside the keys are dropped before bounding (the key set
// is public, so this is a public filter) and spend nothing of a unit's L0.
// Limits (SECURITY.md, "Limits"): the CSV limits; at most max_pairs distinct (unit, group) pairs
// and an estimated memory of at most max_state_bytes (1 GiB: the bounded state, the release's
// totals and rows of the groups seen, the next growth; contribution_bounder.h), checked record by
// record: past either, a LimitError naming the input line, and the option when the per-group
// totals of the value columns are most of it (nothing is spilled to disk).
// Keys file: a CSV whose header names every group-by column; each row is one key, released even
// when no record has it; a repeated key is a CsvError.
// Errors: CsvError (a ParameterError) with the line; LimitError. Thread-safety: one per thread.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <unordered_set>
#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_request.h>
#include <exactdp/mechanisms/aggregate/contribution_bounder.h>
#include <exactdp/mechanisms/release/byte_source.h>
#include <exactdp/mechanisms/release/csv_reader.h>

namespace exactdp::mechanisms {

// 2 * 10^6 distinct pairs: about 4.2 s of CPU measured for 2 * 10^6 units of one record each (3 * 10^6
// took 6.3 s), within the 10-second rule on a machine twice as slow.
inline constexpr std::uint64_t kMaxAggregatePairs = 2'000'000;
inline constexpr std::uint64_t kMaxAggregateStateBytes = std::uint64_t{1} << 30;

struct AggregateLimits {
  CsvLimits csv;
  std::uint64_t max_pairs = kMaxAggregatePairs;
  std::uint64_t max_state_bytes = kMaxAggregateStateBytes;
  // Bytes the release holds besides the bounder's estimate (the public keys' rows), counted
  // against max_state_bytes.
  std::uint64_t reserved_bytes = 0;
};

struct AggregateInputStats {
  std::uint64_t rows = 0;          // data records read
  std::uint64_t rows_dropped = 0;  // records of groups outside the public keys
  std::uint64_t bytes = 0;
};

// Reads every record into the bounder. `keys` (may be null): only these group keys are kept.
[[nodiscard]] AggregateInputStats read_records(ByteReader& input, const AggregateRequest& request,
                                               ContributionBounder& bounder,
                                               const std::unordered_set<std::string>* keys,
                                               const AggregateLimits& limits = {});

// The state limits above after a record: a LimitError naming `where` `at` ("input line" 7, "row"
// 6) past max_pairs or max_state_bytes.
void check_bounded_state(const ContributionBounder& bounder, const AggregateLimits& limits, const char* where,
                         std::uint64_t at, bool value_columns);

// The keys of a keys file, in file order.
[[nodiscard]] std::vector<std::string> read_public_keys(ByteReader& input,
                                                        const std::vector<std::string>& group_by,
                                                        const CsvLimits& limits = {});

// A ByteReader over a std::istream (one pass).
class StreamByteReader : public ByteReader {
 public:
  explicit StreamByteReader(std::istream& in) : in_(in) {}
  std::size_t read(char* out, std::size_t n) override;

 private:
  std::istream& in_;
};

}  // namespace exactdp::mechanisms
