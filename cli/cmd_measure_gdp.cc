// exactdp measure-gdp — the mu-GDP bracket of a mechanism by the GDP transformation with
// staircase bounds (gdp_bridge Section 4, Algorithm 1): accounting/gdp_measurement.h computes it,
// this file reads the options and prints.
//
//   exactdp measure-gdp <mechanism and parameters> [--eps-max R] [--tolerance R] [--svg FILE]
// prints mu {lower, upper} for the head [0, eps_max]: the mechanism is eps_max-head
// mu_upper-GDP (proven) and not eps_max-head mu-GDP for any mu < mu_lower (proven), plus the
// tail identification (gdp_bridge Theorem 3.3).
#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/accounting/gdp_measurement.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/mechanism_spec.h"
#include <exactdp/operations/measure_gdp.h>
#include "cli/output_target.h"
#include "cli/svg_plot.h"
#include "cli/text_json_report.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

using exactdp::Interval;

constexpr const char* kHelp =
    "usage: exactdp measure-gdp <mechanism> <its parameters> [options]\n"
    "\n"
    "mechanisms (parameters as in 'exactdp profile'):\n"
    "  gaussian          --sigma R  [--sensitivity R]\n"
    "  laplace           --scale R  [--sensitivity R]\n"
    "  discrete-gaussian --sigma2 R [--sensitivity INT]\n"
    "  discrete-laplace  --scale R  [--sensitivity INT]\n"
    "  gdp               --mu R\n"
    "  pure-dp           --epsilon R            (worst case of any epsilon-DP mechanism)\n"
    "  pure-dp-composition --epsilon R --k K    (exact KOV profile of k-fold epsilon-DP, k <= 1000)\n"
    "  The mechanism's natural mu (sensitivity/sigma, sensitivity/scale, mu, epsilon, k epsilon)\n"
    "  must lie in [1e-6, 30].\n"
    "\n"
    "options:\n"
    "  --eps-max R      measure the head on [0, eps_max] (default 10; for pure-DP kinds their\n"
    "                   total epsilon, beyond which delta = 0)\n"
    "  --tolerance R    absolute width of the mu bracket (default 0.001), 1e-9..1\n"
    "  --mu-max R       give up above this mu (default 100)\n"
    "  --svg FILE       draw the GDPT curve T(eps) with its bracket and the mu band (FILE: a new\n"
    "                   path or a writable regular file, replaced whole; a device, pipe, socket,\n"
    "                   directory or symbolic link is refused, exit 2)\n"
    "  --points N       points of the drawn curve, 2..2000 (default 120)\n"
    "  --naive          the paper's Algorithm 3 (binary search at every grid point), to compare\n"
    "  --json, --digits D (1..10000, default 20)\n"
    "\n"
    "Result: mu = [lower, upper] contains sup over [0, eps_max] of the GDPT; 'mu_upper' is the\n"
    "guarantee to use (proven); printed ends are rounded outward.\n";

// The request of the command line (operations/measure_gdp.h).
operations::MeasureGdpRequest measure_gdp_request(const std::string& name, const ParsedArgs& parsed) {
  operations::MeasureGdpRequest r;
  r.mechanism = name;
  r.parameters = given_mechanism_parameters(MechanismCommand::kMeasureGdp, parsed);
  r.eps_max = parsed.get("--eps-max");
  r.tolerance = parsed.get("--tolerance");
  r.mu_max = parsed.get("--mu-max");
  r.seed = parsed.get("--seed");
  r.naive = parsed.has("--naive");
  return r;
}

double to_pixel_value(const mpq_class& x) { return x.get_d(); }
double to_pixel_value(mpfr_srcptr x) { return mpfr_get_d(x, MPFR_RNDN); }

void write_gdpt_svg(const std::string& file, const accounting::GdpMeasurable& mech,
                    const accounting::GdptOptions& options, const accounting::GdptResult& r,
                    int points) {
  const std::vector<operations::GdptCurvePoint> curve = operations::gdpt_curve(mech, options, points);
  std::vector<SvgSeries> series(2);
  series[0].name = "GDPT T(eps) upper";
  series[1].name = "GDPT T(eps) lower";
  for (const auto& c : curve) {
    series[0].points.emplace_back(to_pixel_value(c.eps), to_pixel_value(c.t.upper()));
    series[1].points.emplace_back(to_pixel_value(c.eps), to_pixel_value(c.t.lower()));
  }
  SvgSeries band_hi, band_lo;
  band_hi.name = "mu upper (head bound)";
  band_lo.name = "mu lower";
  if (r.bounded) {
    for (const mpq_class& e : {mpq_class(0), options.eps_max}) {
      band_hi.points.emplace_back(to_pixel_value(e), to_pixel_value(r.mu.upper()));
      band_lo.points.emplace_back(to_pixel_value(e), to_pixel_value(r.mu.lower()));
    }
    band_hi.dashed = band_lo.dashed = true;
    series.push_back(std::move(band_hi));
    series.push_back(std::move(band_lo));
  }
  SvgChart chart;
  chart.title = "GDP transformation of " + mech.description;
  chart.x_label = "epsilon";
  chart.y_label = "mu = GDPT(eps)";
  chart.series = std::move(series);
  try {
    write_svg_file(file, chart);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("--svg: ") + e.what());
  }
}

