// exactdp convert — zCDP and mu-GDP to (epsilon, delta) and back, certified
// (docs/DESIGN.md, "Command-line contract").
//
//   exactdp convert zcdp --rho R --delta R        -> epsilon (CKS20 Corollary 13, searched alpha)
//   exactdp convert zcdp --rho R --epsilon R      -> delta
//   exactdp convert gdp  --mu R --delta R         -> epsilon
//   exactdp convert gdp  --epsilon R --delta R    -> mu (the largest mu whose GDP implies it)
//   exactdp convert pure-dp --epsilon R           -> mu (eps-DP => mu-GDP) and rho (eps^2/2)
// Every interval is printed rounded outward; the line "use" names the safe end.
#include <ostream>
#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/accounting/ziv.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/text_json_report.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

using accounting::Certified;
using exactdp::Interval;

constexpr const char* kHelp =
    "usage: exactdp convert zcdp --rho R (--delta R | --epsilon R) [options]\n"
    "       exactdp convert gdp  --mu R --delta R [options]\n"
    "       exactdp convert gdp  --epsilon R --delta R [options]\n"
    "       exactdp convert pure-dp --epsilon R [options]\n"
    "\n"
    "zcdp:    rho-zCDP -> the smallest epsilon (or delta) of CKS20 Corollary 13 over a searched\n"
    "         alpha; any alpha is valid, each evaluation rounds to the safe side.\n"
    "gdp:     mu-GDP -> epsilon for delta; or, given (epsilon, delta), the largest mu such that\n"
    "         mu-GDP implies (epsilon, delta)-DP.\n"
    "pure-dp: epsilon-DP -> mu = 2 Phi^-1(e^eps / (1 + e^eps)) (GDP) and rho = eps^2 / 2 (zCDP).\n"
    "\n"
    "options:\n"
    "  --json           one JSON object; intervals as {\"lower\", \"upper\"}\n"
    "  --digits D       significant digits printed, 1..10000 (default 20)\n"
    "  --tolerance R    relative width wanted (default 2^-100), at least 2^-2000 (~1e-602:\n"
    "                   a cost limit)\n"
    "Every printed interval is rounded outward; 'use' is the end that is proven safe.\n"
    "Parameters: 0 <= rho <= 1e9, 0 < mu <= 1e6, 0 <= epsilon <= 1e6, 0 < delta < 1.\n";

// "key: text" (a note, not a number); a JSON string.
void add_note(TextJsonReport& out, const std::string& key, const std::string& text) {
  out.json.set(key, text);
  out.lines.push_back(key + ": " + text);
}

void add_tolerance(TextJsonReport& out, const Certified& c) {
  out.json.set("tolerance_met", c.tolerance_met);
  if (!c.tolerance_met) out.lines.push_back("note: tolerance not met (wider, still certified)");
}

// A zCDP conversion to `key` (epsilon or delta): the interval, its upper end to use, the route
// at the alpha found, and the tolerance.
void add_zcdp_result(TextJsonReport& out, const std::string& key,
                     const accounting::ZcdpConversion& c, int digits) {
  out.interval(key, c.bound.value, digits);
  out.text(key + "_upper", exactdp::decimal_upper(c.bound.value.upper(), digits));
  add_note(out, "route",
           "CKS20 Corollary 13 at alpha = " +
               exactdp::decimal_upper(Interval(c.alpha, 64).upper(), 12) +
               " (any alpha > 1 is valid)");
  add_tolerance(out, c.bound);
}

}  // namespace

