// A mean's sum is centred on the bounds' midpoint (aggregate_request.h): its per-group
// sensitivity is Linf H, H = max(ceil((U - L) / 2G), 1), not Linf max(|L|, |U|) / G as a plain sum.
// Checked three ways: the derived bounds ([10, 20]: 5 Linf, where the sum keeps 20 Linf); one
// heavy unit moves the exact centred totals by at most that bound while the uncentred totals (what
// an uncentred release would add the same noise to) move by more, so the check can fail; and a
// release at epsilon 10^6 gives each group's exact mean back (the centre is added back).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>
#include <exactdp/mechanisms/aggregate/aggregate_release.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace aggregate_centred_mean_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::AggregateKind;
using mechanisms::AggregateRequest;
using mechanisms::NoisyQuantity;
using test_support::StringReader;

constexpr unsigned kSuite = 9311;

AggregateRequest request(const char* bounds, unsigned long l0, unsigned long linf) {
  AggregateRequest r;
  r.privacy_unit = "user";
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kSum, "x"}, {AggregateKind::kMean, "x"}};
  r.value_columns.push_back({"x", mechanisms::parse_value_bounds(bounds)});
  r.bounding = {l0, linf};
  r.epsilon = 1;
  r.delta = mpq_class(1, 1000000);
  return r;
}

mpz_class per_group(const AggregateRequest& r, AggregateKind kind) {
  return mechanisms::quantity_sensitivity(r, NoisyQuantity{kind, "x"}).per_group;
}

TEST(AggregateCentredMean, TheMeansSumIsCentredAndTheSumIsNot) {
  const AggregateRequest r = request("10,20", 2, 3);
  const auto q = mechanisms::noisy_quantities(r);
  ASSERT_EQ(q.size(), 3U);
  EXPECT_EQ(q[0], (NoisyQuantity{AggregateKind::kSum, "x"}));
  EXPECT_EQ(q[1], (NoisyQuantity{AggregateKind::kCentredSum, "x"}));
  EXPECT_EQ(q[1].name(), "centred_sum_x");
  EXPECT_EQ(q[2], (NoisyQuantity{AggregateKind::kCount, ""}));
  EXPECT_EQ(per_group(r, AggregateKind::kSum), 20 * 3);         // max_rows max(|L|, |U|), as before
  EXPECT_EQ(per_group(r, AggregateKind::kCentredSum), 5 * 3);   // max_rows (U - L) / 2
  EXPECT_EQ(mechanisms::quantity_sensitivity(r, q[1]).l1, 2 * 15);
  EXPECT_EQ(mechanisms::quantity_sensitivity(r, q[1]).l2_squared, 2 * 15 * 15);
}

TEST(AggregateCentredMean, HalfWidthOnTheGrid) {
  const auto b = mechanisms::parse_value_bounds("-2.5,10");  // grid 0.1: [-25, 100], centre 37
  EXPECT_EQ(b.centre_index, 37);
  EXPECT_EQ(b.half_width_index, 63);  // ceil(125 / 2): an odd width costs half a step
  EXPECT_EQ(mechanisms::parse_value_bounds("-7,-3").centre_index, -5);
  EXPECT_EQ(mechanisms::parse_value_bounds("-7,-4").centre_index, -6);  // floor
  EXPECT_EQ(mechanisms::parse_value_bounds("-7,-4").half_width_index, 2);
  EXPECT_EQ(mechanisms::parse_value_bounds("4,4").half_width_index, 1);  // never 0
}

TEST(AggregateCentredMean, TheGuaranteesNoiseFollowsTheCentredSensitivity) {
  AggregateRequest r = request("10,20", 1, 4);
  r.public_keys = true;
  r.delta.reset();
  const auto g = mechanisms::calibrate_aggregate(r);
  ASSERT_EQ(g.noise.size(), 3U);
  EXPECT_EQ(g.noise[1].quantity.name(), "centred_sum_x");
  EXPECT_EQ(g.noise[1].scale, mpq_class(3 * 20));  // n L1 / epsilon = 3 * 4 * 5
  EXPECT_EQ(g.noise[0].scale, mpq_class(3 * 80));  // the sum keeps 3 * 4 * 20
}

