// exactdp compose --event ... (cli/compose_events.h); calibrate dp-sgd is cli/cmd_calibrate_dp_sgd.cc.
//
// compose: the options are read here, the events parsed by laws/event_text.h and composed by
// accounting::compose_events (accounting/event_composition.h: which routes apply, --route auto
// picks the smallest certified upper end); this file prints the result. Every interval is
// rounded outward; "<epsilon|delta>_upper" is the number to use.
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/accounting/composition_limits.h>
#include <exactdp/accounting/event_composition.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/core/decimal.h>
#include <exactdp/laws/event_text.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/compose_events.h"
#include "cli/json.h"
#include "cli/text_json_report.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

constexpr const char* kHelp =
    "usage: exactdp compose --event EVENT [--count N] [--event EVENT [--count N] ...]\n"
    "                       (--delta R | --epsilon R) [options]\n"
    "\n"
    "The epsilon (at --delta) or delta (at --epsilon) of the adaptive composition of the events,\n"
    "each used N times (--count after its --event; default 1), as a certified interval.\n"
    "\n"
    "EVENT is kind:key=value,... (sensitivity 1 unless given):\n"
    "  gaussian:sigma=R[,sensitivity=R]            discrete-gaussian:sigma2=R[,sensitivity=INT]\n"
    "  laplace:scale=R[,sensitivity=R]             discrete-laplace:scale=R[,sensitivity=INT]\n"
    "  pure-dp:epsilon=R   zcdp:rho=R   gdp:mu=R\n"
    "  staircase:gamma=R,sensitivity=INT[,r=INT]   the discrete staircase (gamma-DP; pld route)\n"
    "  poisson-gaussian:sigma=R,q=R[,sensitivity=R]  Gaussian noise on a Poisson sample (rate q)\n"
    "  poisson-discrete-gaussian:sigma2=R,q=R[,sensitivity=INT]\n"
    "  poisson-laplace:scale=R,q=R[,sensitivity=R]\n"
    "  poisson-discrete-laplace:scale=R,q=R[,sensitivity=INT]\n"
    "  poisson-staircase:gamma=R,q=R,sensitivity=INT[,r=INT]\n"
    "  vector-discrete-gaussian:sigma=R,sensitivity=R,dim=N,granularity=R   a float vector\n"
    "         rounded to the grid 2^-k and noised (L2 sensitivity before rounding; also\n"
    "         vector-discrete-laplace:scale=R,... with L1, and poisson-vector-...:...,q=R;\n"
    "         docs/REAL_VALUED_ACCOUNTING.md)\n"
    "The kinds are the registry's laws (exactdp laws).\n"
    "\n"
    "Routes (every one a theorem; see docs/ACCOUNTING_SUBSAMPLED.md and docs/ACCOUNTING.md):\n"
    "  rdp    Renyi DP at integer orders 2..4096 and one fractional order near the best,\n"
    "         summed, converted by Balle et al. 2020 Thm 21 (epsilon) or CKS20 Prop. 12 (delta);\n"
    "         every plain event, poisson-gaussian (MTZ19), poisson-laplace (orders <= 256),\n"
    "         poisson-discrete-gaussian (sigma2 <= 2500), poisson-discrete-laplace (both pair\n"
    "         orders computed for the subsampled kinds but poisson-gaussian)\n"
    "  pld    privacy loss distributions of every noise event, plain or poisson-subsampled:\n"
    "         connect-the-dots upper chain and a likelihood-ratio test for the lower end,\n"
    "         composed by exact GMP convolution; BOTH ends of its interval are proven bounds on\n"
    "         the true epsilon or delta. It takes 0.1-10 s where rdp takes milliseconds; auto\n"
    "         runs it for subsampled compositions of at most 10^6 events, and wherever rdp\n"
    "         does not apply\n"
    "  smoothed-pld   vector-discrete-gaussian events (with gaussian ones), plain or\n"
    "         poisson-subsampled, add-remove only: the pld route of the continuous Gaussians\n"
    "         they are compared with, delta scaled by 1/R and epsilon shifted by 2 ln R\n"
    "         (docs/REAL_VALUED_ACCOUNTING.md Theorem 5); auto runs it when an event is a\n"
    "         vector-discrete-gaussian; its lower end is the continuous Gaussian's, not a bound\n"
    "  exact  one poisson-gaussian event (count 1), add-remove: its closed-form profile (normal\n"
    "         tails at the loss threshold, both pair orders), epsilon by certified bisection;\n"
    "         replace-one: the same for its +Delta/-Delta pair (proven worst case)\n"
    "         (likewise one poisson-discrete-gaussian step, discrete-laplace steps); up to 32\n"
    "         steps in total (add-remove): the pld construction with wide masses (2^-160 and\n"
    "         finer; the finest grid of 1/16000 .. 1/250 estimated within 1.5 s, or --pld-step),\n"
    "         a tight bracket with both ends proven; auto runs it when an event is subsampled\n"
    "  gdp, kov, basic, zcdp   the accountant's routes; only when no event is subsampled\n"
    "\n"
    "options:\n"
    "  --route R          auto (default: the smallest certified upper end among the routes that\n"
    "                     apply: rdp, gdp, kov, basic, zcdp, pld, smoothed-pld and exact as\n"
    "                     above), or one of them\n"
    "  --pld-step R       the pld route's loss grid step, 1/N for an integer N in 1..10^7\n"
    "                     (default 1/5000 up to 5000 composed events, 1/2500 beyond: for\n"
    "                     DP-SGD within 1 %); refused up front if estimated over 10 s or 1 GiB;\n"
    "                     also the grid of the exact route's few steps\n"
    "  --neighbouring N   add-remove (default) or replace-one; named in the answer. Plain events\n"
    "                     read their sensitivity as the one for the relation named. Subsampled\n"
    "                     events under replace-one: every event must be subsampled (a plain\n"
    "                     one as q=1), each sensitivity bounds what one record adds to its\n"
    "                     query, and only pld applies (and exact for one poisson-gaussian\n"
    "                     step). Both ends come from the pair of records adding +Delta and\n"
    "                     -Delta, proven to be the worst case for poisson-gaussian events\n"
    "                     (docs/ACCOUNTING.md); with any other kind the upper end is the group\n"
    "                     bound through the data set without the record (proven, not tight:\n"
    "                     about twice the add-remove epsilon)\n"
    "  --json             one JSON object; intervals as {\"lower\", \"upper\"}\n"
    "  --digits D         significant digits printed, 1..10000 (default 20)\n"
    "  --tolerance R      relative width wanted (default 2^-100), at least 2^-700 (cost limit)\n"
    "Ranges: counts 1..10^12 in total; 0 < delta < 1; 0 <= epsilon <= 10^6. Cost limits (checked\n"
    "before any route runs, exit 2 naming the parameter): at most 1000 --event options; every\n"
    "rational of an event at most 1024 bits of numerator plus denominator (~300 digits);\n"
    "sigma/Delta, scale/Delta and sigma2/Delta^2 in [10^-6, 2^128]; q >= 2^-64. The interval of the\n"
    "rdp route encloses that route's bound (its upper end is the certified epsilon or delta);\n"
    "its lower end is not a lower bound on the mechanism's true privacy loss.\n";

