// svg_plot.h — a plain SVG line chart written by our own code (no plotting dependency).
//
// A chart has a title, axis labels and several named polylines (a legend on the right). Axes
// get "nice" ticks (steps 1, 2 or 5 times a power of ten). With y_log10 = true the y values are
// taken to be log10 of the plotted quantity and the ticks are labelled 1e-5, 1e-4, ... — the
// way to draw privacy profiles that span hundreds of decades.
//
// Coordinates are doubles: they only place pixels, they never carry a certified number (the
// numbers users rely on go to the CSV/JSON output, rounded outward). Non-finite points are
// skipped, so a curve may have gaps.
//
// Example:
//   SvgChart chart{"Gaussian profile", "epsilon", "delta", {}, true};
//   chart.series.push_back({"delta upper", {{0.0, -0.4}, {1.0, -0.9}}});
//   write_svg_file("profile.svg", chart);
//
// Errors: write_svg_file throws std::runtime_error naming the file when it cannot be written. The file is replaced
// atomically (cli/atomic_output.h): a failed write leaves it as it was.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace exactdp::cli {

struct SvgSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
  std::string color;  // empty: the next color of the default palette
};

struct SvgChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<SvgSeries> series;
  bool y_log10 = false;  // y values are log10 of the quantity; ticks labelled as powers of 10
  int width = 760;
  int height = 460;
};

// The whole SVG document.
[[nodiscard]] std::string render_svg(const SvgChart& chart);
void write_svg_file(const std::string& path, const SvgChart& chart);

// "Nice" tick positions covering [lo, hi] (at most about `target` of them).
[[nodiscard]] std::vector<double> nice_ticks(double lo, double hi, int target);

// Text escaped for SVG/XML content and attributes.
[[nodiscard]] std::string xml_escape(const std::string& text);

}  // namespace exactdp::cli
