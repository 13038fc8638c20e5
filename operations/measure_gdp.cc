#include <exactdp/operations/measure_gdp.h>

#include <cstdint>
#include <utility>

#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/law.h>
#include <exactdp/operations/checked_count.h>

namespace exactdp::operations {
namespace {

// The command line names the command; Python, whose law names any law, what it lacks.
[[noreturn]] void refuse_mechanism(const MeasureGdpRequest& r) {
  if (r.spelling.prefix.empty()) {
    throw laws::UnsupportedError("law", abbreviate(r.mechanism) + " has no certified profile to measure (allowed: " +
                                            mechanism_list(MechanismCommand::kMeasureGdp) + ")");
  }
  throw laws::UnsupportedError("law", "unknown mechanism '" + abbreviate(r.mechanism) + "' for measure-gdp" +
                                          r.spelling.see_help);
}

}  // namespace

accounting::GdpMeasurable measure_gdp_mechanism(const MeasureGdpRequest& request) {
  const MechanismRow* row = find_mechanism(MechanismCommand::kMeasureGdp, request.mechanism);
  if (row == nullptr) refuse_mechanism(request);
  const Spelling& s = request.spelling;
  if (const auto foreign = foreign_parameter(*row, request.parameters)) {
    throw ParameterError(*foreign, "measure-gdp " + request.mechanism + " does not take " + s.name(*foreign));
  }
  const MechanismSpec spec = row->build(request.parameters, s);
  accounting::GdpMeasurable m;
  m.name = spec.name;
  m.description = spec.describe();
  m.noise_name = spec.noise_name;
  m.noise = spec.noise;
  m.sensitivity = spec.sensitivity;
  m.sensitivity_given = spec.sensitivity_given;
  m.profile = spec.delta_at;
  m.pure_epsilon = spec.pure_epsilon;
  m.maps = spec.maps;
  accounting::require_measurable(m);
  return m;
}

accounting::GdptOptions measure_gdp_options(const MeasureGdpRequest& request, const accounting::GdpMeasurable& m) {
  accounting::GdpMeasureSettings settings;
  // Texts that do not parse name the option as the face spells it: --eps-max reads "eps-max".
  const Spelling& s = request.spelling;
  settings.eps_max = optional_rational(s.bare("eps_max"), request.eps_max);
  settings.tolerance = optional_rational(s.bare("tolerance"), request.tolerance);
  settings.mu_max = optional_rational(s.bare("mu_max"), request.mu_max);
  if (request.seed) settings.seed = checked_count("seed", *request.seed, 0, UINT64_MAX);
  settings.naive = request.naive;
  return accounting::gdp_measure_options(m, settings);
}

MeasureGdpReport measure_gdp_report(const accounting::GdpMeasurable& mechanism,
                                    const accounting::GdptOptions& options) {
  return {mechanism, options, accounting::measure_gdp(mechanism, options),
          options.naive ? "naive (Algorithm 3)" : "shuffled (Algorithm 1)"};
}

std::string mu_upper_text(const accounting::GdptResult& result, int digits) {
  return result.bounded ? exactdp::decimal_upper(result.mu.upper(), digits) : std::string("inf");
}

int checked_gdp_digits(const std::string& text) {
  return static_cast<int>(checked_count("digits", text, 1, kMaxGdpDigits));
}

int checked_gdpt_plot_points(const std::string& text) {
  return static_cast<int>(checked_count("points", text, 2, kMaxGdptPlotPoints));
}

std::vector<GdptCurvePoint> gdpt_curve(const accounting::GdpMeasurable& mechanism,
                                       const accounting::GdptOptions& options, int points) {
  std::vector<GdptCurvePoint> curve;
  for (int j = 0; j < points; ++j) {
    const mpq_class eps = options.eps_max * mpq_class(j, points - 1);
    curve.push_back({eps, accounting::gdpt_point(mechanism.profile, eps, options.tolerance, options.mu_max,
                                                 options.precision)});
  }
  return curve;
}

}  // namespace exactdp::operations
