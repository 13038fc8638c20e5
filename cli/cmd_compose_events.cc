// exactdp compose --event ... (cli/compose_events.h); calibrate dp-sgd is cli/cmd_calibrate_dp_sgd.cc.
//
// compose: the events are parsed into accounting::RdpEvent (rdp.h). The "rdp" route applies to
// every list; when no event is subsampled the accountant's routes (accountant.h: gdp, kov, basic,
// zcdp) are evaluated too. With --route auto (default) the answer is the smallest certified
// upper end among the routes that apply, named; --route X forces one (exit 2 if it does not
// apply). Every interval is rounded outward; "<epsilon|delta>_upper" is the number to use.
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/accounting/accountant.h>
#include <exactdp/core/decimal.h>
#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/ziv.h>
#include "cli/accounting_options.h"
#include "cli/compose_limits.h"
#include "cli/args.h"
#include "cli/compose_events.h"
#include "cli/json.h"
#include "cli/text_json_report.h"
#include <exactdp/laws/registry.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

using exactdp::Interval;
using accounting::Neighbouring;
using accounting::PrivacyEvent;
using accounting::RdpEvent;

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
    "  gdp, kov, basic, zcdp   the accountant's routes; only when no event is subsampled\n"
    "\n"
    "options:\n"
    "  --route R          auto (default: the smallest certified upper end among the routes that\n"
    "                     apply: rdp, gdp, kov, basic, zcdp, and pld as above), or one of them\n"
    "  --pld-step R       the pld route's loss grid step, 1/N for an integer N in 1..10^7\n"
    "                     (default 1/5000 up to 5000 composed events, 1/2500 beyond: for\n"
    "                     DP-SGD within 1 %); refused up front if estimated over 10 s or 1 GiB\n"
    "  --neighbouring N   add-remove (default) or replace-one; named in the answer. Plain events\n"
    "                     read their sensitivity as the one for the relation named. Subsampled\n"
    "                     events under replace-one: every event must be subsampled (a plain\n"
    "                     one as q=1), each sensitivity bounds what one record adds to its\n"
    "                     query, and only pld applies: its upper end is the group bound through\n"
    "                     the data set without the record (proven, not tight: about twice the\n"
    "                     add-remove epsilon), its lower end the pair of records adding +Delta\n"
    "                     and -Delta (docs/ACCOUNTING.md)\n"
    "  --json             one JSON object; intervals as {\"lower\", \"upper\"}\n"
    "  --digits D         significant digits printed, 1..10000 (default 20)\n"
    "  --tolerance R      relative width wanted (default 2^-100), at least 2^-700 (cost limit)\n"
    "Ranges: counts 1..10^12 in total; 0 < delta < 1; 0 <= epsilon <= 10^6. Cost limits (checked\n"
    "before any route runs, exit 2 naming the parameter): at most 1000 --event options; every\n"
    "rational of an event at most 1024 bits of numerator plus denominator (~300 digits);\n"
    "sigma/Delta, scale/Delta and sigma2/Delta^2 in [10^-6, 2^128]; q >= 2^-64. The interval of the\n"
    "rdp route encloses that route's bound (its upper end is the certified epsilon or delta);\n"
    "its lower end is not a lower bound on the mechanism's true privacy loss.\n";

// ---- EVENT text --------------------------------------------------------------------------

struct EventText {
  std::string kind;
  std::vector<std::pair<std::string, std::string>> fields;
};

EventText split_event(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0) {
    throw UsageError("event '" + abbreviate(text) +
                     "': expected kind:key=value,... (e.g. poisson-gaussian:sigma=1,q=0.01)");
  }
  EventText e;
  e.kind = text.substr(0, colon);
  std::string rest = text.substr(colon + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {
    const auto comma = rest.find(',', start);
    const std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos
                                                                          : comma - start);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw UsageError("event '" + abbreviate(text) + "': expected key=value, got '" +
                       abbreviate(item) + "'");
    }
    const std::string key = item.substr(0, eq);
    for (const auto& [k, v] : e.fields) {
      if (k == key) throw UsageError("event '" + abbreviate(text) + "': " + key + " given twice");
    }
    e.fields.emplace_back(key, item.substr(eq + 1));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return e;
}

