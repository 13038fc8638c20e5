// aggregate_columns.h: records given as typed columns (int64, dyadic m 2^e, exact decimal text;
// keys as text or int64) give the CSV path's release bit for bit with the same seed, over seeded
// mixed tables (binary fractions such as 0.1 at their exact value, ties on the grid, values
// outside the bounds, keys that need quoting), with and without public keys; bad columns are
// refused naming the column.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_from_totals.h>
#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_columns_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;
using mechanisms::ColumnKind;
using mechanisms::RecordColumn;
using mechanisms::RecordColumns;
using test_support::StringReader;

constexpr unsigned kSuite = 9312;

AggregateRequest request() {
  AggregateRequest r;
  r.privacy_unit = "user";
  r.group_by = {"g", "h"};
  r.outputs = {{AggregateKind::kCount, ""},    {AggregateKind::kSum, "i"},      {AggregateKind::kMean, "f"},
               {AggregateKind::kSum, "t"},     {AggregateKind::kQuantile, "f", mpq_class(1, 2)}};
  r.value_columns = {{"i", mechanisms::parse_value_bounds("-40,40")},
                     {"f", mechanisms::parse_value_bounds("-2,3.00")},
                     {"t", mechanisms::parse_value_bounds("0,7.5")}};
  r.bounding = {2, 3};
  r.epsilon = 4;
  r.delta = mpq_class(1, 1000000);
  return r;
}

// m 2^e as an exact decimal text.
std::string dyadic_text(std::int64_t m, std::int32_t e) {
  mpq_class v(m);
  if (e >= 0) {
    mpz_class p;
    mpz_ui_pow_ui(p.get_mpz_t(), 2, static_cast<unsigned long>(e));
    v *= p;
  } else {
    mpz_class p;
    mpz_ui_pow_ui(p.get_mpz_t(), 2, static_cast<unsigned long>(-e));
    v /= p;
  }
  v.canonicalize();
  unsigned k = 0;
  mpz_class scaled = v.get_num(), den = v.get_den();
  while (den != 1) {
    den /= 2;
    scaled *= 5;
    ++k;
  }
  std::string digits = mpz_class(abs(scaled)).get_str();
  if (digits.size() <= k) digits.insert(0, k + 1 - digits.size(), '0');
  if (k > 0) digits.insert(digits.size() - k, ".");
  return (sgn(scaled) < 0 ? "-" : "") + digits;
}

struct Table {
  RecordColumns columns;
  std::string csv;
};

// n rows of unit (int64), g (text that needs quoting at times), h (int64), i (int64), f (a
// binary fraction), t (decimal text).
Table mixed_table(unsigned seed, int n) {
  const double fractions[] = {0.1, 0.125, -0.125, 2.675, 1e-30, -7.5, 3.005, 0.30000000000000004, 1e30};
  const char* texts[] = {"1.25", "-3", "7.49", "7.5", "12", "0.0000001", "+2.50"};
  const char* groups[] = {"north", "a,b", "say \"hi\"", "", "x"};
  RecordColumn unit{"user", ColumnKind::kInteger, {}, {}, {}}, g{"g", ColumnKind::kText, {}, {}, {}},
      h{"h", ColumnKind::kInteger, {}, {}, {}}, i{"i", ColumnKind::kInteger, {}, {}, {}},
      f{"f", ColumnKind::kDyadic, {}, {}, {}}, t{"t", ColumnKind::kText, {}, {}, {}};
  std::string csv = "h,t,user,f,g,i,ignored\n";
  unsigned s = seed * 2654435761u + 1;
  for (int row = 0; row < n; ++row) {
    s = s * 1103515245u + 12345u;
    unit.integers.push_back(static_cast<std::int64_t>((s >> 8) % 400) - 5);
    g.texts.push_back(groups[(s >> 12) % 5]);
    h.integers.push_back((s >> 16) % 3 == 0 ? -1 : 2);
    i.integers.push_back(static_cast<std::int64_t>((s >> 3) % 101) - 50);
    int e = 0;
    const double x = fractions[(s >> 20) % 9] * ((s >> 24) % 2 ? 1 : 3);
    const double frac = std::frexp(x, &e);
    f.integers.push_back(static_cast<std::int64_t>(std::ldexp(frac, 53)));
    f.exponents.push_back(e - 53);
    t.texts.push_back(texts[(s >> 5) % 7]);
    csv += std::to_string(h.integers.back()) + "," + t.texts.back() + "," + std::to_string(unit.integers.back()) +
           "," + dyadic_text(f.integers.back(), f.exponents.back()) + "," +
           mechanisms::csv_quote_if_needed(g.texts.back()) + "," + std::to_string(i.integers.back()) + ",zz\n";
  }
  return {{{t, f, unit, i, h, g}}, csv};
}

