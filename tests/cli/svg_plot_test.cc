#include "cli/svg_plot.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace exactdp::cli {
namespace {

TEST(SvgPlot, RendersSeriesTicksAndLegend) {
  SvgChart chart;
  chart.title = "a <b> & c";
  chart.x_label = "epsilon";
  chart.y_label = "delta";
  chart.series.push_back({"upper", {{0, 1}, {1, 0.5}, {2, 0.25}}, false, ""});
  chart.series.push_back({"lower", {{0, 0.9}, {1, std::numeric_limits<double>::quiet_NaN()},
                                    {2, 0.2}}, true, "#000000"});
  const std::string svg = render_svg(chart);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("a &lt;b&gt; &amp; c"), std::string::npos);
  // The NaN splits the dashed series into two polylines: 3 polylines in all.
  std::size_t count = 0;
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos;
       at = svg.find("<polyline", at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 3u);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(svg.find(">upper</text>"), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST(SvgPlot, LogAxisAndNiceTicks) {
  const std::vector<double> t = nice_ticks(0, 1, 5);
  ASSERT_FALSE(t.empty());
  EXPECT_DOUBLE_EQ(t.front(), 0.0);
  EXPECT_DOUBLE_EQ(t[1], 0.2);
  SvgChart chart;
  chart.y_log10 = true;
  chart.series.push_back({"d", {{0, -1}, {1, -40}}, false, ""});
  const std::string svg = render_svg(chart);
  EXPECT_NE(svg.find(">1e-10<"), std::string::npos);
  EXPECT_THROW(write_svg_file("/nonexistent/dir/x.svg", chart), std::runtime_error);
}

}  // namespace
}  // namespace exactdp::cli
