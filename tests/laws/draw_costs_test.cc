// Law::draw_costs, the measured CPU time of a draw that operations/draw_cost.h interpolates in
// log-log: every law's points are positive and strictly increasing in digits (equal digits would
// make the slope 0/0, and a NaN estimate never refuses), and the cost does not fall as the
// parameters grow (the extension beyond the last point would then shrink).
#include <gtest/gtest.h>

#include <cstddef>
#include <span>

#include <exactdp/laws/law.h>
#include <exactdp/laws/registry.h>

namespace exactdp::laws {
namespace {

TEST(DrawCosts, PointsArePositiveAndIncreasing) {
  std::size_t with_points = 0;
  for (const Law* law : all_laws()) {
    SCOPED_TRACE(law->name());
    const std::span<const DrawCostPoint> points = law->draw_costs();
    if (points.empty()) continue;
    ++with_points;
    EXPECT_TRUE(law->supports(Capability::kSample));
    for (std::size_t i = 0; i < points.size(); ++i) {
      EXPECT_GT(points[i].digits, 0u);
      EXPECT_GT(points[i].nanoseconds, 0u);
      if (i == 0) continue;
      EXPECT_GT(points[i].digits, points[i - 1].digits) << i;
      EXPECT_GE(points[i].nanoseconds, points[i - 1].nanoseconds) << i;
    }
  }
  // The discrete Gaussian and Laplace, Bernoulli(exp(-gamma)), the staircase, the distributed
  // discrete Gaussian and Skellam state theirs.
  EXPECT_GE(with_points, 6u);
  EXPECT_FALSE(find_law("skellam")->draw_costs().empty());
}

}  // namespace
}  // namespace exactdp::laws