int cmd_convert(Args args, Io& io) {
  const ParsedArgs parsed(
      args, with_accounting_options(
                {{"--rho", true}, {"--mu", true}, {"--epsilon", true}, {"--delta", true}}));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  if (parsed.positionals().size() != 1) {
    throw UsageError("convert needs exactly one source: zcdp, gdp or pure-dp (see --help)");
  }
  const std::string& from = parsed.positionals()[0];
  const int digits = digits_option(parsed, 10'000);
  const accounting::ZivOptions options =
      ziv_options_from_tolerance(parsed, TinyTolerance::kBelowMinimum);
  TextJsonReport out;
  out.json.set("command", "convert").set("from", from);

  if (from == "zcdp") {
    const mpq_class rho = parsed.require_rational("--rho");
    accounting::validate_rho(rho);
    out.json.set("rho", to_string(rho));
    if (parsed.has("--mu")) throw UsageError("convert zcdp takes --rho, not --mu");
    if (parsed.has("--delta") == parsed.has("--epsilon")) {
      throw UsageError("convert zcdp needs exactly one of --delta (-> epsilon) or --epsilon (-> delta)");
    }
    if (parsed.has("--delta")) {
      const mpq_class delta = parsed.require_rational("--delta");
      const auto c = accounting::zcdp_epsilon(rho, delta, options);
      out.json.set("delta", to_string(delta));
      add_zcdp_result(out, "epsilon", c, digits);
    } else {
      const mpq_class eps = parsed.require_rational("--epsilon");
      const auto c = accounting::zcdp_delta(rho, eps, options);
      out.json.set("epsilon", to_string(eps));
      add_zcdp_result(out, "delta", c, digits);
    }
  } else if (from == "gdp") {
    if (parsed.has("--rho")) throw UsageError("convert gdp takes --mu or --epsilon, not --rho");
    const mpq_class delta = parsed.require_rational("--delta");
    out.json.set("delta", to_string(delta));
    if (parsed.has("--mu") == parsed.has("--epsilon")) {
      throw UsageError("convert gdp needs exactly one of --mu (-> epsilon) or --epsilon (-> mu)");
    }
    if (parsed.has("--mu")) {
      const mpq_class mu = parsed.require_rational("--mu");
      const Certified c = accounting::gdp_epsilon(mu, delta, options);
      out.json.set("mu", to_string(mu));
      out.interval("epsilon", c.value, digits);
      out.text("epsilon_upper", exactdp::decimal_upper(c.value.upper(), digits));
      add_note(out, "route", "mu-GDP profile (Dong-Roth-Su Cor. 2.13), certified bisection");
      add_tolerance(out, c);
    } else {
      const mpq_class eps = parsed.require_rational("--epsilon");
      const Certified c = accounting::gdp_mu_for(eps, delta, options);
      out.json.set("epsilon", to_string(eps));
      out.interval("mu", c.value, digits);
      out.text("mu_lower", exactdp::decimal_lower(c.value.lower(), digits));
      add_note(out, "meaning",
               "mu-GDP with mu <= mu_lower implies (epsilon, delta)-DP (proven); mu_upper does not");
      add_tolerance(out, c);
    }
  } else if (from == "pure-dp") {
    if (parsed.has("--rho") || parsed.has("--mu") || parsed.has("--delta")) {
      throw UsageError("convert pure-dp takes only --epsilon");
    }
    const mpq_class eps = parsed.require_rational("--epsilon");
    const Certified c = accounting::gdp_mu_of_pure_dp(eps, options);
    out.json.set("epsilon", to_string(eps));
    out.interval("mu", c.value, digits);
    out.text("mu_upper", exactdp::decimal_upper(c.value.upper(), digits));
    const mpq_class rho = accounting::zcdp_rho_pure_dp(eps);
    out.json.set("rho", to_string(rho));
    out.lines.push_back("rho = " + abbreviate(to_string(rho)) + " (exact; BS16 Prop. 3.3)");
    add_note(out, "route", "mu = 2 Phi^-1(e^eps/(1+e^eps)) (Dong-Roth-Su; gdp_bridge Thm 5.1)");
    add_tolerance(out, c);
  } else {
    throw UsageError("unknown source '" + abbreviate(from) +
                     "' for convert: use zcdp, gdp or pure-dp (see --help)");
  }

  return out.emit(io, parsed.has("--json"));
}

}  // namespace exactdp::cli