TEST(AggregateColumns, DyadicTextIsExact) {
  EXPECT_EQ(dyadic_text(1, -3), "0.125");
  EXPECT_EQ(dyadic_text(-3, 1), "-6");
  EXPECT_EQ(dyadic_text(3602879701896397, -55), "0.1000000000000000055511151231257827021181583404541015625");
}

TEST(AggregateColumns, SameReleaseAsTheCsvPath) {
  const AggregateRequest r = request();
  for (unsigned seed = 0; seed < 6; ++seed) {
    const Table table = mixed_table(seed, 2000);
    StringReader in(table.csv);
    SeededBits a(test_support::fixed_seed(kSuite, seed)), b(test_support::fixed_seed(kSuite, seed));
    const auto from_csv = mechanisms::aggregate_records(in, r, nullptr, a);
    const auto from_columns = mechanisms::aggregate_records(table.columns, r, nullptr, b);
    EXPECT_EQ(from_columns.header, from_csv.header);
    EXPECT_EQ(from_columns.rows, from_csv.rows) << "seed " << seed;
    EXPECT_EQ(from_columns.input.rows, 2000U);
    EXPECT_FALSE(from_csv.rows.empty());
  }
}

TEST(AggregateColumns, SameReleaseWithPublicKeysAndSameBoundedTotals) {
  AggregateRequest r = request();
  r.public_keys = true;
  const std::vector<std::string> keys = {"north,2", "\"a,b\",-1", "\"say \"\"hi\"\"\",2", ",2", "none,0"};
  const Table table = mixed_table(7, 300);
  StringReader in(table.csv);
  SeededBits a(test_support::fixed_seed(kSuite, 20)), b(test_support::fixed_seed(kSuite, 20));
  const auto from_csv = mechanisms::aggregate_records(in, r, &keys, a);
  const auto from_columns = mechanisms::aggregate_records(table.columns, r, &keys, b);
  EXPECT_EQ(from_columns.rows, from_csv.rows);
  EXPECT_EQ(from_columns.input.rows_dropped, from_csv.input.rows_dropped);
  EXPECT_GT(from_csv.input.rows_dropped, 0U);

  StringReader again(table.csv);
  SeededBits c(test_support::fixed_seed(kSuite, 21)), d(test_support::fixed_seed(kSuite, 21));
  const auto t1 = mechanisms::bound_partition(again, r, &keys, c);
  const auto t2 = mechanisms::bound_partition(table.columns, r, &keys, d);
  EXPECT_EQ(t1.keys, t2.keys);
  ASSERT_EQ(t1.totals.size(), t2.totals.size());
  for (std::size_t k = 0; k < t1.totals.size(); ++k) {
    EXPECT_EQ(t1.totals[k].rows, t2.totals[k].rows);
    EXPECT_EQ(t1.totals[k].sums, t2.totals[k].sums);
  }
  EXPECT_EQ(t1.quantile_values, t2.quantile_values);
}

std::string refusal(const RecordColumns& columns) {
  SeededBits bits(test_support::fixed_seed(kSuite, 30));
  try {
    (void)mechanisms::aggregate_records(columns, request(), nullptr, bits);
  } catch (const ParameterError& e) {
    return e.parameter() + ": " + e.what();
  }
  return "accepted";
}

TEST(AggregateColumns, BadColumnsAreRefusedNamingTheColumn) {
  Table table = mixed_table(1, 5);
  RecordColumns missing = table.columns;
  missing.columns.erase(missing.columns.begin());  // t
  EXPECT_EQ(refusal(missing), "t: column 't' is not in the records");
  RecordColumns short_column = table.columns;
  short_column.columns[1].integers.pop_back();  // f
  EXPECT_NE(refusal(short_column).find("f: column 'f' has 4 rows"), std::string::npos);
  RecordColumns bad_text = table.columns;
  bad_text.columns[0].texts[3] = "1e5";
  EXPECT_NE(refusal(bad_text).find("t: column 't', row 3: "), std::string::npos) << refusal(bad_text);
  RecordColumns huge_exponent = table.columns;
  huge_exponent.columns[1].exponents[2] = 1'000'000'000;  // f
  EXPECT_NE(refusal(huge_exponent).find("f: column 'f': exponent 1000000000 is out of range"), std::string::npos);
  RecordColumns long_text = table.columns;
  long_text.columns[0].texts[4] = std::string(10'001, '7');  // t
  EXPECT_NE(refusal(long_text).find("t: column 't', row 4: "), std::string::npos);
  RecordColumns dyadic_key = table.columns;
  dyadic_key.columns[2].kind = ColumnKind::kDyadic;  // user
  dyadic_key.columns[2].exponents.assign(5, 0);
  EXPECT_NE(refusal(dyadic_key).find("user: column 'user' is a key"), std::string::npos);
}

}  // namespace aggregate_columns_test
}  // namespace
}  // namespace exactdp
