// exactdp convert — zCDP and mu-GDP to (epsilon, delta) and back, certified
// (docs/DESIGN.md, "Command-line contract").
//
//   exactdp convert zcdp --rho R --delta R        -> epsilon (CKS20 Corollary 13, searched alpha)
//   exactdp convert zcdp --rho R --epsilon R      -> delta
//   exactdp convert gdp  --mu R --delta R         -> epsilon
//   exactdp convert gdp  --epsilon R --delta R    -> mu (the largest mu whose GDP implies it)
//   exactdp convert pure-dp --epsilon R           -> mu (eps-DP => mu-GDP) and rho (eps^2/2)
// Every interval is printed rounded outward; the line "use" names the safe end.
// This file reads the options into an operations::ConvertRequest and prints the report; the
// checks, limits and citations are the operation's (operations/convert.h).
#include <optional>
#include <string>

#include <exactdp/core/decimal.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/convert.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/text_json_report.h"

namespace exactdp::cli {
namespace {

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

// The inputs as the JSON object lists them, in the order each source printed them.
void add_inputs(TextJsonReport& out, const operations::ConvertRequest& r) {
  const auto add = [&](const char* key, const std::optional<mpq_class>& value) {
    if (value) out.json.set(key, to_string(*value));
  };
  if (r.source == "zcdp") {
    add("rho", r.rho);
    add("delta", r.delta);
    add("epsilon", r.epsilon);
  } else if (r.source == "gdp") {
    add("delta", r.delta);
    add("mu", r.mu);
    add("epsilon", r.epsilon);
  } else {
    add("epsilon", r.epsilon);
  }
}

// The converted value: its interval, the safe end (mu from (epsilon, delta): the lower one),
// pure-dp's exact rho, the route or meaning, and the tolerance.
void add_result(TextJsonReport& out, const operations::ConvertReport& c, int digits) {
  const Interval& value = c.value.value;
  out.interval(c.result, value, digits);
  if (!c.meaning.empty()) {
    out.text(c.result + "_lower", exactdp::decimal_lower(value.lower(), digits));
    add_note(out, "meaning", c.meaning);
  } else {
    out.text(c.result + "_upper", exactdp::decimal_upper(value.upper(), digits));
    if (c.rho) {
      out.json.set("rho", to_string(*c.rho));
      out.lines.push_back("rho = " + abbreviate(to_string(*c.rho)) + " (exact; BS16 Prop. 3.3)");
    }
    add_note(out, "route", c.route);
  }
  out.json.set("tolerance_met", c.value.tolerance_met);
  if (!c.value.tolerance_met) out.lines.push_back("note: tolerance not met (wider, still certified)");
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
  const int digits = digits_option(parsed, 10'000);
  operations::ConvertRequest request;
  request.source = parsed.positionals()[0];
  request.tolerance = parsed.rational("--tolerance");
  request.rho = parsed.rational("--rho");
  request.mu = parsed.rational("--mu");
  request.epsilon = parsed.rational("--epsilon");
  request.delta = parsed.rational("--delta");
  const operations::ConvertReport report = operations::convert(request);

  TextJsonReport out;
  out.json.set("command", "convert").set("from", report.source);
  add_inputs(out, request);
  add_result(out, report, digits);
  return out.emit(io, parsed.has("--json"));
}

}  // namespace exactdp::cli