// Splits --event/--count pairs off the arguments; the rest go to ParsedArgs.
struct SplitArgs {
  accounting::RdpComposition events;
  std::vector<std::string> rest;
};

bool is_option(const std::string& token, const std::string& name) {
  return token == name || token.rfind(name + "=", 0) == 0;
}

SplitArgs split_events(Args args) {
  SplitArgs s;
  std::vector<std::pair<std::string, std::optional<std::string>>> raw;  // event, count text
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& t = args[i];
    const bool event = is_option(t, "--event"), count = is_option(t, "--count");
    if (!event && !count) {
      s.rest.push_back(t);
      continue;
    }
    const std::string name = event ? "--event" : "--count";
    std::string value;
    if (t.size() > name.size()) {
      value = t.substr(name.size() + 1);
    } else {
      if (i + 1 >= args.size()) throw UsageError("option " + name + " needs a value");
      value = args[++i];
    }
    if (event) {
      raw.emplace_back(value, std::nullopt);
    } else {
      if (raw.empty()) throw UsageError("--count must follow the --event it counts");
      if (raw.back().second) throw UsageError("--count given twice for one --event");
      raw.back().second = value;
    }
  }
  accounting::check_event_option_count(raw.size());  // before parsing (composition_limits.h)
  for (const auto& [event, count] : raw) {
    s.events.emplace_back(laws::parse_event_text(event), count ? laws::parse_event_count(*count) : 1UL);
  }
  return s;
}

}  // namespace

