// exactdp compose — k-fold composition of pure epsilon-DP mechanisms (docs/DESIGN.md,
// "Command-line contract").
//
//   exactdp compose pure-dp --epsilon R --k K --delta R --method basic|advanced|optimal|gdp|zcdp|all
// prints an interval for the composed epsilon at that delta and the end to use (the upper one:
// its delta is proven <= the target). "optimal" is the exact Kairouz–Oh–Viswanath value.
// This file reads the options into an operations::ComposePureDpRequest and prints the report;
// the checks, limits, methods and citations are the operation's (operations/compose.h).
#include <ostream>
#include <string>
#include <utility>

#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/core/decimal.h>
#include <exactdp/operations/compose.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/compose_events.h"
#include "cli/json.h"

namespace exactdp::cli {
namespace {

constexpr const char* kHelp =
    "usage: exactdp compose pure-dp --epsilon R --k K --delta R [--method M] [options]\n"
    "\n"
    "The epsilon of k adaptively composed epsilon-DP mechanisms at the given delta:\n"
    "  basic     k epsilon (delta = 0)\n"
    "  advanced  sqrt(2k ln(1/delta)) epsilon + k epsilon (e^epsilon - 1)   (Dwork-Rothblum-Vadhan)\n"
    "  optimal   the exact optimum (Kairouz-Oh-Viswanath), certified          (default)\n"
    "  gdp       eps-DP => mu-GDP, mu sqrt(k), then epsilon at delta\n"
    "  zcdp      eps-DP => eps^2/2-zCDP, k eps^2/2, then CKS20 Corollary 13\n"
    "  all       every method above\n"
    "\n"
    "options:\n"
    "  --json           one JSON object; intervals as {\"lower\", \"upper\"}\n"
    "  --digits D       significant digits printed, 1..10000 (default 20)\n"
    "  --tolerance R    relative width wanted (default 2^-100); at least 2^-2000 (~1e-602),\n"
    "                   2^-600 (~1e-180) with --method gdp or all (cost limits)\n"
    "Event lists (incl. Poisson-subsampled Gaussians): 'exactdp compose --event ... --help'.\n"
    "Ranges: 0 < epsilon <= 1e6, 1 <= k <= 1e6, 0 < delta < 1. 'epsilon_upper' is the value to\n"
    "use: every printed interval is rounded outward.\n";

// One method's result, into the JSON object (`json` for a single method, `results` for several)
// and, unless --json, as text.
void report_method(const operations::ComposedEpsilon& r, bool single, bool as_json, int digits, JsonValue& json,
                   JsonValue& results, std::ostream& out) {
  const std::string& m = r.method;
  const std::string use = exactdp::decimal_upper(r.epsilon.upper(), digits);
  if (single) {
    json.set("method", m).set_interval("epsilon", r.epsilon, digits);
    json.set("epsilon_upper", use).set("route", r.route).set("tolerance_met", r.tolerance_met);
    if (!as_json) {
      out << "epsilon = " << exactdp::to_decimal_string(r.epsilon, digits) << "\n"
          << "epsilon_upper = " << use << "\n"
          << "method: " << m << " — " << r.route << "\n";
    }
    return;
  }
  JsonValue one = JsonValue::object();
  one.set_interval("epsilon", r.epsilon, digits)
      .set("epsilon_upper", use)
      .set("route", r.route)
      .set("tolerance_met", r.tolerance_met);
  results.set(m, std::move(one));
  if (!as_json) {
    out << m << ": epsilon_upper = " << use << "   ("
        << exactdp::to_decimal_string(r.epsilon, digits) << "; " << r.route << ")\n";
  }
}

}  // namespace

int cmd_compose(Args args, Io& io) {
  if (compose_uses_events(args)) return cmd_compose_events(args, io);  // --event lists
  const ParsedArgs parsed(
      args, with_accounting_options(
                {{"--epsilon", true}, {"--k", true}, {"--delta", true}, {"--method", true}}));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  if (parsed.positionals().size() != 1 || parsed.positionals()[0] != "pure-dp") {
    throw UsageError("compose supports one kind: 'compose pure-dp ...' (see --help)");
  }
  operations::ComposePureDpRequest request;
  request.epsilon = parsed.require_rational("--epsilon");
  (void)parsed.require("--k");
  request.k = *parsed.count("--k", 1, accounting::kMaxCompositions);
  request.delta = parsed.require_rational("--delta");
  const int digits = digits_option(parsed, 10'000);
  request.method = parsed.get("--method").value_or("optimal");
  request.tolerance = parsed.rational("--tolerance");
  const operations::ComposePureDpReport report = operations::compose_pure_dp(request);

  JsonValue json = JsonValue::object();
  json.set("command", "compose")
      .set("mechanism", "pure-dp")
      .set("epsilon", exactdp::parameter_text(report.epsilon))
      .set("k", static_cast<unsigned long long>(report.k))
      .set("delta", exactdp::parameter_text(report.delta));
  JsonValue results = JsonValue::object();
  const bool single = report.results.size() == 1;
  for (const auto& r : report.results) {
    report_method(r, single, parsed.has("--json"), digits, json, results, io.out);
  }
  if (!single) json.set("methods", std::move(results));
  if (parsed.has("--json")) io.out << json.dump() << "\n";
  return 0;
}

}  // namespace exactdp::cli
