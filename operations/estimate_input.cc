#include <exactdp/operations/estimate_input.h>

#include <array>
#include <unordered_set>
#include <utility>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::operations {
namespace {

constexpr std::size_t kMaxValueDigits = 10'000;
constexpr long long kExponentCap = 1'000'000'000'000'000LL;  // saturation: far beyond any grid

// A decimal's parts: |x| = m 10^exponent with m the integer written by `digits` (leading zeros
// stripped; empty for zero).
struct DecimalParts {
  bool negative = false;
  std::string digits;
  long long exponent = 0;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// [+-]?(digits[.digits*] | .digits)([eE][+-]?digits)?; false for anything else.
bool split_decimal(std::string_view t, DecimalParts& out) {
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) out.negative = t[i++] == '-';
  std::size_t written = 0;
  long long fraction_digits = 0;
  bool point = false;
  for (; i < t.size(); ++i) {
    if (t[i] == '.' && !point) {
      point = true;
      continue;
    }
    if (!is_digit(t[i])) break;
    if (++written > kMaxValueDigits) return false;
    if (point) ++fraction_digits;
    if (!out.digits.empty() || t[i] != '0') out.digits.push_back(t[i]);
  }
  if (written == 0) return false;
  long long exponent = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) negative = t[i++] == '-';
    const std::size_t start = i;
    for (; i < t.size() && is_digit(t[i]); ++i) {
      if (exponent < kExponentCap) exponent = exponent * 10 + (t[i] - '0');
    }
    if (i == start) return false;
    if (negative) exponent = -exponent;
  }
  if (i != t.size()) return false;
  out.exponent = exponent - fraction_digits;
  return true;
}

// 10^e for 0 <= e <= 38, as an unsigned 128-bit integer.
uint128 power_of_ten(long long e) {
  uint128 p = 1;
  for (long long i = 0; i < e; ++i) p *= 10;
  return p;
}

const std::array<uint128, 39>& powers_of_ten() {
  static const std::array<uint128, 39> table = [] {
    std::array<uint128, 39> t{};
    for (std::size_t e = 0; e < t.size(); ++e) t[e] = power_of_ten(static_cast<long long>(e));
    return t;
  }();
  return table;
}

// round_half_even(num / den) for num >= 0, den > 0, as an mpz.
mpz_class round_half_even(const mpz_class& num, const mpz_class& den) {
  mpz_class q, r;
  mpz_fdiv_qr(q.get_mpz_t(), r.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
  r <<= 1;
  const int c = cmp(r, den);
  if (c > 0 || (c == 0 && mpz_odd_p(q.get_mpz_t()) != 0)) ++q;
  return q;
}

}  // namespace

DecimalGridMap::DecimalGridMap(long exponent, std::int64_t bound, const mpq_class& radius)
    : k_(exponent), bound_(bound) {
  mpz_class whole;
  mpz_fdiv_q(whole.get_mpz_t(), radius.get_num_mpz_t(), radius.get_den_mpz_t());
  radius_digits_ = static_cast<long>(mpz_class(abs(whole)).get_str().size());  // 10^D >= floor(R) + 1 > R
}

