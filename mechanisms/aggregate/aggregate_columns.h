// aggregate_columns.h — the records of `exactdp aggregate` as typed columns, read without any CSV
// text (exactdp.aggregate hands a DataFrame's columns over this way; docs/AGGREGATE.md, "From
// Python and Dask"). The release is the one the CSV path (aggregate_input.h) makes of the same
// values, bit for bit with the same BitSource:
//   - a unit or group-by column is text (the cell's value) or int64 (its decimal text); a group
//     key is the group-by texts, each quoted per RFC 4180 when it needs it, joined by commas;
//   - a value column is int64 (the integer), dyadic (m 2^e with int64 m and int32 e: a binary
//     float's exact value) or text (an exact decimal in the CSV cell grammar, cell_codec.h); each
//     value becomes its grid index floor(x / G + 1/2) clamped to [L / G, U / G] exactly as a CSV
//     cell, with integer arithmetic only.
// Columns are found by name (each needed column once); every column has the same number of rows.
// Errors: ParameterError naming the column (a missing or repeated column, a length mismatch, a
// dyadic key column, a dyadic exponent past kMaxDyadicExponent, a malformed text value or one of
// more than 10,000 digits with its row, counted from 0); the state limits of
// aggregate_input.h (LimitError naming the row). Thread-safety: plain values; one reader per thread.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_input.h>

namespace exactdp::mechanisms {

// A dyadic's exponent e: |e| <= 1100 covers every binary64 float (-1074 <= e <= 971 with a 53-bit
// m) and keeps m 2^e 10^d within a few thousand bits; past it, ParameterError naming the column.
inline constexpr std::int32_t kMaxDyadicExponent = 1100;

enum class ColumnKind { kText, kInteger, kDyadic };

struct RecordColumn {
  std::string name;
  ColumnKind kind = ColumnKind::kText;
  std::vector<std::string> texts;       // kText: one per row
  std::vector<std::int64_t> integers;   // kInteger: the value; kDyadic: the mantissa m
  std::vector<std::int32_t> exponents;  // kDyadic: the exponent e (value m 2^e)
  [[nodiscard]] std::size_t rows() const noexcept { return kind == ColumnKind::kText ? texts.size() : integers.size(); }
};

struct RecordColumns {
  std::vector<RecordColumn> columns;
};

// Reads every row into the bounder (read_records' contract over columns). `keys` (may be null):
// only these group keys are kept.
[[nodiscard]] AggregateInputStats read_columns(const RecordColumns& records, const AggregateRequest& request,
                                               ContributionBounder& bounder,
                                               const std::unordered_set<std::string>* keys,
                                               const AggregateLimits& limits = {});

}  // namespace exactdp::mechanisms
