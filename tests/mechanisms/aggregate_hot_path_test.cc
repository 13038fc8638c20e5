// The fast paths of `exactdp aggregate`'s reading and bounding give the answers of the plain ones:
// the flat hash tables (mechanisms/aggregate/flat_hash_map.h) against std::unordered_map, the
// int64 cells of read_records (aggregate_input.cc) against an independent exact reading and
// exact clamping (and CellCodec's messages for malformed cells),
// and the bounder's int64 values against its mpz_class values (same totals, same bits drawn).
// Each comparison is also shown to fail on a deliberately wrong reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_release.h>
#include <exactdp/mechanisms/aggregate/contribution_bounder.h>
#include <exactdp/mechanisms/aggregate/flat_hash_map.h>
#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_hot_path_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;
using test_support::StringReader;

constexpr unsigned kSuite = 9311;

TEST(AggregateHotPath, TextIdsNumberTextsInOrderOfFirstSight) {
  std::mt19937_64 rng(1);
  mechanisms::internal::TextIds ids;
  std::unordered_map<std::string, std::uint32_t> reference;
  for (int i = 0; i < 50000; ++i) {
    // Lengths 0..40 over a small alphabet: many repeats, many shared 8-byte prefixes; every
    // third text shares its first 19 or 20 bytes (the slot's inline part) with many others.
    std::string text(rng() % 41, 'a');
    for (auto& ch : text) ch = static_cast<char>('a' + rng() % 3);
    if (i % 3 == 0) text = std::string(19 + rng() % 2, 'p') + text.substr(0, rng() % 4);
    bool fresh = false;
    const std::uint32_t id = ids.intern(text, fresh);
    const auto [it, inserted] = reference.try_emplace(text, static_cast<std::uint32_t>(reference.size()));
    ASSERT_EQ(fresh, inserted) << text;
    ASSERT_EQ(id, it->second) << text;
    ASSERT_EQ(ids.text(id), text);
  }
  EXPECT_EQ(ids.size(), reference.size());
  EXPECT_GT(ids.size(), 1000U);
}

TEST(AggregateHotPath, IdsDoNotDependOnTheHashKey) {
  mechanisms::internal::TextIds fixed, keyed(mechanisms::internal::random_hash_key());
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20000; ++i) {
    const std::string text = "u" + std::to_string(rng() % 5000);
    bool fresh_a = false, fresh_b = false;
    ASSERT_EQ(fixed.intern(text, fresh_a), keyed.intern(text, fresh_b));
    ASSERT_EQ(fresh_a, fresh_b);
  }
  // The keys are random: two differ (the chance of equal 128-bit keys is 2^-128).
  EXPECT_NE(mechanisms::internal::random_hash_key().bytes, mechanisms::internal::random_hash_key().bytes);
  EXPECT_NE(mechanisms::internal::text_hash("u1", {}), mechanisms::internal::text_hash("u2", {}));
}

TEST(AggregateHotPath, FlatU64MapAgreesWithUnorderedMap) {
  std::mt19937_64 rng(2);
  mechanisms::internal::FlatU64Map<std::uint32_t> map;
  std::unordered_map<std::uint64_t, std::uint32_t> reference;
  for (std::uint32_t i = 0; i < 200000; ++i) {
    // Keys (unit << 32 | group) from a small range (repeats) and the extremes allowed.
    const std::uint64_t key = i % 1000 == 0 ? ((std::uint64_t{0xFFFFFFFEu} << 32) | 0xFFFFFFFFu) * (i & 1)
                                            : ((rng() % 3000) << 32) | (rng() % 50);
    if (rng() % 2 == 0) {
      const auto [value, fresh] = map.try_emplace(key);
      const auto [it, inserted] = reference.try_emplace(key, 0);
      ASSERT_EQ(fresh, inserted);
      ASSERT_EQ(*value, it->second);
      *value = it->second = i;
    } else {
      const std::uint32_t* value = map.find(key);
      const auto it = reference.find(key);
      ASSERT_EQ(value == nullptr, it == reference.end());
      if (value != nullptr) {
        ASSERT_EQ(*value, it->second);
      }
    }
  }
  ASSERT_EQ(map.size(), reference.size());
  std::size_t visited = 0;
  map.for_each([&](std::uint64_t key, std::uint32_t value) {
    ++visited;
    EXPECT_EQ(reference.at(key), value);
  });
  EXPECT_EQ(visited, reference.size());
}