// The exact totals of every group: count, uncentred and centred sum (sum - rows C).
struct Totals {
  mpz_class rows, sum, centred;
};

std::map<std::string, Totals> totals(const std::string& csv, const AggregateRequest& r, unsigned seed) {
  StringReader in(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, seed));
  const auto t = mechanisms::bounded_totals(in, r, bits);
  const mpz_class centre = mechanisms::bounds_of(r, "x").centre_index;
  std::map<std::string, Totals> out;
  for (std::size_t i = 0; i < t.keys.size(); ++i) {
    const auto& g = t.totals[i];
    out[t.keys[i]] = {mpz_class(g.rows), g.sums[0], g.sums[0] - centre * g.rows};
  }
  return out;
}

// The largest change of a group's (centred or plain) sum between two tables.
mpz_class largest_change(const std::map<std::string, Totals>& a, const std::map<std::string, Totals>& b,
                         bool centred) {
  std::map<std::string, int> keys;
  for (const auto& [k, v] : a) keys[k] = 1;
  for (const auto& [k, v] : b) keys[k] = 1;
  mpz_class most = 0;
  for (const auto& [k, unused] : keys) {
    const Totals x = a.count(k) ? a.at(k) : Totals{}, y = b.count(k) ? b.at(k) : Totals{};
    most = std::max(most, mpz_class(abs(mpz_class(centred ? x.centred - y.centred : x.sum - y.sum))));
  }
  return most;
}

std::string records(bool with_heavy) {
  std::string csv = "user,g,x\n";
  unsigned s = 777;
  for (int row = 0; row < 600; ++row) {
    s = s * 1103515245u + 12345u;
    csv += "u" + std::to_string((s >> 8) % 100) + ",g" + std::to_string((s >> 16) % 12) + "," +
           std::to_string(5 + static_cast<int>((s >> 4) % 21)) + "\n";
  }
  for (int g = 0; with_heavy && g < 12; ++g) {
    for (int k = 0; k < 30; ++k) csv += "heavy,g" + std::to_string(g) + "," + (g % 2 ? "1000000" : "-1000000") + "\n";
  }
  return csv;
}

TEST(AggregateCentredMean, OneHeavyUnitMovesTheCentredSumWithinItsBoundAndTheUncentredBeyond) {
  for (const auto& [l0, linf] : {std::pair{1UL, 1UL}, {3UL, 2UL}, {4UL, 5UL}}) {
    const AggregateRequest r = request("10,20", l0, linf);
    const mpz_class bound = per_group(r, AggregateKind::kCentredSum);
    for (unsigned seed = 0; seed < 4; ++seed) {
      const auto without = totals(records(false), r, seed), with = totals(records(true), r, seed);
      EXPECT_EQ(largest_change(without, with, true), bound) << "the heavy unit reaches the bound";
      // An uncentred release (the plain sum under the mean's halved noise) breaks the bound.
      EXPECT_GT(largest_change(without, with, false), bound);
    }
  }
}

TEST(AggregateCentredMean, AReleaseAddsTheCentreBack) {
  AggregateRequest r = request("10,20", 1, 50);
  r.outputs = {{AggregateKind::kCount, ""}, {AggregateKind::kMean, "x"}};
  r.public_keys = true;
  r.delta.reset();
  r.epsilon = 1'000'000;  // scales <= 5 10^-4 steps: the noise is 0 but with probability e^-2000
  const std::vector<std::string> keys = {"a", "b", "c"};
  StringReader in("user,g,x\nu1,a,11\nu1,a,12\nu2,b,20\nu2,b,19\nu2,b,19.4\nu3,c,3\n");
  SeededBits bits(test_support::fixed_seed(kSuite, 99));
  const auto rel = mechanisms::aggregate_records(in, r, &keys, bits);
  EXPECT_EQ(rel.header, "g,count,mean_x");
  ASSERT_EQ(rel.rows.size(), 3U);
  EXPECT_EQ(rel.rows[0], "a,2,11.500000");
  EXPECT_EQ(rel.rows[1], "b,3,19.333333");  // grid 1: 19.4 is read as 19, 58 / 3
  EXPECT_EQ(rel.rows[2], "c,1,10.000000");  // 3 clamped to 10
}

}  // namespace aggregate_centred_mean_test
}  // namespace
}  // namespace exactdp
