// aggregate_from_totals.h: one partition with the same BitSource gives aggregate_records' table
// bit for bit; records split by unit over partitions give, merged, the whole table's bounded totals
// when the bounding draws nothing (a unit split over two partitions does not: the check can fail);
// totals that do not fit the request are refused naming `totals`.
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

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;
using mechanisms::BoundedTotals;
using test_support::StringReader;

constexpr unsigned kSuite = 9311;

AggregateRequest request(unsigned long l0, unsigned long linf, bool keys) {
  AggregateRequest r;
  r.privacy_unit = "user";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCount, ""}, {AggregateKind::kCountUnits, ""}, {AggregateKind::kMean, "x"}};
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

BoundedTotals bound(const std::string& csv, const AggregateRequest& r, unsigned seed) {
  StringReader in(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, seed));
  return mechanisms::bound_partition(in, r, nullptr, bits);
}

TEST(AggregateFromTotals, OnePartitionIsAggregateRecordsBitForBit) {
  for (const bool keys : {false, true}) {
    const AggregateRequest r = request(2, 3, keys);
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
  const AggregateRequest r = request(2, 2, false);
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
  BoundedTotals wrong = bound(split_a, r, 3);
  mechanisms::merge_bounded_totals(wrong, bound(split_b, r, 4));
  EXPECT_NE(sorted(wrong), expected);  // units counted in both parts
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
  EXPECT_TRUE(refused({{"a", "a"}, {ok, ok}}));                           // a key twice
  EXPECT_TRUE(refused({{"a"}, {mechanisms::GroupTotals{2, 1, {}}}}));     // no sum
  EXPECT_TRUE(refused({{"a"}, {mechanisms::GroupTotals{1, 2, {0}}}}));    // units > rows
  EXPECT_TRUE(refused({{"a"}, {mechanisms::GroupTotals{3, 0, {0}}}}));    // rows without units
  EXPECT_TRUE(refused({{"a", "b"}, {ok}}));                               // keys and totals differ
  EXPECT_TRUE(refused({{"a"}, {ok}}, "keys", false));                     // the request's keys missing
  EXPECT_FALSE(refused({{"a"}, {ok}}));
}

}  // namespace
}  // namespace exactdp
