// exactdp calibrate dp-sgd — the certified noise multiplier of DP-SGD by the rdp route
// (accounting/dp_sgd_calibration.h): Poisson sampling with rate q, `steps` steps, add/remove-one.
#include <string>

#include <exactdp/accounting/dp_sgd_calibration.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/rational.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/compose_events.h"
#include "cli/json.h"
#include "cli/text_json_report.h"

namespace exactdp::cli {
namespace {

using accounting::Neighbouring;

constexpr const char* kDpSgdHelp =
    "usage: exactdp calibrate dp-sgd --q R --steps N --epsilon R --delta R [options]\n"
    "\n"
    "The noise multiplier sigma for DP-SGD (noise N(0, sigma^2 C^2) added to the sum of\n"
    "per-example gradients clipped to norm C, Poisson sampling with rate q, `steps` steps) whose\n"
    "certified epsilon at delta, by the rdp route (MTZ19 + Balle et al. 2020 Thm 21), is at most\n"
    "the target. Neighbouring relation: add/remove-one.\n"
    "  sigma         certified bracket of the rdp route's optimum: epsilon(sigma.upper) <= target\n"
    "                and epsilon(sigma.lower) > target are both proven\n"
    "  sigma_to_use  sigma.upper rounded up to 8 significant digits (or --digits): use it\n"
    "\n"
    "options:\n"
    "  --json, --digits D (1..1000, default 20)\n"
    "Ranges: 0 < q <= 1, 1 <= steps <= 10^9, 0 < epsilon <= 10^4, 0 < delta < 1; sigma is\n"
    "searched in [10^-3, 10^6] to a relative width of 10^-6. Cost limits: q >= 2^-64, and q,\n"
    "epsilon and delta at most 1024 bits of numerator plus denominator each (~300 digits).\n";

}  // namespace

int cmd_calibrate_dp_sgd(Args args, Io& io) {
  const ParsedArgs parsed(args, with_report_options({{"--q", true},
                                                     {"--steps", true},
                                                     {"--epsilon", true},
                                                     {"--delta", true}}));
  if (print_help_if_asked(parsed, kDpSgdHelp, io.out)) return 0;
  if (!parsed.positionals().empty()) {
    throw UsageError("calibrate dp-sgd: unexpected argument '" +
                     abbreviate(parsed.positionals()[0]) + "'");
  }
  const mpq_class q = parsed.require_rational("--q");
  (void)parsed.require("--steps");
  const unsigned long steps =
      static_cast<unsigned long>(*parsed.count("--steps", 1, 1'000'000'000ULL));
  const mpq_class epsilon = parsed.require_rational("--epsilon");
  const mpq_class delta = parsed.require_rational("--delta");
  const int digits = digits_option(parsed, 1000);
  const accounting::DpSgdAnswer answer = accounting::calibrate_dp_sgd_request({q, steps, epsilon, delta});
  const accounting::DpSgdCalibration& c = answer.calibration;
  const mpfr_prec_t p = accounting::dp_sgd_print_precision(c, digits);
  TextJsonReport out;
  out.json.set("command", "calibrate");
  out.text("mechanism", "dp-sgd");
  out.text("q", to_string(q));
  out.json.set("steps", steps);
  out.lines.push_back("steps = " + std::to_string(steps));
  out.text("epsilon", to_string(epsilon));
  out.text("delta", to_string(delta));
  out.text("neighbouring", accounting::neighbouring_name(Neighbouring::kAddRemove));
  out.text("route", answer.route);
  out.interval("sigma", hull(Interval(c.sigma_lower, p), Interval(c.sigma_upper, p)), digits);
  out.text("sigma_to_use", accounting::dp_sgd_sigma_to_use(c, digits));
  out.interval("epsilon_at_sigma_upper", c.epsilon_at_upper, digits);
  out.interval("epsilon_at_sigma_lower", c.epsilon_at_lower, digits);
  out.json.set("rdp_order", JsonValue::number(exactdp::exact_decimal(c.order_at_upper)));
  out.lines.push_back("rdp_order = " + exactdp::exact_decimal(c.order_at_upper));
  out.flag("width_met", c.width_met);
  return out.emit(io, parsed.has("--json"));
}

}  // namespace exactdp::cli
