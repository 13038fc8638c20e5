// exactdp compose — k-fold composition of pure epsilon-DP mechanisms (docs/DESIGN.md,
// "Command-line contract").
//
//   exactdp compose pure-dp --epsilon R --k K --delta R --method basic|advanced|optimal|gdp|zcdp|all
// prints an interval for the composed epsilon at that delta and the end to use (the upper one:
// its delta is proven <= the target). "optimal" is the exact Kairouz–Oh–Viswanath value.
#include <algorithm>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/accounting/ziv.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/compose_events.h"
#include "cli/json.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

using accounting::Certified;
using exactdp::Interval;

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

struct MethodResult {
  Interval epsilon;
  bool tolerance_met;
  std::string detail;
};

MethodResult run_method(const std::string& method, const mpq_class& eps, unsigned long k,
                        const mpq_class& delta, const accounting::ZivOptions& options) {
  if (method == "basic") {
    const mpq_class e = accounting::basic_composition_epsilon(eps, k);
    return {Interval(e, 128), true, "k epsilon, exact; holds with delta = 0"};
  }
  if (method == "advanced") {
    Interval e = accounting::advanced_composition_epsilon(eps, k, delta, 128);
    return {std::move(e), true, "Dwork-Rothblum-Vadhan 2010 Thm III.3 (delta' = delta)"};
  }
  if (method == "optimal") {
    Certified c = accounting::kov_epsilon(eps, k, delta, options);
    return {std::move(c.value), c.tolerance_met,
            "Kairouz-Oh-Viswanath 2015 optimal composition, exact (certified interval)"};
  }
  if (method == "gdp") {
    accounting::ComposedGdp c = accounting::gdp_epsilon_of_composed_pure_dp(eps, k, delta, options);
    return {std::move(c.epsilon.value), c.epsilon.tolerance_met,
            "mu = 2 Phi^-1(e^eps/(1+e^eps)) per mechanism, composed as mu sqrt(k) = " +
                exactdp::decimal_upper(c.mu.upper(), 12) + " (upper)"};
  }
  if (method == "zcdp") {
    const mpq_class rho = accounting::zcdp_rho_pure_dp(eps) * mpq_class(mpz_class(k));
    const auto c = accounting::zcdp_epsilon(rho, delta, options);
    return {c.bound.value, c.bound.tolerance_met,
            "rho = k eps^2 / 2 = " + abbreviate(to_string(rho)) + ", CKS20 Corollary 13"};
  }
  throw UsageError("unknown method '" + abbreviate(method) +
                   "': use basic, advanced, optimal, gdp, zcdp or all");
}

// The methods --method names ("all": every one), validated before any work.
std::vector<std::string> methods_of(const std::string& method) {
  std::vector<std::string> methods;
  if (method == "all") {
    methods = {"basic", "advanced", "optimal", "gdp", "zcdp"};
  } else {
    methods = {method};
  }
  for (const auto& m : methods) {
    if (m != "basic" && m != "advanced" && m != "optimal" && m != "gdp" && m != "zcdp") {
      throw UsageError("unknown method '" + abbreviate(m) +
                       "': use basic, advanced, optimal, gdp, zcdp or all");
    }
  }
  return methods;
}

// The zCDP route composes rho = k eps^2 / 2, which zcdp_epsilon accepts up to 10^9; refuse a
// larger one here, before any output, naming the parameters the user gave (the accounting
// error would name rho, which is not an option of this command).
void check_zcdp_range(const std::vector<std::string>& methods, const mpq_class& eps, unsigned long k) {
  if (std::find(methods.begin(), methods.end(), "zcdp") == methods.end()) return;
  const mpq_class rho = accounting::zcdp_rho_pure_dp(eps) * mpq_class(mpz_class(k));
  if (rho > mpq_class(1'000'000'000)) {
    throw ParameterError::out_of_range(
        "epsilon", abbreviate(to_string(eps)),
        "k * epsilon^2 / 2 <= 10^9 for --method zcdp (here k = " + std::to_string(k) +
            ", so rho = " + abbreviate(to_string(rho)) + "); other methods accept it");
  }
}

// One method's result, into the JSON object (`json` for a single method, `results` for several)
// and, unless --json, as text.
void report_method(const std::string& m, const MethodResult& r, bool single, bool as_json, int digits,
                   JsonValue& json, JsonValue& results, std::ostream& out) {
  const std::string use = exactdp::decimal_upper(r.epsilon.upper(), digits);
  if (single) {
    json.set("method", m).set_interval("epsilon", r.epsilon, digits);
    json.set("epsilon_upper", use).set("route", r.detail).set("tolerance_met", r.tolerance_met);
    if (!as_json) {
      out << "epsilon = " << exactdp::to_decimal_string(r.epsilon, digits) << "\n"
          << "epsilon_upper = " << use << "\n"
          << "method: " << m << " — " << r.detail << "\n";
    }
    return;
  }
  JsonValue one = JsonValue::object();
  one.set_interval("epsilon", r.epsilon, digits)
      .set("epsilon_upper", use)
      .set("route", r.detail)
      .set("tolerance_met", r.tolerance_met);
  results.set(m, std::move(one));
  if (!as_json) {
    out << m << ": epsilon_upper = " << use << "   ("
        << exactdp::to_decimal_string(r.epsilon, digits) << "; " << r.detail << ")\n";
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
  const mpq_class eps = parsed.require_rational("--epsilon");
  (void)parsed.require("--k");
  const unsigned long k =
      static_cast<unsigned long>(*parsed.count("--k", 1, accounting::kMaxCompositions));
  const mpq_class delta = parsed.require_rational("--delta");
  accounting::validate_pure_dp_composition(eps, k);
  accounting::validate_delta(delta);
  const int digits = digits_option(parsed, 10'000);
  const std::string method = parsed.get("--method").value_or("optimal");
  // The gdp method (alone or in all) converts an enclosed mu: the costliest (accounting_options.h).
  const accounting::ZivOptions options = ziv_options_from_tolerance(
      parsed, TinyTolerance::kBelowMinimum,
      method == "gdp" || method == "all" ? kMaxAllMethodsToleranceBits : kMaxToleranceBits);
  const std::vector<std::string> methods = methods_of(method);
  check_zcdp_range(methods, eps, k);

  JsonValue json = JsonValue::object();
  json.set("command", "compose")
      .set("mechanism", "pure-dp")
      .set("epsilon", exactdp::parameter_text(eps))
      .set("k", static_cast<unsigned long long>(k))
      .set("delta", exactdp::parameter_text(delta));
  JsonValue results = JsonValue::object();
  for (const auto& m : methods) {
    report_method(m, run_method(m, eps, k, delta, options), methods.size() == 1, parsed.has("--json"), digits,
                  json, results, io.out);
  }
  if (methods.size() > 1) json.set("methods", std::move(results));
  if (parsed.has("--json")) io.out << json.dump() << "\n";
  return 0;
}

}  // namespace exactdp::cli
