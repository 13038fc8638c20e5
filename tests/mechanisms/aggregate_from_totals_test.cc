// aggregate_from_totals.h: one partition with the same BitSource gives aggregate_records' table
// bit for bit; records split by unit over partitions give, merged, the whole table's bounded totals
// when the bounding draws nothing (a unit split over two partitions does not: the check can fail),
// and every group's kept values of a quantile as a multiset; totals that do not fit the request
// (quantile_values included) are refused naming `totals`.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_from_totals.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_from_totals_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;
using mechanisms::BoundedTotals;
using test_support::StringReader;

constexpr unsigned kSuite = 9311;

AggregateRequest request(unsigned long l0, unsigned long linf, bool keys, bool quantiles = false) {
  AggregateRequest r;
  r.privacy_unit = "user";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCount, ""}, {AggregateKind::kCountUnits, ""}, {AggregateKind::kMean, "x"}};
  if (quantiles) {
    r.outputs.push_back({AggregateKind::kQuantile, "x", mpq_class(1, 2)});
    r.outputs.push_back({AggregateKind::kQuantile, "x", mpq_class(9, 10)});
  }
  r.value_columns.push_back({"x", mechanisms::parse_value_bounds("-2.5,10")});
  r.bounding = {l0, linf};
  r.epsilon = 2;
  r.public_keys = keys;
  if (!keys) r.delta = mpq_class(1, 1000000);
  return r;
}

// Unit u has row k in group g(u, k); `per_unit` rows each.
std::string records(int units, int per_unit, int groups, const std::string& header = "user,g,x\n") {
  std::string csv = header;
  for (int k = 0; k < per_unit; ++k) {
    for (int u = 0; u < units; ++u) {
      csv += "u" + std::to_string(u) + ",g" + std::to_string((u + k * 7) % groups) + "," + std::to_string(u % 13 - 3) +
             ".25\n";
    }
  }
  return csv;
}

