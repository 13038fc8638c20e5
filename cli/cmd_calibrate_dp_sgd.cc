// exactdp calibrate dp-sgd — the certified noise multiplier of DP-SGD by the pld route (default)
// or the rdp route (accounting/dp_sgd_calibration.h): Poisson sampling with rate q, `steps`
// steps, add/remove-one. This file reads the options into an operations::CalibrateDpSgdRequest
// and prints the report (operations/calibrate_dp_sgd.h holds the checks and the fields).
#include <string>

#include <exactdp/accounting/dp_sgd_calibration.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/calibrate_dp_sgd.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/compose_events.h"
#include "cli/json.h"
#include "cli/text_json_report.h"

namespace exactdp::cli {
namespace {

constexpr const char* kDpSgdHelp =
    "usage: exactdp calibrate dp-sgd --q R --steps N --epsilon R --delta R [options]\n"
    "\n"
    "The noise multiplier sigma for DP-SGD (noise N(0, sigma^2 C^2) added to the sum of\n"
    "per-example gradients clipped to norm C, Poisson sampling with rate q, `steps` steps) whose\n"
    "certified epsilon at delta is at most the target. Neighbouring relation: add/remove-one.\n"
    "  --route pld (default): privacy loss distributions (both ends proven). sigma is a decimal\n"
    "                with four significant digits (the 'resolution'), the smallest the search\n"
    "                found whose certified epsilon upper end is <= target; at sigma - resolution\n"
    "                the upper end is > target (epsilon_at_sigma_lower). Where that interval's\n"
    "                LOWER end is > target too, no smaller sigma meets the target at all\n"
    "                (optimal_within_resolution). The search starts from the rdp answer.\n"
    "  --route rdp:  the rdp route (MTZ19 + Balle et al. 2020 Thm 21): sigma is a certified\n"
    "                bracket of the route's optimum of relative width 10^-6,\n"
    "                epsilon(sigma.upper) <= target and epsilon(sigma.lower) > target proven\n"
    "                for the route; sigma_to_use is sigma.upper rounded up to 8 digits.\n"
    "  sigma_to_use  the sigma to use\n"
    "\n"
    "options:\n"
    "  --route pld|rdp, --json, --digits D (1..1000, default 20)\n"
    "Ranges: 0 < q <= 1, 1 <= steps <= 10^9, 0 < epsilon <= 10^4, 0 < delta < 1; sigma is\n"
    "searched in [10^-3, 10^6]. Cost limits: q >= 2^-64, and q, epsilon and delta at most 1024\n"
    "bits of numerator plus denominator each (~300 digits); each pld evaluation on a grid the\n"
    "cost model puts under 1 s and 128 MiB (else exit 2 naming steps: use --route rdp).\n";

// The pld route's search: its resolution, the rdp sigma it started from, its grid.
void add_pld_search(TextJsonReport& out, const accounting::DpSgdPldSearch& s) {
  out.text("resolution", exactdp::exact_decimal(s.resolution));
  out.text("rdp_sigma", accounting::dp_sgd_rdp_sigma_text(s));
  out.text("pld_grid", s.grid);
  out.json.set("pld_evaluations", static_cast<unsigned long long>(s.evaluations));
  out.lines.push_back("pld_evaluations = " + std::to_string(s.evaluations));
  out.flag("optimal_within_resolution", s.optimal_within_resolution);
}

}  // namespace

int cmd_calibrate_dp_sgd(Args args, Io& io) {
  const ParsedArgs parsed(args, with_report_options({{"--q", true},
                                                     {"--steps", true},
                                                     {"--epsilon", true},
                                                     {"--delta", true},
                                                     {"--route", true}}));
  if (print_help_if_asked(parsed, kDpSgdHelp, io.out)) return 0;
  if (!parsed.positionals().empty()) {
    throw UsageError("calibrate dp-sgd: unexpected argument '" +
                     abbreviate(parsed.positionals()[0]) + "'");
  }
  operations::CalibrateDpSgdRequest request;
  request.q = parsed.require_rational("--q");
  request.steps = operations::checked_dp_sgd_steps(parsed.require("--steps"));
  request.epsilon = parsed.require_rational("--epsilon");
  request.delta = parsed.require_rational("--delta");
  request.digits = digits_option(parsed, 1000);
  request.route = parsed.get("--route").value_or("pld");
  const operations::CalibrateDpSgdReport report = operations::calibrate_dp_sgd(request);
  const accounting::DpSgdAnswer& answer = report.answer;
  const accounting::DpSgdCalibration& c = answer.calibration;
  const int digits = request.digits;
  const mpfr_prec_t p = report.precision;
  TextJsonReport out;
  out.json.set("command", "calibrate");
  out.text("mechanism", "dp-sgd");
  out.text("q", to_string(request.q));
  out.json.set("steps", request.steps);
  out.lines.push_back("steps = " + std::to_string(request.steps));
  out.text("epsilon", to_string(request.epsilon));
  out.text("delta", to_string(request.delta));
  out.text("neighbouring", report.neighbouring);
  out.text("route", answer.route_text);
  out.interval("sigma", hull(Interval(c.sigma_lower, p), Interval(c.sigma_upper, p)), digits);
  out.text("sigma_to_use", report.sigma_to_use);
  out.interval("epsilon_at_sigma_upper", c.epsilon_at_upper, digits);
  out.interval("epsilon_at_sigma_lower", c.epsilon_at_lower, digits);
  if (answer.pld) {
    add_pld_search(out, *answer.pld);
  } else {
    out.json.set("rdp_order", JsonValue::number(exactdp::exact_decimal(c.order_at_upper)));
    out.lines.push_back("rdp_order = " + exactdp::exact_decimal(c.order_at_upper));
  }
  out.flag("width_met", c.width_met);
  return out.emit(io, parsed.has("--json"));
}

}  // namespace exactdp::cli
