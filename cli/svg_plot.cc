// svg_plot.cc — pixel layout only: its doubles place points in a picture and never reach a result.
#include "cli/svg_plot.h"

#include "cli/atomic_output.h"
#include <exactdp/core/errors.h>

#include <algorithm>
#include <memory>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace exactdp::cli {
namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

std::string fmt(const char* format, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, a);
  return buf;
}

std::string tick_label(double v, bool log10_axis) {
  if (log10_axis) {
    const long k = std::lround(v);
    if (std::fabs(v - static_cast<double>(k)) < 1e-9) return "1e" + std::to_string(k);
    return fmt("1e%.2g", v);
  }
  if (std::fabs(v) < 1e-12) return "0";
  return fmt("%.6g", v);
}

bool finite_point(const std::pair<double, double>& p) {
  return std::isfinite(p.first) && std::isfinite(p.second);
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;
    }
  }
  return out;
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi) || target < 1) return ticks;
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) {
    ticks.push_back(lo);
    return ticks;
  }
  const double raw = (hi - lo) / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= raw) break;
  }
  const double first = std::ceil(lo / step - 1e-9) * step;
  for (double v = first; v <= hi + step * 1e-9 && ticks.size() < 1000; v += step) {
    ticks.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  }
  return ticks;
}

namespace {

// The plot area and the data ranges it shows.
struct Frame {
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  double width = 0, height = 0;
  double left = 80, right = 210, top = 44, bottom = 56;
  double pw = 0, ph = 0;  // plot width and height
  [[nodiscard]] double px(double x) const { return left + (x - x_min) / (x_max - x_min) * pw; }
  [[nodiscard]] double py(double y) const { return top + ph - (y - y_min) / (y_max - y_min) * ph; }
};

// The ranges of every finite point (padded; the zero line shown), and the plot area.
Frame frame_of(const SvgChart& chart) {
  Frame f;
  bool any = false;
  for (const auto& s : chart.series) {
    for (const auto& p : s.points) {
      if (!finite_point(p)) continue;
      if (!any) {
        f.x_min = f.x_max = p.first;
        f.y_min = f.y_max = p.second;
        any = true;
      }
      f.x_min = std::min(f.x_min, p.first);
      f.x_max = std::max(f.x_max, p.first);
      f.y_min = std::min(f.y_min, p.second);
      f.y_max = std::max(f.y_max, p.second);
    }
  }
  if (!chart.y_log10 && f.y_min > 0 && f.y_min < 0.5 * f.y_max) f.y_min = 0;  // show the zero line
  if (f.x_max <= f.x_min) f.x_max = f.x_min + 1;
  if (f.y_max <= f.y_min) f.y_max = f.y_min + 1;
  const double pad = 0.05 * (f.y_max - f.y_min);
  f.y_max += pad;
  if (f.y_min != 0) f.y_min -= pad;
  f.width = chart.width;
  f.height = chart.height;
  f.pw = f.width - f.left - f.right;
  f.ph = f.height - f.top - f.bottom;
  return f;
}

// Grid lines and tick labels on both axes (integer powers of ten only on a log10 y axis).
void render_grid(const SvgChart& chart, const Frame& f, std::string& out) {
  for (const double xv : nice_ticks(f.x_min, f.x_max, 6)) {
    const double x = f.px(xv);
    out += "<line x1=\"" + fmt("%.2f", x) + "\" y1=\"" + fmt("%.2f", f.top) + "\" x2=\"" +
           fmt("%.2f", x) + "\" y2=\"" + fmt("%.2f", f.top + f.ph) +
           "\" stroke=\"#e6e6e6\"/>\n";
    out += "<text x=\"" + fmt("%.2f", x) + "\" y=\"" + fmt("%.2f", f.top + f.ph + 18) +
           "\" text-anchor=\"middle\">" + xml_escape(tick_label(xv, false)) + "</text>\n";
  }
  std::vector<double> yt = nice_ticks(f.y_min, f.y_max, 6);
  if (chart.y_log10) {
    std::vector<double> integral;
    for (const double v : yt) {
      if (std::fabs(v - std::round(v)) < 1e-9) integral.push_back(std::round(v));
    }
    if (integral.size() >= 2) yt = integral;
  }
  for (const double yv : yt) {
    const double y = f.py(yv);
    out += "<line x1=\"" + fmt("%.2f", f.left) + "\" y1=\"" + fmt("%.2f", y) + "\" x2=\"" +
           fmt("%.2f", f.left + f.pw) + "\" y2=\"" + fmt("%.2f", y) + "\" stroke=\"#e6e6e6\"/>\n";
    out += "<text x=\"" + fmt("%.2f", f.left - 6) + "\" y=\"" + fmt("%.2f", y + 4) +
           "\" text-anchor=\"end\">" + xml_escape(tick_label(yv, chart.y_log10)) + "</text>\n";
  }
}

// The frame rectangle and the axis labels.
void render_axes(const SvgChart& chart, const Frame& f, std::string& out) {
  out += "<rect x=\"" + fmt("%.2f", f.left) + "\" y=\"" + fmt("%.2f", f.top) + "\" width=\"" +
         fmt("%.2f", f.pw) + "\" height=\"" + fmt("%.2f", f.ph) +
         "\" fill=\"none\" stroke=\"black\"/>\n";
  out += "<text x=\"" + fmt("%.2f", f.left + f.pw / 2) + "\" y=\"" + fmt("%.2f", f.height - 14) +
         "\" text-anchor=\"middle\">" + xml_escape(chart.x_label) + "</text>\n";
  out += "<text x=\"18\" y=\"" + fmt("%.2f", f.top + f.ph / 2) + "\" transform=\"rotate(-90 18 " +
         fmt("%.2f", f.top + f.ph / 2) + ")\" text-anchor=\"middle\">" +
         xml_escape(chart.y_label + (chart.y_log10 ? " (log scale)" : "")) + "</text>\n";
}

// Series k: each run of finite points is one polyline; then its legend entry.
void render_series(const SvgSeries& s, std::size_t k, const std::string& color, const Frame& f, std::string& out) {
  const std::string dash = s.dashed ? " stroke-dasharray=\"6 4\"" : "";
  std::string run;
  auto flush = [&] {
    if (!run.empty()) {
      out += "<polyline fill=\"none\" stroke=\"" + xml_escape(color) +
             "\" stroke-width=\"1.6\"" + dash + " points=\"" + run + "\"/>\n";
      run.clear();
    }
  };
  for (const auto& p : s.points) {
    if (!finite_point(p)) {
      flush();
      continue;
    }
    run += fmt("%.2f", f.px(p.first)) + "," + fmt("%.2f", f.py(p.second)) + " ";
  }
  flush();
  const double ly = f.top + 14 + 20.0 * static_cast<double>(k);
  out += "<line x1=\"" + fmt("%.2f", f.left + f.pw + 12) + "\" y1=\"" + fmt("%.2f", ly) +
         "\" x2=\"" + fmt("%.2f", f.left + f.pw + 34) + "\" y2=\"" + fmt("%.2f", ly) +
         "\" stroke=\"" + xml_escape(color) + "\" stroke-width=\"2\"" + dash + "/>\n";
  out += "<text x=\"" + fmt("%.2f", f.left + f.pw + 40) + "\" y=\"" + fmt("%.2f", ly + 4) + "\">" +
         xml_escape(s.name) + "</text>\n";
}

}  // namespace