std::vector<std::pair<std::string, std::string>> sorted(const BoundedTotals& t) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < t.keys.size(); ++i) {
    std::string v = t.totals[i].rows.get_str() + "/" + t.totals[i].units.get_str();
    for (const auto& s : t.totals[i].sums) v += "/" + s.get_str();
    out.emplace_back(t.keys[i], v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Per quantile, per group key (sorted): the kept values, sorted (a multiset).
std::vector<std::vector<std::pair<std::string, std::vector<mpz_class>>>> kept_multisets(const BoundedTotals& t) {
  std::vector<std::vector<std::pair<std::string, std::vector<mpz_class>>>> out;
  for (const auto& per_group : t.quantile_values) {
    out.emplace_back();
    for (std::size_t i = 0; i < t.keys.size(); ++i) {
      std::vector<mpz_class> v = per_group.at(i);
      std::sort(v.begin(), v.end());
      out.back().emplace_back(t.keys[i], std::move(v));
    }
    std::sort(out.back().begin(), out.back().end());
  }
  return out;
}

BoundedTotals bound(const std::string& csv, const AggregateRequest& r, unsigned seed) {
  StringReader in(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, seed));
  return mechanisms::bound_partition(in, r, nullptr, bits);
}

TEST(AggregateFromTotals, OnePartitionIsAggregateRecordsBitForBit) {
  for (const int variant : {0, 1, 2, 3}) {
    const bool keys = (variant & 1) != 0;
    const AggregateRequest r = request(2, 3, keys, /*quantiles=*/(variant & 2) != 0);
    const std::string csv = records(2000, 6, 9);
    const std::vector<std::string> key_list = {"g3", "g0", "nowhere"};
    const auto* k = keys ? &key_list : nullptr;
    StringReader whole(csv);
    SeededBits a(test_support::fixed_seed(kSuite, 1));
    const auto expected = mechanisms::aggregate_records(whole, r, k, a);
    StringReader part(csv);
    SeededBits b(test_support::fixed_seed(kSuite, 1));
    const auto got = mechanisms::aggregate_from_totals(r, mechanisms::bound_partition(part, r, k, b), k, b);
    EXPECT_EQ(got.header, expected.header);
    EXPECT_EQ(got.rows, expected.rows);
    EXPECT_EQ(got.guarantee.epsilon, expected.guarantee.epsilon);
    EXPECT_EQ(got.guarantee.delta, expected.guarantee.delta);
    EXPECT_EQ(got.candidate_groups, expected.candidate_groups);
    EXPECT_GT(got.rows.size(), 2U);
    EXPECT_EQ(a.bits_consumed(), b.bits_consumed());
  }
}

TEST(AggregateFromTotals, UnitDisjointPartitionsMergeToTheWholeTotals) {
  // Each unit has 2 rows in 1 group: L0 = 2, Linf = 2 draw nothing.
  const AggregateRequest r = request(2, 2, false, /*quantiles=*/true);
  std::string low = "user,g,x\n", high = "user,g,x\n", split_a = "user,g,x\n", split_b = "user,g,x\n";
  const std::string whole = records(100, 2, 7);  // both rows of a unit in one group
  std::size_t line_start = whole.find('\n') + 1;
  for (int line = 0; line_start < whole.size(); ++line) {
    const std::size_t end = whole.find('\n', line_start) + 1;
    const std::string row = whole.substr(line_start, end - line_start);
    const int unit = std::stoi(row.substr(1));
    (unit < 50 ? low : high) += row;          // by unit: every unit in one part
    (line < 100 ? split_a : split_b) += row;  // by position: every unit in both parts
    line_start = end;
  }
  const auto expected = sorted(bound(whole, r, 2));
  BoundedTotals merged = bound(low, r, 3);
  mechanisms::merge_bounded_totals(merged, bound(high, r, 4));
  EXPECT_EQ(sorted(merged), expected);
  EXPECT_EQ(kept_multisets(merged), kept_multisets(bound(whole, r, 2)));
  EXPECT_EQ(merged.quantile_values.size(), 2U);
  BoundedTotals wrong = bound(split_a, r, 3);
  mechanisms::merge_bounded_totals(wrong, bound(split_b, r, 4));
  EXPECT_NE(sorted(wrong), expected);  // units counted in both parts
}

TEST(AggregateFromTotals, UnitDisjointPartitionsMergeToTheWholeKeptValues) {
  // Linf = 1 keeps one of a unit's 2 rows (a draw), but both rows of a unit hold the same value
  // in the same group: every group's kept multiset is the same whatever the draws.
  const AggregateRequest r = request(1, 1, false, /*quantiles=*/true);
  const std::string whole = records(300, 2, 7);
  std::string low = "user,g,x\n", high = "user,g,x\n", split_a = "user,g,x\n", split_b = "user,g,x\n";
  std::size_t line_start = whole.find('\n') + 1;
  for (int line = 0; line_start < whole.size(); ++line) {
    const std::size_t end = whole.find('\n', line_start) + 1;
    const std::string row = whole.substr(line_start, end - line_start);
    (std::stoi(row.substr(1)) % 3 == 0 ? low : high) += row;  // by unit
    (line < 300 ? split_a : split_b) += row;                    // by position: each unit in both
    line_start = end;
  }
  const auto expected = kept_multisets(bound(whole, r, 7));
  ASSERT_EQ(expected.size(), 2U);
  BoundedTotals merged = bound(low, r, 8);
  mechanisms::merge_bounded_totals(merged, bound(high, r, 9));
  EXPECT_EQ(kept_multisets(merged), expected);
  StringReader in(whole);
  SeededBits a(test_support::fixed_seed(kSuite, 10));
  const auto single = mechanisms::aggregate_records(in, r, nullptr, a);
  SeededBits b(test_support::fixed_seed(kSuite, 10));
  StringReader again(whole);
  (void)mechanisms::bound_partition(again, r, nullptr, b);  // the same bounding draws as `a`
  EXPECT_EQ(mechanisms::aggregate_from_totals(r, merged, nullptr, b).rows, single.rows);
  BoundedTotals wrong = bound(split_a, r, 8);
  mechanisms::merge_bounded_totals(wrong, bound(split_b, r, 9));
  EXPECT_NE(kept_multisets(wrong), expected);  // each unit's value kept twice
}

TEST(AggregateFromTotals, RefusesTotalsThatDoNotFitTheRequest) {
  const AggregateRequest r = request(1, 1, true);
  SeededBits bits(test_support::fixed_seed(kSuite, 5));
  const std::vector<std::string> keys = {"a", "b"};
  auto refused = [&](BoundedTotals t, const std::string& parameter = "totals", bool with_keys = true) {
    try {
      (void)mechanisms::aggregate_from_totals(r, std::move(t), with_keys ? &keys : nullptr, bits);
    } catch (const ParameterError& e) {
      return e.parameter() == parameter;
    }
    return false;
  };
  const mechanisms::GroupTotals ok{2, 1, {mpz_class(5)}};
  EXPECT_TRUE(refused({{"a", "a"}, {ok, ok}, {}}));                           // a key twice
  EXPECT_TRUE(refused({{"a"}, {mechanisms::GroupTotals{2, 1, {}}}, {}}));     // no sum
  EXPECT_TRUE(refused({{"a"}, {mechanisms::GroupTotals{1, 2, {0}}}, {}}));    // units > rows
  EXPECT_TRUE(refused({{"a"}, {mechanisms::GroupTotals{3, 0, {0}}}, {}}));    // rows without units
  EXPECT_TRUE(refused({{"a", "b"}, {ok}, {}}));                               // keys and totals differ
  EXPECT_TRUE(refused({{"a"}, {ok}, {}}, "keys", false));                     // the request's keys missing
  EXPECT_FALSE(refused({{"a"}, {ok}, {}}));
}

TEST(AggregateFromTotals, RefusesQuantileValuesThatDoNotFitTheRequest) {
  const AggregateRequest r = request(1, 2, true, /*quantiles=*/true);  // x in -2.5..10: indices -25..100
  SeededBits bits(test_support::fixed_seed(kSuite, 6));
  const std::vector<std::string> keys = {"a", "b"};
  auto refused = [&](std::vector<std::vector<std::vector<mpz_class>>> values) {
    BoundedTotals t{{"a"}, {mechanisms::GroupTotals{2, 1, {mpz_class(5)}}}, std::move(values)};
    try {
      (void)mechanisms::aggregate_from_totals(r, std::move(t), &keys, bits);
    } catch (const ParameterError& e) {
      return e.parameter() == "totals";
    }
    return false;
  };
  const std::vector<std::vector<mpz_class>> two = {{mpz_class(-25), mpz_class(30)}};
  EXPECT_TRUE(refused({}));                                    // no kept values
  EXPECT_TRUE(refused({two}));                                 // one list for two quantiles
  EXPECT_TRUE(refused({two, {}}));                             // no group in the second
  EXPECT_TRUE(refused({two, {{mpz_class(1)}}}));               // one value for two kept rows
  EXPECT_TRUE(refused({two, {{mpz_class(1), mpz_class(101)}}}));  // off the grid's indices
  EXPECT_FALSE(refused({two, two}));
}

}  // namespace aggregate_from_totals_test
}  // namespace
}  // namespace exactdp
