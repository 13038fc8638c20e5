// exactdp profile — the certified privacy profile delta(epsilon) of a mechanism
// (docs/DESIGN.md, "Command-line contract").
//
//   exactdp profile gaussian          --sigma R  [--sensitivity R]   --epsilon R
//   exactdp profile laplace           --scale R  [--sensitivity R]   --epsilon R
//   exactdp profile discrete-gaussian --sigma2 R [--sensitivity INT] --epsilon R
//   exactdp profile discrete-laplace  --scale R  [--sensitivity INT] --epsilon R
//   exactdp profile gdp               --mu R                          --epsilon R
// or, instead of --epsilon, the curve mode --curve EPS_MIN EPS_MAX POINTS (CSV
// "epsilon,delta_lower,delta_upper", or a JSON array with --json), optionally drawn with
// --svg FILE. Intervals are printed rounded outward.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/accounting/ziv.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/mechanism_spec.h"
#include <exactdp/operations/profile.h>
#include <exactdp/operations/profile_curve.h>
#include "cli/output_target.h"
#include "cli/svg_plot.h"
#include "cli/text_json_report.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

using accounting::Certified;
using exactdp::Interval;

constexpr const char* kHelp =
    "usage: exactdp profile MECHANISM PARAMETERS (--epsilon R | --curve MIN MAX POINTS) [options]\n"
    "\n"
    "mechanisms and their parameters:\n"
    "  gaussian           --sigma R   [--sensitivity R]    N(0, sigma^2), L2 sensitivity\n"
    "  laplace            --scale R   [--sensitivity R]    Lap(scale), L1 sensitivity\n"
    "  discrete-gaussian  --sigma2 R  [--sensitivity INT]  N_Z(0, sigma2) (CKS20 Theorem 7)\n"
    "  discrete-laplace   --scale R   [--sensitivity INT]  P[x] ~ exp(-|x|/scale)\n"
    "  gdp                --mu R                           mu-GDP (= gaussian, mu = sens/sigma)\n"
    "Sensitivity defaults to 1.\n"
    "\n"
    "output: delta(epsilon), the smallest delta for which the mechanism is (epsilon, delta)-DP,\n"
    "as a certified interval {lower, upper} rounded outward; delta_upper is the safe value.\n"
    "\n"
    "options:\n"
    "  --epsilon R            epsilon >= 0\n"
    "  --curve MIN MAX POINTS the profile at POINTS evenly spaced epsilons in [MIN, MAX]\n"
    "                         (0 <= MIN < MAX, 2 <= POINTS <= 10000, fewer for numbers over 2^16\n"
    "                         bits and for skellam's exact profile, mu <= 10^6: 2 at 10^6; each\n"
    "                         epsilon rounded to 12 significant digits and printed exactly), CSV\n"
    "                         'epsilon,delta_lower,delta_upper' (JSON array with --json)\n"
    "  --svg FILE             with --curve: also draw the curve as a plain SVG chart (FILE: a\n"
    "                         new path or a writable regular file, replaced whole; a device,\n"
    "                         pipe, socket, directory or symbolic link is refused, exit 2)\n"
    "  --hardened             discrete-gaussian, discrete-laplace: the noise of the hardened\n"
    "                         (isochronous) sampler, within total variation tau of the exact law;\n"
    "                         delta(epsilon) + (1 + e^epsilon) tau is reported, and tau_upper\n"
    "                         (docs/HARDENED.md). Range as for `exactdp sample --hardened`.\n"
    "  --tau-bits B           with --hardened: tau <= 2^-B, 40 <= B <= 128 (default 64)\n"
    "  --json                 one JSON object; intervals as {\"lower\": \"...\", \"upper\": \"...\"}\n"
    "  --digits D             significant digits printed, 1 <= D <= 1000 (default 20)\n"
    "  --tolerance R          relative width wanted, 2^-2000 <= R < 1 (default 2^-100;\n"
    "                         2^-2000 ~ 1e-602 is a cost limit)\n"
    "MPFR precision is capped at 65536 bits: past the cap (or below MPFR's range, delta <\n"
    "2^(-2^62)) the interval is wider but still certified and tolerance_met says false.\n";

constexpr int kMaxDigits = 1000;

using Profile = MechanismSpec;