std::string render_svg(const SvgChart& chart) {
  const Frame f = frame_of(chart);
  std::string out;
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", f.width) +
         "\" height=\"" + fmt("%.0f", f.height) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += "<text x=\"" + fmt("%.1f", f.left) + "\" y=\"24\" font-size=\"15\">" +
         xml_escape(chart.title) + "</text>\n";
  render_grid(chart, f, out);
  render_axes(chart, f, out);
  std::size_t palette_index = 0;
  for (std::size_t k = 0; k < chart.series.size(); ++k) {
    const SvgSeries& s = chart.series[k];
    const std::string color =
        s.color.empty() ? kPalette[palette_index++ % (sizeof kPalette / sizeof *kPalette)]
                        : s.color;
    render_series(s, k, color, f, out);
  }
  out += "</svg>\n";
  return out;
}

void write_svg_file(const std::string& path, const SvgChart& chart) {
  const std::string text = render_svg(chart);
  // FILE is replaced only once the whole chart is written (cli/atomic_output.h).
  std::unique_ptr<AtomicOutputFile> file;
  try {
    file = std::make_unique<AtomicOutputFile>("--svg", path);
  } catch (const ParameterError& e) {
    throw std::runtime_error(e.what());  // this function's contract: std::runtime_error
  }
  file->stream() << text;
  file->commit();
}

}  // namespace exactdp::cli
