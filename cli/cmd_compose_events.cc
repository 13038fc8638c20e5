// exactdp compose --event ... and exactdp calibrate dp-sgd (cli/compose_events.h).
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
#include <exactdp/accounting/decimal.h>
#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/ziv.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/compose_events.h"
#include "cli/json.h"
#include "cli/text_json_report.h"
#include <exactdp/laws/registry.h>
#include <exactdp/samplers/errors.h>
#include <exactdp/samplers/rational.h>

namespace exactdp::cli {
namespace {

using accounting::Interval;
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
    "Ranges: counts 1..10^12 in total; 0 < delta < 1; 0 <= epsilon <= 10^6. The interval of the\n"
    "rdp route encloses that route's bound (its upper end is the certified epsilon or delta);\n"
    "its lower end is not a lower bound on the mechanism's true privacy loss.\n";

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
    "searched in [10^-3, 10^6] to a relative width of 10^-6.\n";

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

int cmd_compose_events(Args args, Io& io) {
  SplitArgs split = split_events(args);
  const ParsedArgs parsed(std::span<const std::string>(split.rest),
                          with_accounting_options({{"--delta", true},
                                                   {"--epsilon", true},
                                                   {"--route", true},
                                                   {"--pld-step", true},
                                                   {"--neighbouring", true}}));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  if (!parsed.positionals().empty()) {
    throw UsageError("compose: unexpected argument '" + abbreviate(parsed.positionals()[0]) +
                     "' with --event (see --help)");
  }
  if (parsed.has("--delta") == parsed.has("--epsilon")) {
    throw UsageError("compose: give exactly one of --delta R (for epsilon) or --epsilon R (for delta)");
  }
  const bool want_epsilon = parsed.has("--delta");
  const mpq_class target = parsed.require_rational(want_epsilon ? "--delta" : "--epsilon");
  if (want_epsilon) {
    accounting::validate_delta(target);
  } else if (sgn(target) < 0 || target > 1'000'000) {
    throw ParameterError::out_of_range("epsilon", abbreviate(to_string(target)), "0 <= epsilon <= 10^6");
  }
  const Neighbouring relation = neighbouring_option(parsed);
  const std::string route = parsed.get("--route").value_or("auto");
  if (route != "auto" && route != "rdp" && route != "gdp" && route != "kov" && route != "basic" &&
      route != "zcdp" && route != "pld") {
    throw UsageError("unknown --route '" + abbreviate(route) + "': use auto, rdp, pld, gdp, kov, basic or zcdp");
  }

  const int digits = digits_option(parsed, 10'000);
  const accounting::ZivOptions options =
      ziv_options_from_tolerance(parsed, TinyTolerance::kBelowMinimum, kMaxEventToleranceBits);
  bool subsampled = false, rdp_applies = true;
  for (const auto& [e, n] : split.events) {
    subsampled = subsampled || e.is_subsampled();
    rdp_applies = rdp_applies && e.has_rdp();
  }
  // Subsampled events under replace-one: no RDP analysis here (a mixture against a mixture);
  // the pld route's group bound applies.
  if (subsampled && relation == Neighbouring::kReplaceOne) {
    if (route == "rdp") {
      throw ParameterError("route", "route: rdp does not apply to Poisson-subsampled events under replace-one; use pld "
                                    "or auto");
    }
    rdp_applies = false;
  }
  if (split.events.empty()) throw UsageError("compose: give at least one --event (see --help)");
  if (subsampled && route != "auto" && route != "rdp" && route != "pld") {
    throw UsageError("--route " + route + " does not apply to subsampled events: use rdp, pld or auto");
  }
  std::vector<RouteResult> results;
  std::string rdp_detail, pld_detail;
  if (route == "rdp" || (route == "auto" && rdp_applies)) {
    const accounting::RdpAnswer a =
        want_epsilon ? accounting::rdp_epsilon(split.events, target, relation, options)
                     : accounting::rdp_delta(split.events, target, relation, options);
    results.push_back({a.exact_rdp ? "rdp (exact RDP)" : "rdp", a.value.value, a.value.tolerance_met});
    rdp_detail = "order " + accounting::exact_decimal(a.order) + ", composed RDP " +
                 accounting::to_decimal_string(a.rdp_at_order, 12) +
                 (want_epsilon ? " (Balle et al. 2020 Thm 21)" : " (CKS20 Prop. 12)");
  }
  bool exact_found = false;
  if (!subsampled && route != "rdp" && route != "pld") {
    accounting::Accountant acc(options);
    for (const auto& [e, n] : split.events) acc.compose(e.plain_event(), n);
    const accounting::AccountantAnswer a = want_epsilon ? acc.get_epsilon(target) : acc.get_delta(target);
    for (const auto& c : a.considered) {
      if (route == "auto" || base_name(c.route) == route) {
        results.push_back({c.route, c.value, c.route == a.route ? a.tolerance_met : true});
        exact_found = exact_found || c.exact_route;
      }
    }
  }
  // pld: when forced; under auto when no other route applies (errors then propagate), or for
  // subsampled compositions (DP-SGD: where it beats rdp) of noise laws it discretises, at most
  // 10^6 composed events (it takes 0.1-10 s; a refusal or limit is then reported, not fatal).
  // Plain compositions keep the millisecond routes unless --route pld is asked for: a wide
  // plain loss support (e.g. 1000 Laplace steps) makes pld take many seconds.
  unsigned long total = 0;
  bool pld_covers_all = true;
  for (const auto& [e, n] : split.events) {
    total += std::min(n, 1'000'000'000UL);
    pld_covers_all = pld_covers_all && accounting::pld::covers(e, relation);
  }
  const bool pld_required = route == "pld" || (route == "auto" && !rdp_applies);
  const bool pld_optional =
      route == "auto" && !pld_required && subsampled && !exact_found && pld_covers_all && total <= 1'000'000;
  if (parsed.has("--pld-step") && !pld_required && !pld_optional) {
    throw UsageError("--pld-step applies only where the pld route runs (--route pld, or auto with subsampled "
                     "events)");
  }
  if (pld_required || pld_optional) {
    accounting::pld::PldOptions pld_options;
    pld_options.discretization.steps_per_unit = pld_steps_option(parsed, split.events);
    if (pld_optional) {  // not asked for: refuse what would take long (reported, not fatal)
      pld_options.discretization.max_grid_points = 300'000;
      pld_options.max_composed_points = std::size_t{1} << 21;
    }
    try {
      const accounting::pld::PldAnswer a =
          want_epsilon ? accounting::pld::pld_epsilon(split.events, target, relation, pld_options)
                       : accounting::pld::pld_delta(split.events, target, relation, pld_options);
      results.push_back({"pld", a.value, true});
      const std::string ends = subsampled && relation == Neighbouring::kReplaceOne
                                   ? "group bound through the data set without the record from both add/remove "
                                     "upper chains, cell-index test of the +Delta/-Delta records for the lower end, "
                                   : "connect-the-dots upper chain, cell-index test lower end, ";
      pld_detail = ends + a.grid + ", " + std::to_string(a.points) + " grid points";
    } catch (const ParameterError& e) {  // LimitError is one too
      if (pld_required) throw;
      pld_detail = std::string("not used: ") + e.what();
    }
  }
  if (results.empty()) {
    throw UsageError("--route " + route + " does not apply to these events");
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < results.size(); ++i) {
    if (mpfr_cmp(results[i].value.upper(), results[best].value.upper()) < 0) best = i;
  }

  const std::string quantity = want_epsilon ? "epsilon" : "delta";
  TextJsonReport out;
  out.json.set("command", "compose");
  JsonValue events = JsonValue::array();
  std::string listing;
  for (const auto& [e, n] : split.events) {
    JsonValue one = JsonValue::object();
    one.set("event", e.describe()).set("count", n);
    events.push(std::move(one));
    listing += (listing.empty() ? "" : "; ") + e.describe() + " x " + std::to_string(n);
  }
  out.json.set("events", std::move(events));
  out.lines.push_back("events = " + listing);
  out.text("neighbouring", accounting::neighbouring_name(relation));
  out.text(want_epsilon ? "delta" : "epsilon", to_string(target));
  out.interval(quantity, results[best].value, digits);
  out.text(quantity + "_upper", accounting::decimal_upper(results[best].value.upper(), digits));
  out.text("route", results[best].route);
  if (!rdp_detail.empty()) out.text("rdp_detail", rdp_detail);
  if (!pld_detail.empty()) out.text("pld_detail", pld_detail);
  JsonValue routes = JsonValue::object();
  for (const auto& r : results) {
    routes.set(r.route, JsonValue::interval(r.value, digits));
    if (results.size() > 1) {
      out.lines.push_back("  considered " + r.route + ": " +
                          accounting::to_decimal_string(r.value, digits));
    }
  }
  out.json.set("routes", std::move(routes));
  out.flag("tolerance_met", results[best].tolerance_met);
  return out.emit(io, parsed.has("--json"));
}

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
  const accounting::DpSgdCalibration c = accounting::calibrate_dp_sgd(q, steps, epsilon, delta);

  const mpfr_prec_t p = 64 + 4 * static_cast<mpfr_prec_t>(digits) +
                        static_cast<mpfr_prec_t>(mpz_sizeinbase(c.sigma_upper.get_den_mpz_t(), 2)) +
                        static_cast<mpfr_prec_t>(mpz_sizeinbase(c.sigma_lower.get_den_mpz_t(), 2));
  TextJsonReport out;
  out.json.set("command", "calibrate");
  out.text("mechanism", "dp-sgd");
  out.text("q", to_string(q));
  out.json.set("steps", steps);
  out.lines.push_back("steps = " + std::to_string(steps));
  out.text("epsilon", to_string(epsilon));
  out.text("delta", to_string(delta));
  out.text("neighbouring", accounting::neighbouring_name(Neighbouring::kAddRemove));
  out.text("route", "rdp (MTZ19 sampled Gaussian at integer orders and one fractional order, Balle et al. 2020 Thm 21)");
  out.interval("sigma", hull(Interval(c.sigma_lower, p), Interval(c.sigma_upper, p)), digits);
  // sigma.upper rounded UP to 8 significant digits (the bracket is 10^-6 wide): a larger sigma
  // only lowers every order's RDP, so it still meets the target.
  out.text("sigma_to_use",
           accounting::decimal_upper(Interval(c.sigma_upper, p).upper(), digits < 8 ? digits : 8));
  out.interval("epsilon_at_sigma_upper", c.epsilon_at_upper, digits);
  out.interval("epsilon_at_sigma_lower", c.epsilon_at_lower, digits);
  out.json.set("rdp_order", JsonValue::number(accounting::exact_decimal(c.order_at_upper)));
  out.lines.push_back("rdp_order = " + accounting::exact_decimal(c.order_at_upper));
  out.flag("width_met", c.width_met);
  return out.emit(io, parsed.has("--json"));
}

}  // namespace exactdp::cli