// The mechanism named on the command line, checked by the operation (operations/profile.h).
operations::ProfileRequest profile_request(const std::string& mechanism, const ParsedArgs& parsed) {
  operations::ProfileRequest r;
  r.mechanism = mechanism;
  r.parameters = given_mechanism_parameters(MechanismCommand::kProfile, parsed);
  r.hardened = parsed.has("--hardened");
  r.tau_bits = parsed.get("--tau-bits");
  r.tolerance = parsed.get("--tolerance");
  return r;
}

// log10 of an MPFR value as a double for the picture (never a result); -inf for 0.
double plot_log10(mpfr_srcptr x) {
  if (mpfr_sgn(x) <= 0) return -std::numeric_limits<double>::infinity();
  exactdp::Real l(64);
  mpfr_log10(l.get(), x, MPFR_RNDN);  // picture only: nearest is fine
  return mpfr_get_d(l.get(), MPFR_RNDN);
}

double plot_value(mpfr_srcptr x) { return mpfr_get_d(x, MPFR_RNDN); }

// One point of the curve as the SVG needs it.
struct PlotRow {
  double x, upper_log10, lower_log10, upper, lower;
};

// The text before the first row: the CSV header, or the JSON object up to its "curve" array.
std::string curve_head(const Profile& pr, bool json) {
  if (!json) return "epsilon,delta_lower,delta_upper\n";
  JsonValue head = JsonValue::object();
  head.set("command", "profile").set("mechanism", pr.name);
  for (const auto& [k, v] : pr.parameters) head.set(k, v);
  std::string text = head.dump();
  text.pop_back();  // the closing brace: the curve and the tail follow
  return text + ", \"curve\": [";
}

// One row: a CSV line, or an element of the JSON array (comma-separated after the first).
std::string curve_row(const operations::ProfileCurveGrid::Point& point, const Certified& c, bool json, bool first, int digits) {
  if (!json) {
    const exactdp::DecimalInterval d = exactdp::to_decimal(c.value, digits);
    return point.text + "," + d.lower + "," + d.upper + "\n";
  }
  JsonValue row = JsonValue::object();
  row.set("epsilon", point.text);
  row.set_interval("delta", c.value, digits);
  row.set("tolerance_met", c.tolerance_met);
  return (first ? "" : ", ") + row.dump();
}

// The SVG chart of the curve: log scale when the positive values span more than three decades.
void write_curve_svg(const Profile& pr, const std::vector<PlotRow>& plot, const std::string& file) {
  double top = -std::numeric_limits<double>::infinity();
  double bottom = std::numeric_limits<double>::infinity();
  for (const auto& r : plot) {
    if (std::isfinite(r.upper_log10)) {
      top = std::max(top, r.upper_log10);
      bottom = std::min(bottom, r.upper_log10);
    }
  }
  SvgChart chart;
  chart.title = "privacy profile of " + pr.name + " (";
  for (std::size_t k = 0; k < pr.parameters.size(); ++k) {
    chart.title += (k ? ", " : "") + pr.parameters[k].first + " = " + pr.parameters[k].second;
  }
  chart.title += ")";
  chart.x_label = "epsilon";
  chart.y_label = "delta";
  chart.y_log10 = std::isfinite(top) && top - bottom > 3;
  SvgSeries upper{"delta upper (certified)", {}, false, ""};
  SvgSeries lower{"delta lower (certified)", {}, true, ""};
  for (const auto& r : plot) {
    upper.points.emplace_back(r.x, chart.y_log10 ? r.upper_log10 : r.upper);
    lower.points.emplace_back(r.x, chart.y_log10 ? r.lower_log10 : r.lower);
  }
  chart.series = {upper, lower};
  try {
    write_svg_file(file, chart);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("--svg: ") + e.what());
  }
}