bool compose_uses_events(Args args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (is_option(a, "--event")) return true;
  }
  return false;
}

namespace {

// The command line of compose --event, validated before any route runs (in the order the
// options are read: target, neighbouring, route, digits, tolerance; the events' checks follow in
// accounting::compose_events).
struct ComposeRequest {
  accounting::EventCompositionRequest request;
  int digits = 20;
  bool json = false;
};

ComposeRequest compose_request(const ParsedArgs& parsed, accounting::RdpComposition events) {
  if (!parsed.positionals().empty()) {
    throw UsageError("compose: unexpected argument '" + abbreviate(parsed.positionals()[0]) +
                     "' with --event (see --help)");
  }
  if (parsed.has("--delta") == parsed.has("--epsilon")) {
    throw UsageError("compose: give exactly one of --delta R (for epsilon) or --epsilon R (for delta)");
  }
  ComposeRequest c;
  accounting::EventCompositionRequest& r = c.request;
  r.events = std::move(events);
  r.want_epsilon = parsed.has("--delta");
  r.target = parsed.require_rational(r.want_epsilon ? "--delta" : "--epsilon");
  accounting::validate_composition_target(r.want_epsilon, r.target);
  r.relation = accounting::parse_neighbouring(parsed.get("--neighbouring").value_or("add-remove"));
  r.route = accounting::composition_route(parsed.get("--route").value_or("auto"));
  c.digits = digits_option(parsed, 10'000);
  r.options = ziv_options_from_tolerance(parsed, TinyTolerance::kBelowMinimum, kMaxEventToleranceBits);
  if (parsed.has("--pld-step")) r.pld_step = parsed.require_rational("--pld-step");
  c.json = parsed.has("--json");
  return c;
}

int emit_compose_report(const ComposeRequest& c, const accounting::EventCompositionResult& result, Io& io) {
  const accounting::EventCompositionRequest& r = c.request;
  const accounting::EventRouteResult& best = result.answer();
  const std::string quantity = r.want_epsilon ? "epsilon" : "delta";
  TextJsonReport out;
  out.json.set("command", "compose");
  JsonValue events = JsonValue::array();
  std::string listing;
  for (const auto& [e, n] : r.events) {
    JsonValue one = JsonValue::object();
    one.set("event", e.describe()).set("count", n);
    events.push(std::move(one));
    listing += (listing.empty() ? "" : "; ") + e.describe() + " x " + std::to_string(n);
  }
  out.json.set("events", std::move(events));
  out.lines.push_back("events = " + listing);
  out.text("neighbouring", accounting::neighbouring_name(r.relation));
  out.text(r.want_epsilon ? "delta" : "epsilon", to_string(r.target));
  out.interval(quantity, best.value, c.digits);
  out.text(quantity + "_upper", exactdp::decimal_upper(best.value.upper(), c.digits));
  out.text("route", best.route);
  if (!result.rdp_detail.empty()) out.text("rdp_detail", result.rdp_detail);
  if (!result.pld_detail.empty()) out.text("pld_detail", result.pld_detail);
  if (!result.smoothed_pld_detail.empty()) out.text("smoothed_pld_detail", result.smoothed_pld_detail);
  if (!result.exact_detail.empty()) out.text("exact_detail", result.exact_detail);
  JsonValue routes = JsonValue::object();
  for (const auto& res : result.routes) {
    routes.set(res.route, JsonValue::interval(res.value, c.digits));
    if (result.routes.size() > 1) {
      out.lines.push_back("  considered " + res.route + ": " + exactdp::to_decimal_string(res.value, c.digits));
    }
  }
  out.json.set("routes", std::move(routes));
  out.flag("tolerance_met", best.tolerance_met);
  return out.emit(io, c.json);
}

}  // namespace

int cmd_compose_events(Args args, Io& io) {
  SplitArgs split = split_events(args);
  const ParsedArgs parsed(std::span<const std::string>(split.rest),
                          with_accounting_options({{"--delta", true},
                                                   {"--epsilon", true},
                                                   {"--route", true},
                                                   {"--pld-step", true},
                                                   {"--neighbouring", true}}));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  const ComposeRequest c = compose_request(parsed, std::move(split.events));
  return emit_compose_report(c, accounting::compose_events(c.request), io);
}

}  // namespace exactdp::cli
