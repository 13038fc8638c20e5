// The contribution bounding law of mechanisms/aggregate/contribution_bounder.h: which groups and
// which rows a unit keeps is uniform over the subsets of the allowed size (Pearson chi-square,
// fixed seeds, alpha = 1e-4 each), and a deliberately biased reservoir is rejected by the same
// check (so the check can fail).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_release.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/uniform.h>
#include <exactdp/verification/goodness_of_fit.h>

#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_bounding_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;
using test_support::StringReader;

constexpr unsigned kSuite = 9301;
const mpq_class kAlpha(1, 10000);

// The 10 two-element subsets of {0..4} as bit masks, and the index of a mask.
int subset_index(unsigned mask) {
  int index = 0;
  for (unsigned m = 0; m < 32; ++m) {
    if (__builtin_popcount(m) != 2) continue;
    if (m == mask) return index;
    ++index;
  }
  return -1;
}

// Pearson chi-square of counts against the uniform law on counts.size() cells.
verification::TestResult uniform_chi_square(const std::vector<unsigned long long>& counts) {
  unsigned long long n = 0;
  for (auto c : counts) n += c;
  std::vector<verification::Cell> cells(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    cells[i].first = mpz_class(static_cast<unsigned long>(i));
    cells[i].last = cells[i].first;
    cells[i].mass = Interval(mpq_class(1, static_cast<unsigned long>(counts.size())), kDefaultPrecision);
    cells[i].observed = counts[i];
  }
  return verification::pearson_chi_square(cells, n);
}

AggregateRequest request(unsigned long l0, unsigned long linf, bool with_sum) {
  AggregateRequest r;
  r.privacy_unit = "u";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCountUnits, ""}};
  if (with_sum) {
    r.outputs.push_back({AggregateKind::kSum, "v"});
    r.value_columns.push_back({"v", mechanisms::parse_value_bounds("0,16")});
  }
  r.bounding = {l0, linf};
  r.epsilon = 1;
  r.delta = mpq_class(1, 1000000);
  return r;
}

constexpr int kUnits = 20000;

TEST(AggregateBounding, KeptGroupsAreAUniformSubset) {
  // Unit i has one row in each of its own groups i:0 .. i:4, rows of all units interleaved.
  std::string csv = "u,g,v\n";
  for (int k = 0; k < 5; ++k) {
    for (int i = 0; i < kUnits; ++i) csv += std::to_string(i) + "," + std::to_string(i) + ":" + std::to_string(k) + ",1\n";
  }
  StringReader in(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  const auto t = mechanisms::bounded_totals(in, request(2, 1, false), bits);
  std::vector<unsigned> mask(kUnits, 0);
  for (std::size_t i = 0; i < t.keys.size(); ++i) {
    if (t.totals[i].units == 0) continue;
    const std::size_t colon = t.keys[i].find(':');
    mask[std::stoul(t.keys[i].substr(0, colon))] |= 1u << std::stoul(t.keys[i].substr(colon + 1));
  }
  std::vector<unsigned long long> counts(10, 0);
  for (const unsigned m : mask) {
    const int s = subset_index(m);
    ASSERT_GE(s, 0) << "a unit kept " << __builtin_popcount(m) << " groups, not 2";
    ++counts[static_cast<std::size_t>(s)];
  }
  const auto test = uniform_chi_square(counts);
  EXPECT_FALSE(upper_at_most(test.p_value, kAlpha)) << test.detail;
}

TEST(AggregateBounding, KeptRowsAreAUniformSubset) {
  // Unit i has 5 rows in group i with values 1, 2, 4, 8, 16: the kept sum names the kept pair.
  std::string csv = "u,g,v\n";
  for (int k = 0; k < 5; ++k) {
    for (int i = 0; i < kUnits; ++i) csv += std::to_string(i) + "," + std::to_string(i) + "," + std::to_string(1 << k) + "\n";
  }
  StringReader in(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, 2));
  const auto t = mechanisms::bounded_totals(in, request(1, 2, true), bits);
  std::vector<unsigned long long> counts(10, 0);
  for (const auto& g : t.totals) {
    ASSERT_EQ(g.rows, 2);
    const int s = subset_index(static_cast<unsigned>(g.sums[0].get_ui()));
    ASSERT_GE(s, 0);
    ++counts[static_cast<std::size_t>(s)];
  }
  const auto test = uniform_chi_square(counts);
  EXPECT_FALSE(upper_at_most(test.p_value, kAlpha)) << test.detail;
}

TEST(AggregateBounding, TheCheckRejectsABiasedReservoir) {
  // Algorithm R with an off-by-one (r below j + 1 instead of j): item j enters with probability
  // L / (j + 1), so the late items are under-kept. The same chi-square must reject it.
  SeededBits bits(test_support::fixed_seed(kSuite, 3));
  std::vector<unsigned long long> counts(10, 0);
  for (int unit = 0; unit < kUnits; ++unit) {
    std::array<unsigned, 2> kept = {0, 1};
    for (unsigned j = 3; j <= 5; ++j) {
      const std::uint64_t r = sample_uniform_below(bits, std::uint64_t{j} + 1);
      if (r < 2) kept[r] = j - 1;
    }
    ++counts[static_cast<std::size_t>(subset_index((1u << kept[0]) | (1u << kept[1])))];
  }
  const auto test = uniform_chi_square(counts);
  EXPECT_TRUE(upper_at_most(test.p_value, kAlpha)) << test.detail;
}

TEST(AggregateBounding, StateOverTheLimitIsRefusedWithTheLine) {
  std::string csv = "u,g,v\n";
  for (int i = 0; i < 20; ++i) csv += std::to_string(i) + ",g" + std::to_string(i) + ",1\n";
  mechanisms::AggregateLimits limits;
  limits.max_pairs = 10;
  StringReader in(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, 4));
  try {
    (void)mechanisms::bounded_totals(in, request(1, 1, false), bits, limits);
    ADD_FAILURE() << "11 pairs accepted over a limit of 10";
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("input line 12"), std::string::npos) << e.what();
  }
  StringReader again(csv);
  limits.max_pairs = 20;
  EXPECT_EQ(mechanisms::bounded_totals(again, request(1, 1, false), bits, limits).keys.size(), 20U);
}

}  // namespace aggregate_bounding_test
}  // namespace
}  // namespace exactdp