AggregateRequest sum_request(const std::string& bounds) {
  AggregateRequest r;
  r.privacy_unit = "u";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCount, ""}, {AggregateKind::kSum, "v"}};
  r.value_columns.push_back({"v", mechanisms::parse_value_bounds(bounds)});
  r.bounding = {1, 1};
  r.epsilon = 1;
  r.delta = mpq_class(1, 1000000);
  return r;
}

// Cells of every shape the grammar allows: signs, no integer part, no fraction digits, leading
// zeros, ties of the rounding, 18 and 19 digits, and random ones up to 24 digits.
std::vector<std::string> cells() {
  std::vector<std::string> out = {"0", "-0", "+0", "1.", ".5", "-.5", "+.5", "0.0005", "0.0015",
                                  "-0.0005", "-0.0015", "2.4994999", "-7.0004999", "0000.0025",
                                  "999999999999999999", "9999999999999999999", "-999999999999.9995",
                                  "12.3456789012345678", "000000000000000001.5",
                                  "-123456789012345678901234567890.123", "3.14159265358979323846"};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 3000; ++i) {
    std::string c = rng() % 3 == 0 ? "-" : (rng() % 5 == 0 ? "+" : "");
    const int whole = static_cast<int>(rng() % 14), fraction = static_cast<int>(rng() % 11);
    for (int k = 0; k < whole; ++k) c += static_cast<char>('0' + rng() % 10);
    if (fraction > 0 || whole == 0) c += '.';
    for (int k = 0; k < fraction || (whole == 0 && k == 0); ++k) c += static_cast<char>('0' + rng() % 10);
    out.push_back(c);
  }
  return out;
}

// The group sums of read_records: one unit and one group per cell.
std::map<std::string, mpz_class> read_sums(const std::vector<std::string>& values, const AggregateRequest& r) {
  std::string csv = "u,g,v\n";
  for (std::size_t i = 0; i < values.size(); ++i) {
    csv += "u" + std::to_string(i) + ",g" + std::to_string(i) + "," + values[i] + "\n";
  }
  StringReader in(csv, 777);
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  const auto t = mechanisms::bounded_totals(in, r, bits);
  std::map<std::string, mpz_class> sums;
  for (std::size_t i = 0; i < t.keys.size(); ++i) sums[t.keys[i]] = t.totals[i].sums[0];
  return sums;
}

// The exact value of a well-formed cell, read independently of CellCodec.
mpq_class exact_value(const std::string& cell) {
  std::string digits;
  unsigned long fraction = 0;
  bool point = false;
  for (const char ch : cell) {
    if (ch == '.') point = true;
    if (ch < '0' || ch > '9') continue;
    digits += ch;
    if (point) ++fraction;
  }
  mpz_class ten;
  mpz_ui_pow_ui(ten.get_mpz_t(), 10, fraction);
  mpq_class x(mpz_class(digits, 10), ten);
  x.canonicalize();
  return cell[0] == '-' ? mpq_class(-x) : x;
}

// The reference index: floor(x / G + 1/2) clamped exactly; `round` false is the deliberately
// wrong floor(x / G).
mpz_class reference_index(const std::string& cell, const mechanisms::ValueBounds& b, bool round) {
  const mpq_class u = exact_value(cell) / b.grid + (round ? mpq_class(1, 2) : mpq_class(0));
  mpz_class k;
  mpz_fdiv_q(k.get_mpz_t(), u.get_num_mpz_t(), u.get_den_mpz_t());
  if (k < b.lower_index) k = b.lower_index;
  if (k > b.upper_index) k = b.upper_index;
  return k;
}

int mismatches(const std::vector<std::string>& values, const AggregateRequest& r, bool round) {
  const auto sums = read_sums(values, r);
  int bad = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (sums.at("g" + std::to_string(i)) != reference_index(values[i], r.value_columns[0].bounds, round)) ++bad;
  }
  return bad;
}

TEST(AggregateHotPath, CellsAreRoundedAndClampedExactly) {
  const auto values = cells();
  // Bounds whose indices fit in int64 (the 128-bit path) and bounds that do not (mpz_class).
  for (const std::string bounds : {"-1000000000000.000,1000000000000.000", "-5,7.5",
                                   "-100000000000000000000.000,100000000000000000000.000"}) {
    EXPECT_EQ(mismatches(values, sum_request(bounds), true), 0) << bounds;
  }
}