// Rows are formatted as they are computed (CSV lines, or the elements of the JSON array) and
// only the text is kept: at most 10,000 rows of two --digits numbers and a short epsilon (about
// 20 MB at --digits 1000), written once every point is done, so an error leaves stdout empty.
// The SVG keeps a few doubles per point.
int run_curve(const Profile& pr, const ParsedArgs& parsed, const std::vector<std::string>& curve,
              const accounting::ZivOptions& options, int digits, Io& io) {
  const mpq_class lo = operations::checked_epsilon(curve[0]);
  const mpq_class hi = operations::checked_epsilon(curve[1]);
  operations::check_curve_range(lo, hi, curve[1]);
  const long points = operations::checked_curve_points(pr, curve[2]);
  const bool json = parsed.has("--json");
  const auto file = parsed.get("--svg");
  check_output_paths(named_paths(parsed, {"--svg"}), {}, false);  // before any point is computed
  operations::ProfileCurveGrid grid(lo, hi, points);
  std::vector<PlotRow> plot;
  bool all_met = true;
  std::string text = curve_head(pr, json);
  for (long i = 0; i < points; ++i) {
    const operations::ProfileCurveGrid::Point point = grid.at(i);
    const Certified c = pr.delta(point.eps, options);
    all_met = all_met && c.tolerance_met;
    text += curve_row(point, c, json, i == 0, digits);
    if (file) {
      plot.push_back({point.eps.get_d(), plot_log10(c.value.upper()), plot_log10(c.value.lower()),
                      plot_value(c.value.upper()), plot_value(c.value.lower())});
    }
  }
  if (json) {
    JsonValue tail = JsonValue::object();
    tail.set("tolerance", tolerance_text(options.tolerance));
    tail.set("tolerance_met", all_met);
    text += "], " + tail.dump().substr(1) + "\n";
  }
  if (file) write_curve_svg(pr, plot, *file);
  io.out << text;
  if (!all_met) {
    io.err << "exactdp profile: note: some points did not reach the tolerance (wider, still "
              "certified)\n";
  }
  return 0;
}

}  // namespace

int cmd_profile(Args args, Io& io) {
  // --curve takes three values; lift them out before the one-value-per-option parser runs.
  std::vector<std::string> rest;
  std::vector<std::string> curve;
  bool curve_seen = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--curve") {
      if (curve_seen) throw UsageError("option --curve given more than once");
      if (i + 3 >= args.size()) {
        throw UsageError("option --curve needs three values: EPS_MIN EPS_MAX POINTS");
      }
      curve_seen = true;
      curve = {args[i + 1], args[i + 2], args[i + 3]};
      i += 3;
      continue;
    }
    rest.push_back(args[i]);
  }
  std::vector<OptionSpec> specs = mechanism_option_specs(MechanismCommand::kProfile);
  specs.push_back({"--epsilon", true});
  specs.push_back({"--svg", true});
  specs.push_back({"--hardened", false});
  specs.push_back({"--tau-bits", true});
  const ParsedArgs parsed(rest, with_accounting_options(specs));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  const auto& pos = parsed.positionals();
  if (pos.empty()) {
    throw UsageError(
        "profile: name a mechanism: gaussian, laplace, discrete-gaussian, discrete-laplace, gdp");
  }
  if (pos.size() > 1) throw UsageError("profile: unexpected argument '" + abbreviate(pos[1]) + "'");
  const operations::ProfileRequest request = profile_request(pos[0], parsed);
  const Profile pr = operations::plan_profile(request).mechanism;

  const int digits = digits_option(parsed, kMaxDigits);
  const accounting::ZivOptions options = operations::profile_options(request);
  if (curve_seen) {
    if (parsed.has("--epsilon")) throw UsageError("give either --epsilon or --curve, not both");
    return run_curve(pr, parsed, curve, options, digits, io);
  }
  if (parsed.has("--svg")) throw UsageError("--svg draws a curve: use it with --curve");
  const mpq_class epsilon = operations::checked_epsilon(parsed.require("--epsilon"));
  const Certified c = pr.delta(epsilon, options);

  TextJsonReport out;
  out.json.set("command", "profile");
  out.text("mechanism", pr.name);
  for (const auto& [k, v] : pr.parameters) out.text(k, v);
  out.text("epsilon", exactdp::exact_decimal(epsilon));  // 1e+100000, not 100,001 digits
  out.interval("delta", c.value, digits);
  out.text("delta_upper", exactdp::decimal_upper(c.value.upper(), digits));
  if (pr.hardened_tau) {
    out.text("tau_upper", exactdp::decimal_upper(Interval(*pr.hardened_tau, c.value.precision()).upper(), digits));
    out.text("note", "hardened noise: delta includes (1 + e^epsilon) tau, tau the certified TV "
                     "distance of the hardened sampler from the exact law");
  }
  out.json.set("tolerance", tolerance_text(options.tolerance));
  out.flag("tolerance_met", c.tolerance_met);
  out.json.set("precision_bits", static_cast<long>(c.precision));
  if (!c.tolerance_met) {
    io.err << "exactdp profile: note: the interval is wider than the tolerance (precision cap "
              "or MPFR's exponent range reached); it is still certified\n";
  }
  return out.emit(io, parsed.has("--json"));
}

}  // namespace exactdp::cli
