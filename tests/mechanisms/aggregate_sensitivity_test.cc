// The derived sensitivity of mechanisms/aggregate/: the exact pre-noise aggregates with and
// without one heavy unit differ by at most the derived bounds (at most L0 groups changed, at most
// Linf rows, 1 unit and Linf M of the clamped sum in each; L1 and L2^2 within
// quantity_sensitivity). The same check fails when the totals were bounded with a larger L0 than
// the one the bounds are derived from (so it can fail).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include <exactdp/mechanisms/aggregate/aggregate_release.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_sensitivity_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;
using test_support::StringReader;

constexpr unsigned kSuite = 9302;

AggregateRequest request(unsigned long l0, unsigned long linf) {
  AggregateRequest r;
  r.privacy_unit = "user";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCount, ""}, {AggregateKind::kCountUnits, ""}, {AggregateKind::kSum, "x"}};
  r.value_columns.push_back({"x", mechanisms::parse_value_bounds("-2.5,10")});  // grid 0.1, M = 100
  r.bounding = {l0, linf};
  r.epsilon = 1;
  r.delta = mpq_class(1, 1000000);
  return r;
}

// 200 ordinary units with a few rows each over 30 groups, values spread over [-5, 15].
std::string base_records() {
  std::string csv = "user,g,x\n";
  unsigned s = 12345;
  for (int row = 0; row < 1000; ++row) {
    s = s * 1103515245u + 12345u;
    csv += "u" + std::to_string((s >> 8) % 200) + ",g" + std::to_string((s >> 16) % 30) + "," +
           std::to_string(static_cast<int>((s >> 4) % 201) / 10 - 5) + ".5\n";
  }
  return csv;
}

// The heavy unit: 40 rows in each of 25 groups (some new), values far outside the bounds.
std::string heavy_records() {
  std::string csv;
  for (int g = 0; g < 25; ++g) {
    for (int k = 0; k < 40; ++k) csv += "heavy,g" + std::to_string(g + 10) + ",1000000000.75\n";
  }
  return csv;
}

std::map<std::string, mechanisms::GroupTotals> totals(const std::string& csv, const AggregateRequest& r,
                                                      unsigned seed) {
  StringReader in(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, seed));
  const auto t = mechanisms::bounded_totals(in, r, bits);
  std::map<std::string, mechanisms::GroupTotals> out;
  for (std::size_t i = 0; i < t.keys.size(); ++i) out[t.keys[i]] = t.totals[i];
  return out;
}

struct Change {
  unsigned long groups = 0;
  mpz_class count_l1, units_l1, sum_l1, count_l2sq, units_l2sq, sum_l2sq;
  mpz_class count_max, units_max, sum_max;
};

Change change(const std::map<std::string, mechanisms::GroupTotals>& a,
              const std::map<std::string, mechanisms::GroupTotals>& b) {
  Change c;
  auto at = [](const auto& m, const std::string& k) {
    const auto it = m.find(k);
    return it == m.end() ? mechanisms::GroupTotals{0, 0, {0}} : it->second;
  };
  std::map<std::string, int> keys;
  for (const auto& [k, v] : a) keys[k] = 1;
  for (const auto& [k, v] : b) keys[k] = 1;
  for (const auto& [k, unused] : keys) {
    const auto x = at(a, k), y = at(b, k);
    const mpz_class dc = abs(mpz_class(x.rows - y.rows)), du = abs(mpz_class(x.units - y.units)),
                    ds = abs(mpz_class(x.sums[0] - y.sums[0]));
    if (dc == 0 && du == 0 && ds == 0) continue;
    ++c.groups;
    c.count_l1 += dc;
    c.units_l1 += du;
    c.sum_l1 += ds;
    c.count_l2sq += dc * dc;
    c.units_l2sq += du * du;
    c.sum_l2sq += ds * ds;
    c.count_max = std::max(c.count_max, dc);
    c.units_max = std::max(c.units_max, du);
    c.sum_max = std::max(c.sum_max, ds);
  }
  return c;
}

// Does the change stay within what `r` derives?
bool within_derived_bounds(const Change& c, const AggregateRequest& r) {
  const auto q = mechanisms::noisy_quantities(r);
  const auto count = mechanisms::quantity_sensitivity(r, q[0]);
  const auto units = mechanisms::quantity_sensitivity(r, q[1]);
  const auto sum = mechanisms::quantity_sensitivity(r, q[2]);
  return c.groups <= r.bounding.max_groups && c.count_max <= count.per_group && c.units_max <= units.per_group &&
         c.sum_max <= sum.per_group && c.count_l1 <= count.l1 && c.units_l1 <= units.l1 && c.sum_l1 <= sum.l1 &&
         c.count_l2sq <= count.l2_squared && c.units_l2sq <= units.l2_squared && c.sum_l2sq <= sum.l2_squared;
}

TEST(AggregateSensitivity, OneHeavyUnitMovesTheExactAggregatesWithinTheDerivedBounds) {
  // The heavy unit's rows come last, so every other unit's bounding draws are the same.
  for (const auto& [l0, linf] : {std::pair{1UL, 1UL}, {3UL, 2UL}, {5UL, 7UL}}) {
    const AggregateRequest r = request(l0, linf);
    for (unsigned seed = 0; seed < 5; ++seed) {
      const Change c = change(totals(base_records(), r, seed), totals(base_records() + heavy_records(), r, seed));
      EXPECT_EQ(c.groups, l0) << "the heavy unit should fill its L0 groups";
      EXPECT_EQ(c.count_max, linf);
      EXPECT_EQ(c.sum_max, mpz_class(linf) * 100) << "values clamped to 10 = 100 grid steps";
      EXPECT_TRUE(within_derived_bounds(c, r)) << "L0 = " << l0 << ", Linf = " << linf;
    }
  }
}

TEST(AggregateSensitivity, TheCheckFailsWhenTheBoundingIsLooserThanTheDerivation) {
  const Change c = change(totals(base_records(), request(5, 2), 1),
                          totals(base_records() + heavy_records(), request(5, 2), 1));
  EXPECT_FALSE(within_derived_bounds(c, request(2, 2)));
}

TEST(AggregateSensitivity, DerivedBoundsAreL0TimesThePerGroupBound) {
  const AggregateRequest r = request(4, 3);
  const auto q = mechanisms::noisy_quantities(r);
  ASSERT_EQ(q.size(), 3U);
  EXPECT_EQ(mechanisms::quantity_sensitivity(r, q[0]).l1, 12);
  EXPECT_EQ(mechanisms::quantity_sensitivity(r, q[0]).l2_squared, 36);
  EXPECT_EQ(mechanisms::quantity_sensitivity(r, q[1]).l1, 4);
  EXPECT_EQ(mechanisms::quantity_sensitivity(r, q[2]).per_group, 300);  // Linf M = 3 * 100
  EXPECT_EQ(mechanisms::quantity_sensitivity(r, q[2]).l2_squared, 4 * 300 * 300);
}

}  // namespace aggregate_sensitivity_test
}  // namespace
}  // namespace exactdp