// The keys an event of `law` takes, in order: its noise parameters, q when Poisson-subsampled,
// then its privacy parameters (the sensitivity).
std::vector<const laws::ParameterSpec*> event_keys(const laws::Law& law, bool poisson, std::vector<std::string>& names) {
  std::vector<const laws::ParameterSpec*> keys;
  for (const auto& p : law.parameters()) {
    if (p.role != laws::Role::kNoise) continue;
    keys.push_back(&p);
    names.push_back(p.name);
  }
  if (poisson) names.emplace_back("q");
  for (const auto& p : law.parameters()) {
    if (p.role != laws::Role::kPrivacy) continue;
    keys.push_back(&p);
    names.push_back(p.name);
  }
  return keys;
}

std::string event_kinds() {
  std::string plain, poisson;
  for (const laws::Law* law : laws::all_laws()) {
    if (!law->supports(laws::Capability::kEvent)) continue;
    plain += (plain.empty() ? "" : ", ") + law->name();
    if (law->supports(laws::Capability::kSubsample)) poisson += ", poisson-" + law->name();
  }
  return plain + poisson;
}

// A registry law's event (laws/registry.h), plain or "poisson-<law>" with q.
RdpEvent parse_event(const std::string& text) {
  const EventText e = split_event(text);
  const bool poisson = e.kind.rfind("poisson-", 0) == 0;
  const laws::Law* law = laws::find_law(poisson ? e.kind.substr(8) : e.kind);
  if (law == nullptr || !law->supports(laws::Capability::kEvent) ||
      (poisson && !law->supports(laws::Capability::kSubsample))) {
    throw UsageError("unknown event kind '" + abbreviate(e.kind) + "' (allowed: " + event_kinds() + ")");
  }
  std::vector<std::string> names;
  const auto keys = event_keys(*law, poisson, names);
  std::vector<std::pair<std::string, std::string>> given;
  std::optional<std::string> q;
  for (const auto& [k, v] : e.fields) {
    bool ok = false;
    for (const auto& n : names) ok = ok || n == k;
    if (!ok) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw UsageError("event " + e.kind + ": unknown key '" + abbreviate(k) + "' (allowed: " + list + ")");
    }
    if (poisson && k == "q") {
      q = v;
    } else {
      given.emplace_back(k, v);
    }
  }
  for (const auto* key : keys) {
    bool present = false;
    for (const auto& [k, v] : given) present = present || k == key->name;
    if (!present && !key->fallback) throw UsageError("event " + e.kind + ": " + key->name + "=R is required");
  }
  if (poisson && !q) throw UsageError("event " + e.kind + ": q=R is required");
  const accounting::PrivacyEvent event = law->privacy_event(law->parse(given, laws::Use::kPrivacy));
  if (!poisson) return RdpEvent::plain(event);
  return RdpEvent::poisson_subsampled(event, parse_rational("q", *q));
}

unsigned long parse_count(const std::string& text) {
  const mpz_class n = parse_integer("count", text);
  if (n < 1 || n > mpz_class("1000000000000")) {
    throw ParameterError::out_of_range("count", abbreviate(to_string(n)), "1 <= count <= 10^12");
  }
  return n.get_ui();
}

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
  check_event_option_count(raw.size());  // before parsing (compose_limits.h)
  for (const auto& [event, count] : raw) {
    s.events.emplace_back(parse_event(event), count ? parse_count(*count) : 1UL);
  }
  return s;
}

unsigned long pld_steps_option(const ParsedArgs& parsed, const accounting::RdpComposition& events) {
  if (!parsed.has("--pld-step")) return accounting::pld::default_steps_per_unit(events);
  const mpq_class step = parsed.require_rational("--pld-step");
  if (sgn(step) <= 0 || step.get_num() != 1 || step.get_den() > 10'000'000) {
    throw ParameterError::out_of_range("pld-step", abbreviate(to_string(step)),
                                       "1/N for an integer N with 1 <= N <= 10^7");
  }
  return mpz_get_ui(step.get_den_mpz_t());
}

Neighbouring neighbouring_option(const ParsedArgs& parsed) {
  const std::string n = parsed.get("--neighbouring").value_or("add-remove");
  if (n == "add-remove") return Neighbouring::kAddRemove;
  if (n == "replace-one") return Neighbouring::kReplaceOne;
  throw UsageError("unknown --neighbouring '" + abbreviate(n) + "': use add-remove or replace-one");
}

struct RouteResult {
  std::string route;  // "rdp", "gdp (exact)", ...
  Interval value;
  bool tolerance_met;
};

std::string base_name(const std::string& label) { return label.substr(0, label.find(' ')); }

}  // namespace

bool compose_uses_events(Args args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (is_option(a, "--event")) return true;
  }
  return false;
}

