// measure_gdp.h — the operation `measure-gdp`: the mu-GDP bracket of a mechanism of
// operations/mechanisms.h by the GDP transformation (accounting/gdp_measurement.h; docs/DESIGN.md,
// "Operations"). The command line (cli/cmd_measure_gdp.cc) and Python (python/src/measure_gdp.cc)
// build a MeasureGdpRequest; the checks (in two steps, keeping the command line's order: the
// mechanism, then the settings), the limits and the computed fields are here.
//
// Example:
//   MeasureGdpRequest r{.mechanism = "gaussian", .parameters = {{"sigma", "1"}}};
//   const accounting::GdpMeasurable m = measure_gdp_mechanism(r);
//   const MeasureGdpReport report = measure_gdp_report(m, measure_gdp_options(r, m));
//   mu_upper_text(report.measured.result, 20);   // "1.0004..." (rounded up) or "inf"
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/accounting/gdp_measurement.h>
#include <exactdp/core/interval.h>
#include <exactdp/operations/mechanisms.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

// The most significant digits a face prints of mu, and the most points of the drawn GDPT curve.
inline constexpr int kMaxGdpDigits = 10'000;
inline constexpr unsigned long long kMaxGdptPlotPoints = 2000;

struct MeasureGdpRequest {
  std::string mechanism{};
  GivenParameters parameters{};            // the mechanism's parameters, (name, exact text)
  std::optional<std::string> eps_max{};    // exact texts; none: the defaults
  std::optional<std::string> tolerance{};
  std::optional<std::string> mu_max{};
  std::optional<std::string> seed{};       // integer text, 0 <= seed < 2^64 (shuffle order only)
  bool naive = false;                      // the paper's Algorithm 3
  Spelling spelling = kCommandLineSpelling;
};

struct MeasureGdpReport {
  accounting::GdpMeasurable mechanism;  // its description names it in the report
  accounting::GdptOptions options;      // eps_max, tolerance, mu_max as used
  accounting::GdpMeasurement measured;
  std::string algorithm;                // "shuffled (Algorithm 1)" or "naive (Algorithm 3)"
};

// Step 1: the mechanism (one measure-gdp offers; the command line's wording names the command,
// Python's what the law lacks), no parameter of another mechanism, each parameter, and its
// natural mu in [1e-6, 30] (accounting::require_measurable).
[[nodiscard]] accounting::GdpMeasurable measure_gdp_mechanism(const MeasureGdpRequest& request);

// Step 2: eps_max, tolerance, mu_max and seed (ParameterError naming each).
[[nodiscard]] accounting::GdptOptions measure_gdp_options(const MeasureGdpRequest& request,
                                                          const accounting::GdpMeasurable& mechanism);

// The measurement on [0, eps_max] and the tail.
[[nodiscard]] MeasureGdpReport measure_gdp_report(const accounting::GdpMeasurable& mechanism,
                                                  const accounting::GdptOptions& options);

// mu's upper end rounded up to `digits` significant digits, or "inf" when unbounded.
[[nodiscard]] std::string mu_upper_text(const accounting::GdptResult& result, int digits);

// Digits from their text, 1 <= digits <= kMaxGdpDigits (ParameterError naming "digits").
[[nodiscard]] int checked_gdp_digits(const std::string& text);

// The drawn curve's points from their text, 2 <= points <= kMaxGdptPlotPoints.
[[nodiscard]] int checked_gdpt_plot_points(const std::string& text);

// The GDPT T(eps) at `points` evenly spaced eps in [0, eps_max], each a certified bracket of
// width <= tolerance (accounting::gdpt_point), for the plot.
struct GdptCurvePoint {
  mpq_class eps;
  Interval t;
};
[[nodiscard]] std::vector<GdptCurvePoint> gdpt_curve(const accounting::GdpMeasurable& mechanism,
                                                     const accounting::GdptOptions& options, int points);

}  // namespace exactdp::operations