TEST(AggregateHotPath, TheCellCheckRejectsAWrongRounding) {
  // Truncating instead of rounding moves about half the cells with more than 3 decimals.
  EXPECT_GT(mismatches(cells(), sum_request("-1000000000000.000,1000000000000.000"), false), 100);
}

TEST(AggregateHotPath, MalformedCellsKeepCellCodecsMessage) {
  for (const std::string bad : {"1e5", "1.2.3", "", "+", "-.", " 1", "0x10", "1,5"}) {
    const std::string csv = "u,g,v\nu1,g1,1\nu2,g2," + (bad == "1,5" ? std::string("\"1,5\"") : bad) + "\n";
    StringReader in(csv);
    SeededBits bits(test_support::fixed_seed(kSuite, 2));
    std::string expected;
    try {
      mpz_class k;
      mechanisms::CellCodec::decimals(mpq_class(1, 10), mechanisms::Rounding::kNearest).parse(bad, 3, "v", k);
    } catch (const mechanisms::CsvError& e) {
      expected = e.what();
    }
    ASSERT_FALSE(expected.empty()) << bad;
    try {
      (void)mechanisms::bounded_totals(in, sum_request("0,10.0"), bits);
      ADD_FAILURE() << "'" << bad << "' accepted";
    } catch (const mechanisms::CsvError& e) {
      EXPECT_EQ(std::string(e.what()), expected);
    }
  }
}

// The totals and the position in the bit stream after feeding the same records.
struct Fed {
  std::vector<mechanisms::GroupTotals> totals;
  std::uint64_t next_draw = 0;
};

Fed feed(bool wide, std::uint64_t perturb) {
  SeededBits bits(test_support::fixed_seed(kSuite, 3));
  mechanisms::ContributionBounder b({2, 3}, 2, bits);
  std::mt19937_64 rng(4);
  for (int i = 0; i < 20000; ++i) {
    const std::uint32_t unit = b.unit_id("u" + std::to_string(rng() % 300));
    const std::uint32_t group = b.group_id("g" + std::to_string(rng() % 20));
    const std::int64_t v0 = static_cast<std::int64_t>(rng() % 2000) - 1000;
    const std::int64_t v1 = i % 97 == 0 ? INT64_MIN + static_cast<std::int64_t>(perturb) : INT64_MAX;
    if (wide) {
      const std::vector<mpz_class> values = {mpz_class(std::to_string(v0)), mpz_class(std::to_string(v1))};
      b.add(unit, group, values);
    } else {
      const std::vector<std::int64_t> values = {v0, v1};
      b.add(unit, group, values);
    }
  }
  Fed out{b.totals(), 0};
  out.next_draw = bits.bits(64) ^ bits.bits_consumed();
  return out;
}

bool same(const Fed& a, const Fed& b) {
  if (a.next_draw != b.next_draw || a.totals.size() != b.totals.size()) return false;
  for (std::size_t i = 0; i < a.totals.size(); ++i) {
    if (a.totals[i].rows != b.totals[i].rows || a.totals[i].units != b.totals[i].units ||
        a.totals[i].sums != b.totals[i].sums) {
      return false;
    }
  }
  return true;
}

TEST(AggregateHotPath, Int64AndMpzValuesGiveTheSameTotalsAndDraws) {
  EXPECT_TRUE(same(feed(false, 0), feed(true, 0)));
  EXPECT_FALSE(same(feed(false, 0), feed(true, 1)));  // the check sees a one-unit change
}

TEST(AggregateHotPath, OneBounderTakesOneValueWidth) {
  SeededBits bits(test_support::fixed_seed(kSuite, 4));
  mechanisms::ContributionBounder b({1, 1}, 1, bits);
  const std::vector<std::int64_t> narrow = {1};
  const std::vector<mpz_class> wide = {mpz_class(1)};
  b.add(b.unit_id("a"), b.group_id("g"), narrow);
  EXPECT_THROW(b.add(b.unit_id("b"), b.group_id("g"), wide), std::logic_error);
}

}  // namespace aggregate_hot_path_test
}  // namespace
}  // namespace exactdp