namespace {

// The command line of compose --event, validated before any route runs.
struct ComposeRequest {
  accounting::RdpComposition events;
  bool want_epsilon = true;  // --delta given: epsilon wanted
  mpq_class target;          // the --delta or --epsilon given
  Neighbouring relation = Neighbouring::kAddRemove;
  std::string route;         // auto, rdp, pld, gdp, kov, basic or zcdp
  int digits = 20;
  accounting::ZivOptions options;
  bool subsampled = false;
  bool rdp_applies = true;
  bool json = false;
};

void check_target(const ComposeRequest& r) {
  if (r.want_epsilon) {
    accounting::validate_delta(r.target);
  } else if (sgn(r.target) < 0 || r.target > 1'000'000) {
    throw ParameterError::out_of_range("epsilon", abbreviate(to_string(r.target)), "0 <= epsilon <= 10^6");
  }
}

std::string route_option(const ParsedArgs& parsed) {
  const std::string route = parsed.get("--route").value_or("auto");
  if (route != "auto" && route != "rdp" && route != "gdp" && route != "kov" && route != "basic" &&
      route != "zcdp" && route != "pld") {
    throw UsageError("unknown --route '" + abbreviate(route) + "': use auto, rdp, pld, gdp, kov, basic or zcdp");
  }
  return route;
}

// Subsampled events: only rdp and pld; under replace-one only pld (a mixture against a mixture
// has no RDP analysis here; the pld route's group bound applies).
void check_routes(ComposeRequest& r) {
  for (const auto& [e, n] : r.events) {
    r.subsampled = r.subsampled || e.is_subsampled();
    r.rdp_applies = r.rdp_applies && e.has_rdp();
  }
  if (r.subsampled && r.relation == Neighbouring::kReplaceOne) {
    if (r.route == "rdp") {
      throw ParameterError("route", "route: rdp does not apply to Poisson-subsampled events under replace-one; use pld "
                                    "or auto");
    }
    r.rdp_applies = false;
  }
  if (r.events.empty()) throw UsageError("compose: give at least one --event (see --help)");
  check_compose_event_limits(r.events);  // cost limits before any route (compose_limits.h)
  if (r.subsampled && r.route != "auto" && r.route != "rdp" && r.route != "pld") {
    throw UsageError("--route " + r.route + " does not apply to subsampled events: use rdp, pld or auto");
  }
}

ComposeRequest compose_request(const ParsedArgs& parsed, accounting::RdpComposition events) {
  if (!parsed.positionals().empty()) {
    throw UsageError("compose: unexpected argument '" + abbreviate(parsed.positionals()[0]) +
                     "' with --event (see --help)");
  }
  if (parsed.has("--delta") == parsed.has("--epsilon")) {
    throw UsageError("compose: give exactly one of --delta R (for epsilon) or --epsilon R (for delta)");
  }
  ComposeRequest r;
  r.events = std::move(events);
  r.want_epsilon = parsed.has("--delta");
  r.target = parsed.require_rational(r.want_epsilon ? "--delta" : "--epsilon");
  check_target(r);
  r.relation = neighbouring_option(parsed);
  r.route = route_option(parsed);
  r.digits = digits_option(parsed, 10'000);
  r.options = ziv_options_from_tolerance(parsed, TinyTolerance::kBelowMinimum, kMaxEventToleranceBits);
  r.json = parsed.has("--json");
  check_routes(r);
  return r;
}

void add_rdp_route(const ComposeRequest& r, std::vector<RouteResult>& results, std::string& detail) {
  if (!(r.route == "rdp" || (r.route == "auto" && r.rdp_applies))) return;
  const accounting::RdpAnswer a = r.want_epsilon ? accounting::rdp_epsilon(r.events, r.target, r.relation, r.options)
                                                 : accounting::rdp_delta(r.events, r.target, r.relation, r.options);
  results.push_back({a.exact_rdp ? "rdp (exact RDP)" : "rdp", a.value.value, a.value.tolerance_met});
  detail = "order " + exactdp::exact_decimal(a.order) + ", composed RDP " +
           exactdp::to_decimal_string(a.rdp_at_order, 12) +
           (r.want_epsilon ? " (Balle et al. 2020 Thm 21)" : " (CKS20 Prop. 12)");
}

// The accountant's routes (gdp, kov, basic, zcdp) for plain events; true when one is exact.
bool add_accountant_routes(const ComposeRequest& r, std::vector<RouteResult>& results) {
  if (r.subsampled || r.route == "rdp" || r.route == "pld") return false;
  accounting::Accountant acc(r.options);
  for (const auto& [e, n] : r.events) acc.compose(e.plain_event(), n);
  const accounting::AccountantAnswer a = r.want_epsilon ? acc.get_epsilon(r.target) : acc.get_delta(r.target);
  bool exact_found = false;
  for (const auto& c : a.considered) {
    if (r.route == "auto" || base_name(c.route) == r.route) {
      results.push_back({c.route, c.value, c.route == a.route ? a.tolerance_met : true});
      exact_found = exact_found || c.exact_route;
    }
  }
  return exact_found;
}

// pld: when forced; under auto when no other route applies (errors then propagate), or for
// subsampled compositions (DP-SGD: where it beats rdp) of noise laws it discretises, at most
// 10^6 composed events (it takes 0.1-10 s; a refusal or limit is then reported, not fatal).
// Plain compositions keep the millisecond routes unless --route pld is asked for: a wide
// plain loss support (e.g. 1000 Laplace steps) makes pld take many seconds.
void add_pld_route(const ComposeRequest& r, const ParsedArgs& parsed, bool exact_found, std::vector<RouteResult>& results,
                   std::string& detail) {
  unsigned long total = 0;
  bool pld_covers_all = true;
  for (const auto& [e, n] : r.events) {
    total += std::min(n, 1'000'000'000UL);
    pld_covers_all = pld_covers_all && accounting::pld::covers(e, r.relation);
  }
  const bool required = r.route == "pld" || (r.route == "auto" && !r.rdp_applies);
  const bool optional =
      r.route == "auto" && !required && r.subsampled && !exact_found && pld_covers_all && total <= 1'000'000;
  if (parsed.has("--pld-step") && !required && !optional) {
    throw UsageError("--pld-step applies only where the pld route runs (--route pld, or auto with subsampled "
                     "events)");
  }
  if (!required && !optional) return;
  accounting::pld::PldOptions pld_options;
  pld_options.discretization.steps_per_unit = pld_steps_option(parsed, r.events);
  if (optional) {  // not asked for: refuse what would take long (reported, not fatal)
    pld_options.discretization.max_grid_points = 300'000;
    pld_options.max_composed_points = std::size_t{1} << 21;
  }
  try {
    const accounting::pld::PldAnswer a =
        r.want_epsilon ? accounting::pld::pld_epsilon(r.events, r.target, r.relation, pld_options)
                       : accounting::pld::pld_delta(r.events, r.target, r.relation, pld_options);
    results.push_back({"pld", a.value, true});
    const std::string ends = r.subsampled && r.relation == Neighbouring::kReplaceOne
                                 ? "group bound through the data set without the record from both add/remove "
                                   "upper chains, cell-index test of the +Delta/-Delta records for the lower end, "
                                 : "connect-the-dots upper chain, cell-index test lower end, ";
    detail = ends + a.grid + ", " + std::to_string(a.points) + " grid points";
  } catch (const ParameterError& e) {  // LimitError is one too
    if (required) throw;
    detail = std::string("not used: ") + e.what();
  }
}

int emit_compose_report(const ComposeRequest& r, const std::vector<RouteResult>& results, const std::string& rdp_detail,
                        const std::string& pld_detail, Io& io) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < results.size(); ++i) {
    if (mpfr_cmp(results[i].value.upper(), results[best].value.upper()) < 0) best = i;
  }
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
  out.interval(quantity, results[best].value, r.digits);
  out.text(quantity + "_upper", exactdp::decimal_upper(results[best].value.upper(), r.digits));
  out.text("route", results[best].route);
  if (!rdp_detail.empty()) out.text("rdp_detail", rdp_detail);
  if (!pld_detail.empty()) out.text("pld_detail", pld_detail);
  JsonValue routes = JsonValue::object();
  for (const auto& res : results) {
    routes.set(res.route, JsonValue::interval(res.value, r.digits));
    if (results.size() > 1) {
      out.lines.push_back("  considered " + res.route + ": " + exactdp::to_decimal_string(res.value, r.digits));
    }
  }
  out.json.set("routes", std::move(routes));
  out.flag("tolerance_met", results[best].tolerance_met);
  return out.emit(io, r.json);
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
  const ComposeRequest r = compose_request(parsed, std::move(split.events));
  std::vector<RouteResult> results;
  std::string rdp_detail, pld_detail;
  add_rdp_route(r, results, rdp_detail);
  const bool exact_found = add_accountant_routes(r, results);
  add_pld_route(r, parsed, exact_found, results, pld_detail);
  if (results.empty()) throw UsageError("--route " + r.route + " does not apply to these events");
  return emit_compose_report(r, results, rdp_detail, pld_detail, io);
}

}  // namespace exactdp::cli
