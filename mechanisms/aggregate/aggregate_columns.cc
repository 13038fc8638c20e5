#include <exactdp/mechanisms/aggregate/aggregate_columns.h>

#include <charconv>
#include <optional>
#include <span>
#include <string_view>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::mechanisms {
namespace {

const RecordColumn& find_column(const RecordColumns& records, const std::string& name) {
  const RecordColumn* found = nullptr;
  for (const auto& c : records.columns) {
    if (c.name != name) continue;
    if (found != nullptr) throw ParameterError(name, "column '" + name + "' is given twice");
    found = &c;
  }
  if (found == nullptr) throw ParameterError(name, "column '" + name + "' is not in the records");
  return *found;
}

// The column `name`, with as many rows as the privacy unit's.
const RecordColumn& column_named(const RecordColumns& records, const std::string& name, std::size_t rows) {
  const RecordColumn* found = &find_column(records, name);
  const std::size_t n = found->rows();
  if (n != rows || (found->kind == ColumnKind::kDyadic && found->exponents.size() != n)) {
    throw ParameterError(name, "column '" + name + "' has " + std::to_string(n) + " rows, the privacy unit's " +
                                   std::to_string(rows));
  }
  return *found;
}

// A unit or group-by column's text of a row (an integer as its decimal text).
class KeyColumn {
 public:
  explicit KeyColumn(const RecordColumn& c) : column_(c) {
    if (c.kind == ColumnKind::kDyadic) {
      throw ParameterError(c.name, "column '" + c.name + "' is a key: give its values as text or integers");
    }
  }
  std::string_view text(std::size_t row) {
    if (column_.kind == ColumnKind::kText) return column_.texts[row];
    const auto end = std::to_chars(digits_, digits_ + sizeof digits_, column_.integers[row]).ptr;
    return {digits_, static_cast<std::size_t>(end - digits_)};
  }

 private:
  const RecordColumn& column_;
  char digits_[24] = {};
};

// A value column's grid index of a row, clamped to the bounds: floor(x / G + 1/2) with G = 10^-d,
// the CSV cell's rounding (cell_codec.h, nearest) on the exact value.
class ValueColumnReader {
 public:
  ValueColumnReader(const RecordColumn& c, const ValueBounds& b)
      : column_(c), bounds_(b), codec_(CellCodec::decimals(b.grid, Rounding::kNearest)) {
    mpz_ui_pow_ui(ten_d_.get_mpz_t(), 10, b.decimals);
    if (mpz_fits_slong_p(ten_d_.get_mpz_t()) != 0) small_ten_d_ = ten_d_.get_si();
  }
  void read(std::size_t row, mpz_class& out) {
    switch (column_.kind) {
      case ColumnKind::kInteger: integer_index(column_.integers[row], out); break;
      case ColumnKind::kDyadic: dyadic_index(column_.integers[row], column_.exponents[row], out); break;
      case ColumnKind::kText: text_index(row, out); break;
    }
    if (out < bounds_.lower_index) out = bounds_.lower_index;
    if (out > bounds_.upper_index) out = bounds_.upper_index;
  }

 private:
  void integer_index(std::int64_t v, mpz_class& out) const {
    if (small_ten_d_) {
      const int128 k = static_cast<int128>(v) * *small_ten_d_;  // |k| < 2^126
      if (k >= INT64_MIN && k <= INT64_MAX) {
        out = static_cast<long>(k);
        return;
      }
    }
    out = static_cast<long>(v);
    out *= ten_d_;
  }
  // m 2^e 10^d, rounded: floor((2 m 10^d + 2^-e) / 2^(1-e)) when e < 0.
  void dyadic_index(std::int64_t m, std::int32_t e, mpz_class& out) {
    if (e < -kMaxDyadicExponent || e > kMaxDyadicExponent) {
      throw ParameterError(column_.name, "column '" + column_.name + "': exponent " + std::to_string(e) +
                                             " is out of range: allowed -" + std::to_string(kMaxDyadicExponent) +
                                             " <= e <= " + std::to_string(kMaxDyadicExponent));
    }
    out = static_cast<long>(m);
    out *= ten_d_;
    if (e >= 0) {
      mpz_mul_2exp(out.get_mpz_t(), out.get_mpz_t(), static_cast<mp_bitcnt_t>(e));
      return;
    }
    const auto shift = static_cast<mp_bitcnt_t>(-static_cast<std::int64_t>(e));
    mpz_mul_2exp(out.get_mpz_t(), out.get_mpz_t(), 1);
    half_ = 1;
    mpz_mul_2exp(half_.get_mpz_t(), half_.get_mpz_t(), shift);
    out += half_;
    mpz_fdiv_q_2exp(out.get_mpz_t(), out.get_mpz_t(), shift + 1);
  }
  void text_index(std::size_t row, mpz_class& out) const {
    try {
      codec_.parse(column_.texts[row], 0, column_.name, out);
    } catch (const CsvError& e) {
      const std::string what = e.what();
      const std::string_view prefix = "input line 0: ";
      throw ParameterError(column_.name, "column '" + column_.name + "', row " + std::to_string(row) + ": " +
                                             (what.starts_with(prefix) ? what.substr(prefix.size()) : what));
    }
  }

  const RecordColumn& column_;
  const ValueBounds& bounds_;
  CellCodec codec_;
  mpz_class ten_d_, half_;
  std::optional<long> small_ten_d_;
};

bool bounds_fit_int64(const AggregateRequest& r) {
  for (const auto& v : r.value_columns) {
    if (mpz_fits_slong_p(v.bounds.lower_index.get_mpz_t()) == 0 ||
        mpz_fits_slong_p(v.bounds.upper_index.get_mpz_t()) == 0) {
      return false;
    }
  }
  return true;
}

}  // namespace

AggregateInputStats read_columns(const RecordColumns& records, const AggregateRequest& r,
                                 ContributionBounder& bounder, const std::unordered_set<std::string>* keys,
                                 const AggregateLimits& limits) {
  const std::size_t rows = find_column(records, r.privacy_unit).rows();
  KeyColumn unit(column_named(records, r.privacy_unit, rows));
  std::vector<KeyColumn> groups;
  for (const auto& g : r.group_by) groups.emplace_back(column_named(records, g, rows));
  std::vector<ValueColumnReader> values;
  for (const auto& v : r.value_columns) values.emplace_back(column_named(records, v.name, rows), v.bounds);
  const bool narrow = bounds_fit_int64(r);  // every clamped index fits, as the CSV path decides
  std::vector<mpz_class> cells(values.size());
  std::vector<std::int64_t> narrow_cells(values.size());
  std::string key;
  AggregateInputStats stats;
  for (std::size_t row = 0; row < rows; ++row) {
    ++stats.rows;
    for (std::size_t c = 0; c < values.size(); ++c) {
      values[c].read(row, cells[c]);
      if (narrow) narrow_cells[c] = cells[c].get_si();
    }
    key.clear();
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (g > 0) key += ',';
      key += csv_quote_if_needed(groups[g].text(row));
    }
    if (keys != nullptr && keys->count(key) == 0) {
      ++stats.rows_dropped;
      continue;
    }
    const std::uint32_t unit_id = bounder.unit_id(unit.text(row));
    const std::uint32_t group_id = bounder.group_id(key);
    if (narrow) {
      bounder.add(unit_id, group_id, std::span<const std::int64_t>(narrow_cells));
    } else {
      bounder.add(unit_id, group_id, std::span<const mpz_class>(cells));
    }
    check_bounded_state(bounder, limits, "row", row, !values.empty());
  }
  return stats;
}

}  // namespace exactdp::mechanisms