bool DecimalGridMap::map(std::string_view text, std::int64_t& value) const {
  DecimalParts p;
  if (!split_decimal(text, p)) return false;
  const long long length = static_cast<long long>(p.digits.size());
  long long e = p.exponent;
  std::int64_t magnitude = 0;
  const long long k_floor = k_ > 0 ? k_ : 0;
  if (length == 0 || length + e <= -(k_floor / 3 + 1)) {
    magnitude = 0;  // |x| < 10^(L+e) <= 2^-(k+1): under half a grid unit (or zero)
  } else if (length - 1 + e >= radius_digits_) {
    magnitude = bound_;  // |x| >= 10^D > R >= B 2^-k
  } else if (length <= 18 && 0 <= k_ && k_ <= 64 && length + e <= 18 && e >= -38) {
    std::uint64_t m = std::stoull(p.digits);
    for (; e > 0; --e) m *= 10;
    const uint128 num = static_cast<uint128>(m) << k_;  // m < 10^18 < 2^60
    const uint128 den = powers_of_ten()[static_cast<std::size_t>(-e)];
    uint128 q = num / den;
    const uint128 twice_r = 2 * (num % den);
    if (twice_r > den || (twice_r == den && (q & 1) != 0)) ++q;
    magnitude = q > static_cast<uint128>(bound_) ? bound_ : static_cast<std::int64_t>(q);
  } else {
    // |e| < 1,400 + L here (k <= 4096, D <= ~1,250 for the radii the grid allows).
    mpz_class num(p.digits, 10), den = 1;
    if (e > 0) {
      mpz_class scale;
      mpz_ui_pow_ui(scale.get_mpz_t(), 10, static_cast<unsigned long>(e));
      num *= scale;
    } else if (e < 0) {
      mpz_ui_pow_ui(den.get_mpz_t(), 10, static_cast<unsigned long>(-e));
    }
    if (k_ >= 0) {
      num <<= static_cast<mp_bitcnt_t>(k_);
    } else {
      den <<= static_cast<mp_bitcnt_t>(-k_);
    }
    const mpz_class q = round_half_even(num, den);
    magnitude = q > bound_ ? bound_ : static_cast<std::int64_t>(q.get_si());
  }
  value = p.negative ? -magnitude : magnitude;
  return true;
}

namespace {

// The header: d names, none empty, none repeated.
std::vector<std::string> read_header(mechanisms::CsvReader& reader, mechanisms::CsvRecord& record) {
  if (!reader.next(record)) throw mechanisms::CsvError(reader.line(), "no header: the input is empty");
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  for (std::size_t j = 0; j < record.fields.size(); ++j) {
    names.push_back(record.value(j));
    if (names.back().empty()) {
      throw mechanisms::CsvError(record.line, "header field " + std::to_string(j + 1) +
                                                  " is empty: every column needs a name (the coordinate's)");
    }
    if (!seen.insert(names.back()).second) {
      throw mechanisms::CsvError(record.line, "header names column '" + abbreviate(names.back()) + "' twice");
    }
  }
  return names;
}

// Adds one data record's grid values to sums.
void add_row(const mechanisms::CsvRecord& record, const std::vector<std::string>& names,
             const DecimalGridMap& map, std::vector<int128>& sums) {
  if (record.fields.size() != names.size()) {
    throw mechanisms::CsvError(record.line, "the row has " + std::to_string(record.fields.size()) +
                                                " field(s), the header " + std::to_string(names.size()));
  }
  std::string unquoted;
  for (std::size_t j = 0; j < names.size(); ++j) {
    std::string_view text = record.raw_field(j);
    if (record.fields[j].quoted) {
      unquoted = record.value(j);
      text = unquoted;
    }
    std::int64_t value = 0;
    if (!map.map(text, value)) {
      throw mechanisms::CsvError(record.line, "column '" + abbreviate(names[j]) + "': '" + abbreviate(text) +
                                                  "' is not a decimal number ([+-]digits[.digits][e[+-]digits], "
                                                  "at most 10000 digits)");
    }
    sums[j] += value;
  }
}

}  // namespace

GridColumnSums read_grid_column_sums(mechanisms::ByteReader& in, const DecimalGridMap& map,
                                     const mechanisms::CsvLimits& limits, const HeaderCheck& on_header) {
  mechanisms::CsvReader reader(in, limits);
  mechanisms::CsvRecord record;
  GridColumnSums out;
  out.names = read_header(reader, record);
  if (on_header) on_header(out.names.size());
  std::vector<int128> sums(out.names.size(), 0);
  while (reader.next(record)) {
    add_row(record, out.names, map, sums);
    ++out.rows;  // |sums| <= rows 2^62 < 2^127: input bytes bound rows far below 2^64
  }
  if (out.rows == 0) throw mechanisms::CsvError(reader.line(), "no data row after the header");
  out.sums.reserve(sums.size());
  for (const int128 s : sums) out.sums.push_back(mechanisms::to_mpz(s));
  return out;
}

}  // namespace exactdp::operations