JsonValue tail_json(const accounting::GdpTail& t) {
  JsonValue tail = JsonValue::object();
  if (t.limit) tail.set("limit", *t.limit).set("limit_source", t.limit_source);
  JsonValue ratio_json = JsonValue::array();
  for (const auto& [e, ratio] : t.ratios) {
    JsonValue one = JsonValue::object();
    one.set("epsilon", to_string(e)).set_interval("ratio", ratio, 10);
    ratio_json.push(std::move(one));
  }
  tail.set("ratios", std::move(ratio_json));
  return tail;
}

// The result as JSON and as text lines.
TextJsonReport measure_report(const operations::MeasureGdpReport& report, const std::string& svg_note, int digits) {
  TextJsonReport out;
  const accounting::GdpMeasurable& mech = report.mechanism;
  const accounting::GdptOptions& options = report.options;
  const accounting::GdpMeasurement& measured = report.measured;
  const accounting::GdptResult& r = measured.result;
  const accounting::GdpTail& tail = measured.tail;
  const std::string mu_upper = operations::mu_upper_text(r, digits);
  const bool complete = measured.complete;
  out.json.set("command", "measure-gdp")
      .set("mechanism", mech.description)
      .set("eps_max", to_string(options.eps_max))
      .set("tolerance", to_string(options.tolerance))
      .set_interval("mu", r.mu, digits)
      .set("mu_upper", mu_upper)
      .set("bounded", r.bounded)
      .set("complete", complete)
      .set("grid_points", static_cast<unsigned long long>(r.grid_points))
      .set("binary_searches", static_cast<unsigned long long>(r.binary_searches))
      .set("profile_evaluations", static_cast<unsigned long long>(r.profile_evaluations))
      .set("gdp_evaluations", static_cast<unsigned long long>(r.gdp_evaluations))
      .set("algorithm", report.algorithm)
      .set("tail", tail_json(tail));
  if (!svg_note.empty()) out.json.set("svg", svg_note);

  auto& lines = out.lines;
  lines.push_back("mu = " + exactdp::to_decimal_string(r.mu, digits));
  if (r.bounded) {
    lines.push_back("mu_upper = " + mu_upper + "   (" + mech.description + " is " +
                    to_string(options.eps_max) + "-head mu_upper-GDP, proven)");
  } else {
    lines.push_back("mu_upper = inf   (the GDPT exceeds mu-max = " + to_string(options.mu_max) +
                    " on [0, " + to_string(options.eps_max) + "])");
  }
  lines.push_back(complete ? "complete: delta(eps) = 0 for eps >= eps_max, so this is the full mu-GDP bracket"
                           : "head only: [0, " + to_string(options.eps_max) +
                                 "]; beyond it see the tail (gdp_bridge Thm 3.3)");
  if (tail.limit) lines.push_back("tail limit L = " + *tail.limit + " (" + tail.limit_source + ")");
  for (const auto& [e, ratio] : tail.ratios) {
    lines.push_back("tail ratio eps/sqrt(-2 log delta) at eps = " + to_string(e) + ": " +
                    exactdp::to_decimal_string(ratio, 10));
  }
  lines.push_back("grid points " + std::to_string(r.grid_points) + ", binary searches " +
                  std::to_string(r.binary_searches) + ", profile evaluations " +
                  std::to_string(r.profile_evaluations) + ", GDP evaluations " +
                  std::to_string(r.gdp_evaluations) +
                  (options.naive ? " (naive Algorithm 3)" : " (Algorithm 1)"));
  if (!svg_note.empty()) lines.push_back("svg written: " + svg_note);
  return out;
}

}  // namespace

int cmd_measure_gdp(Args args, Io& io) {
  std::vector<OptionSpec> specs = {{"--eps-max", true}, {"--mu-max", true}, {"--svg", true},
                                   {"--points", true},  {"--naive", false}, {"--seed", true}};
  for (const auto& s : mechanism_option_specs(MechanismCommand::kMeasureGdp)) specs.push_back(s);
  const ParsedArgs parsed(args, with_accounting_options(specs));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  if (parsed.positionals().size() != 1) {
    throw UsageError("measure-gdp needs exactly one mechanism (see --help)");
  }
  const operations::MeasureGdpRequest request = measure_gdp_request(parsed.positionals()[0], parsed);
  const accounting::GdpMeasurable mech = operations::measure_gdp_mechanism(request);
  const auto digits_text = parsed.get("--digits");
  const int digits = digits_text ? operations::checked_gdp_digits(*digits_text) : 20;
  const accounting::GdptOptions options = operations::measure_gdp_options(request, mech);
  const auto points_text = parsed.get("--points");
  const int points = points_text ? operations::checked_gdpt_plot_points(*points_text) : 120;

  check_output_paths(named_paths(parsed, {"--svg"}), {}, false);  // before the measurement
  const operations::MeasureGdpReport report = operations::measure_gdp_report(mech, options);

  std::string svg_note;
  if (const auto file = parsed.get("--svg")) {
    write_gdpt_svg(*file, mech, options, report.measured.result, points);
    svg_note = *file;
  }
  return measure_report(report, svg_note, digits).emit(io, parsed.has("--json"));
}

}  // namespace exactdp::cli
