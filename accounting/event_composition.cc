#include <exactdp/accounting/event_composition.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/composition_limits.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pld/pld_few_steps.h>
#include <exactdp/accounting/pld/pld_replace_pair.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/smoothed_pld.h>
#include <exactdp/accounting/discrete_laplace_exact.h>
#include <exactdp/accounting/subsampled_discrete_gaussian_exact.h>
#include <exactdp/accounting/subsampled_gaussian_exact.h>
#include <exactdp/accounting/subsampled_gaussian_replace_exact.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

// What the events allow, found once.
struct Applicability {
  bool subsampled = false;
  bool rdp_applies = true;
};

std::string base_name(const std::string& label) { return label.substr(0, label.find(' ')); }

unsigned long pld_steps(const EventCompositionRequest& r) {
  if (!r.pld_step) return pld::default_steps_per_unit(r.events);
  const mpq_class& step = *r.pld_step;
  if (sgn(step) <= 0 || step.get_num() != 1 || step.get_den() > 10'000'000) {
    throw ParameterError::out_of_range("pld-step", abbreviate(to_string(step)),
                                       "1/N for an integer N with 1 <= N <= 10^7");
  }
  return mpz_get_ui(step.get_den_mpz_t());
}

// Subsampled events: only rdp and pld; under replace-one only pld (a mixture against a mixture
// has no RDP analysis here; the pld route's group bound applies).
Applicability check_routes(const EventCompositionRequest& r) {
  Applicability a;
  for (const auto& [e, n] : r.events) {
    a.subsampled = a.subsampled || e.is_subsampled();
    a.rdp_applies = a.rdp_applies && e.has_rdp();
  }
  if (a.subsampled && r.relation == Neighbouring::kReplaceOne) {
    if (r.route == "rdp") {
      throw ParameterError("route", "route: rdp does not apply to Poisson-subsampled events under replace-one; use pld "
                                    "or auto");
    }
    a.rdp_applies = false;
  }
  if (r.events.empty()) throw ParameterError("event", "event: give at least one event to compose");
  check_compose_event_limits(r.events);  // cost limits before any route (composition_limits.h)
  check_event_tolerance(r.options);
  if (a.subsampled && r.route != "auto" && r.route != "rdp" && r.route != "pld" && r.route != "smoothed-pld" &&
      r.route != "exact") {
    throw ParameterError("route", "--route " + r.route +
                                      " does not apply to subsampled events: use rdp, pld, smoothed-pld, exact or auto");
  }
  return a;
}

void add_rdp_route(const EventCompositionRequest& r, const Applicability& a, EventCompositionResult& out) {
  if (!(r.route == "rdp" || (r.route == "auto" && a.rdp_applies))) return;
  const RdpAnswer ans = r.want_epsilon ? rdp_epsilon(r.events, r.target, r.relation, r.options)
                                       : rdp_delta(r.events, r.target, r.relation, r.options);
  out.routes.push_back({ans.exact_rdp ? "rdp (exact RDP)" : "rdp", ans.value.value, ans.value.tolerance_met});
  out.rdp_detail = "order " + exact_decimal(ans.order) + ", composed RDP " + to_decimal_string(ans.rdp_at_order, 12) +
                   (r.want_epsilon ? " (Balle et al. 2020 Thm 21)" : " (CKS20 Prop. 12)");
}

// The accountant's routes (gdp, kov, basic, zcdp) for plain events (never with subsampled ones).
void add_accountant_routes(const EventCompositionRequest& r, const Applicability& a, EventCompositionResult& out) {
  if (a.subsampled || r.route == "rdp" || r.route == "pld" || r.route == "smoothed-pld" || r.route == "exact") return;
  Accountant acc(r.options);
  for (const auto& [e, n] : r.events) acc.compose(e.plain_event(), n);
  const AccountantAnswer ans = r.want_epsilon ? acc.get_epsilon(r.target) : acc.get_delta(r.target);
  for (const auto& c : ans.considered) {
    if (r.route == "auto" || base_name(c.route) == r.route) {
      out.routes.push_back({c.route, c.value, c.tolerance_met});
    }
  }
}

// The pld options of a run: the grid (pld_steps), and the caps of a run not asked for.
pld::PldOptions pld_run_options(const EventCompositionRequest& r, bool optional) {
  pld::PldOptions o;
  o.discretization.steps_per_unit = pld_steps(r);
  if (optional) {  // not asked for: refuse what would take long (reported, not fatal)
    o.discretization.max_grid_points = 300'000;
    o.max_composed_points = std::size_t{1} << 21;
  }
  return o;
}

unsigned long capped_total(const RdpComposition& events) {
  unsigned long total = 0;
  for (const auto& [e, n] : events) total += std::min(n, 1'000'000'000UL);
  return total;
}

// Whether the composition is exactly one Poisson-subsampled Gaussian step under add/remove.
bool single_subsampled_gaussian(const EventCompositionRequest& r) {
  if (r.events.size() != 1 || r.events[0].second != 1 || r.relation != Neighbouring::kAddRemove) return false;
  const RdpEvent& e = r.events[0].first;
  return e.subsampled_gaussian() != nullptr;
}

// Whether the composition is exactly one Poisson-subsampled Gaussian step under replace-one (its
// +Delta/-Delta pair is proven to be the worst case: subsampled_gaussian_replace_exact.h).
bool single_subsampled_gaussian_replace(const EventCompositionRequest& r) {
  if (r.events.size() != 1 || r.events[0].second != 1 || r.relation != Neighbouring::kReplaceOne) return false;
  const RdpEvent& e = r.events[0].first;
  return e.subsampled_gaussian() != nullptr;
}

// Whether the composition is exactly one Poisson-subsampled discrete Gaussian step under add/remove.
bool single_subsampled_discrete_gaussian(const EventCompositionRequest& r) {
  if (r.events.size() != 1 || r.events[0].second != 1 || r.relation != Neighbouring::kAddRemove) return false;
  const RdpEvent& e = r.events[0].first;
  return e.is_subsampled() && e.base_maps() && e.base_maps()->discrete_gaussian_noise();
}

// The composition as k identical discrete Laplace steps (discrete_laplace_exact.h), when it is one:
// one event, plain (any relation) or Poisson-subsampled (add/remove), within the term limit.
std::optional<DiscreteLaplaceSteps> discrete_laplace_steps(const EventCompositionRequest& r) {
  if (r.events.size() != 1) return std::nullopt;
  const auto& [e, n] = r.events[0];
  if (e.is_subsampled() && r.relation != Neighbouring::kAddRemove) return std::nullopt;
  const std::optional<DiscreteLaplaceNoise> noise = e.base_maps() ? e.base_maps()->discrete_laplace_noise() : std::nullopt;
  if (!noise) return std::nullopt;
  DiscreteLaplaceSteps s{noise->scale, noise->sensitivity, e.is_subsampled() ? e.subsampled_q() : 1,
                         static_cast<std::uint64_t>(n)};
  if (!discrete_laplace_exact_applies(s)) return std::nullopt;
  return s;
}

// Whether the few-step wide-mass pld (pld/pld_few_steps.h) answers the exact route: forced, or
// under auto when some event is Poisson-subsampled (plain compositions keep their millisecond
// routes).
bool few_steps_apply(const EventCompositionRequest& r) {
  const bool subsampled = std::any_of(r.events.begin(), r.events.end(), [](const auto& e) { return e.first.is_subsampled(); });
  return (r.route == "exact" || subsampled) && pld::few_steps_applies(r.events, r.relation);
}

// Whether the exact route answers this composition (one of the three closed forms above, or a few steps).
bool exact_applies(const EventCompositionRequest& r) {
  return single_subsampled_gaussian(r) || single_subsampled_gaussian_replace(r) ||
         single_subsampled_discrete_gaussian(r) || discrete_laplace_steps(r) || few_steps_apply(r);
}

// pld: when forced; under auto when neither rdp nor exact applies (errors then propagate), or for
// subsampled compositions (DP-SGD: where it beats rdp) of noise laws it discretises, at most
// 10^6 composed events (it takes 0.1-10 s; a refusal or limit is then reported, not fatal).
// Plain compositions keep the millisecond routes unless pld is asked for: a wide plain loss
// support (e.g. 1000 Laplace steps) makes pld take many seconds.
// How the pld answer's ends were made (pld_accountant.h): under replace-one with subsampled events
// from the +Delta/-Delta pair (its upper chain when that pair is proven to dominate: every event
// a Poisson-subsampled Gaussian, pld_replace_pair.h; else the group bound).
std::string pld_ends(const EventCompositionRequest& r, const Applicability& a) {
  if (!a.subsampled || r.relation != Neighbouring::kReplaceOne) {
    return "connect-the-dots upper chain, cell-index test lower end, ";
  }
  const bool pair = std::all_of(r.events.begin(), r.events.end(),
                                [](const auto& e) { return pld::covers_replace_pair(e.first); });
  return pair ? "connect-the-dots upper chain of the +Delta/-Delta records (a proven dominating pair), cell-index "
                "test of the same pair for the lower end, "
              : "group bound through the data set without the record from both add/remove upper chains, "
                "cell-index test of the +Delta/-Delta records for the lower end, ";
}

void add_pld_route(const EventCompositionRequest& r, const Applicability& a, EventCompositionResult& out) {
  bool pld_covers_all = true;
  for (const auto& [e, n] : r.events) pld_covers_all = pld_covers_all && pld::covers(e, r.relation);
  const bool required = r.route == "pld" || (r.route == "auto" && !a.rdp_applies && !exact_applies(r));
  const bool optional = r.route == "auto" && !required && a.subsampled && pld_covers_all &&
                        capped_total(r.events) <= 1'000'000;
  const bool smoothed = r.route == "smoothed-pld" || (r.route == "auto" && has_smoothed_event(r.events));
  if (r.pld_step && !required && !optional && !smoothed && !few_steps_apply(r)) {
    throw ParameterError("pld-step", "--pld-step applies only where a pld route runs (--route pld or smoothed-pld, "
                                     "--route exact over a few steps, or auto with subsampled or "
                                     "vector-discrete-gaussian events)");
  }
  if (!required && !optional) return;
  const pld::PldOptions pld_options = pld_run_options(r, optional);
  try {
    const pld::PldAnswer ans = r.want_epsilon ? pld::pld_epsilon(r.events, r.target, r.relation, pld_options)
                                              : pld::pld_delta(r.events, r.target, r.relation, pld_options);
    out.routes.push_back({"pld", ans.value, true});
    out.pld_detail = pld_ends(r, a) + ans.grid + ", " + std::to_string(ans.points) + " grid points";
  } catch (const ParameterError& e) {  // LimitError is one too
    if (required) throw;
    out.pld_detail = std::string("not used: ") + e.what();
  }
}

// smoothed-pld (smoothed_pld.h, Theorem 5): when forced (its refusal then propagates); under auto
// for compositions with a vector-discrete-gaussian event that it covers, at most 10^6 events, on
// the capped grid (a refusal or limit is then reported in smoothed_pld_detail, not thrown).
void add_smoothed_pld_route(const EventCompositionRequest& r, EventCompositionResult& out) {
  const bool required = r.route == "smoothed-pld";
  if (!required && !(r.route == "auto" && has_smoothed_event(r.events))) return;
  if (const std::optional<std::string> why = smoothed_pld_refusal(r.events, r.relation)) {
    if (required) throw ParameterError("route", "route: " + *why);
    out.smoothed_pld_detail = "not used: " + *why;
    return;
  }
  if (!required && capped_total(r.events) > 1'000'000) {
    out.smoothed_pld_detail = "not used: more than 10^6 composed events (use --route smoothed-pld)";
    return;
  }
  try {
    const SmoothedPldAnswer ans = r.want_epsilon ? smoothed_pld_epsilon(r.events, r.target, pld_run_options(r, !required))
                                                 : smoothed_pld_delta(r.events, r.target, pld_run_options(r, !required));
    out.routes.push_back({"smoothed-pld", ans.value, true});
    out.smoothed_pld_detail = "Theorem 5 (docs/REAL_VALUED_ACCOUNTING.md): ln R = " +
                              to_decimal_string(ans.log_ratio, 6) + ", continuous Gaussian pld at " +
                              (r.want_epsilon ? "delta " : "epsilon ") + to_decimal_string(Interval(ans.target_used, 64), 12) +
                              " = " + to_decimal_string(ans.gaussian.value, 12) + ", " + ans.gaussian.grid + ", " +
                              std::to_string(ans.gaussian.points) + " grid points; the lower end is the continuous "
                              "Gaussian's, not a bound on this composition";
  } catch (const ParameterError& e) {  // LimitError is one too
    if (required) throw;
    out.smoothed_pld_detail = std::string("not used: ") + e.what();
  }
}

// How the few-step answer's ends were made (pld/pld_few_steps.h): under replace-one with
// subsampled events from the +Delta/-Delta records (a proven dominating pair).
std::string few_steps_ends(const EventCompositionRequest& r) {
  const bool pair = r.relation == Neighbouring::kReplaceOne &&
                    std::any_of(r.events.begin(), r.events.end(), [](const auto& e) { return e.first.is_subsampled(); });
  return pair ? "a few steps: pld with wide masses (connect-the-dots upper chain of the +Delta/-Delta records, a "
                "proven dominating pair; loss-cell lower end of the same records), "
              : "a few steps: pld with wide masses (connect-the-dots upper chain, loss-cell lower end), ";
}

void push_exact(const std::optional<Certified>& c, EventCompositionResult& out) {
  if (c) out.routes.push_back({"exact", c->value, c->tolerance_met});
}

// exact: the closed form of one subsampled Gaussian (add/remove or replace-one) or discrete
// Gaussian step (subsampled_gaussian_exact.h, subsampled_gaussian_replace_exact.h,
// subsampled_discrete_gaussian_exact.h) or of k discrete Laplace steps (discrete_laplace_exact.h);
// under auto whenever it applies, forced
// otherwise (ParameterError naming "route" when it does not).
void add_exact_route(const EventCompositionRequest& r, EventCompositionResult& out) {
  if (r.route != "auto" && r.route != "exact") return;
  if (single_subsampled_gaussian(r)) {
    const RdpEvent& e = r.events[0].first;
    push_exact(r.want_epsilon ? subsampled_gaussian_epsilon(e.subsampled_mu(), e.subsampled_q(), r.target, r.options)
                              : subsampled_gaussian_delta(e.subsampled_mu(), e.subsampled_q(), r.target, r.options),
               out);
    return;
  }
  if (single_subsampled_gaussian_replace(r)) {
    const RdpEvent& e = r.events[0].first;
    const mpq_class &mu = e.subsampled_mu(), &q = e.subsampled_q();
    push_exact(r.want_epsilon ? subsampled_gaussian_replace_epsilon(mu, q, r.target, r.options)
                              : subsampled_gaussian_replace_delta(mu, q, r.target, r.options),
               out);
    return;
  }
  if (single_subsampled_discrete_gaussian(r)) {
    const RdpEvent& e = r.events[0].first;
    const DiscreteGaussianNoise noise = *e.base_maps()->discrete_gaussian_noise();
    const mpq_class& sigma2 = noise.sigma2;
    const mpz_class& delta = noise.sensitivity;
    push_exact(r.want_epsilon ? subsampled_discrete_gaussian_epsilon(sigma2, delta, e.subsampled_q(), r.target, r.options)
                              : subsampled_discrete_gaussian_delta(sigma2, delta, e.subsampled_q(), r.target, r.options),
               out);
    return;
  }
  if (const auto s = discrete_laplace_steps(r)) {
    push_exact(r.want_epsilon ? discrete_laplace_steps_epsilon(*s, r.target, r.options)
                              : discrete_laplace_steps_delta(*s, r.target, r.options),
               out);
    return;
  }
  if (few_steps_apply(r)) {
    pld::FewStepsOptions o;
    if (r.pld_step) o.steps_per_unit = pld_steps(r);
    try {
      const pld::FewStepsAnswer ans = r.want_epsilon ? pld::few_steps_epsilon(r.events, r.target, r.relation, o)
                                                     : pld::few_steps_delta(r.events, r.target, r.relation, o);
      out.routes.push_back({"exact", ans.value, true});
      out.exact_detail = few_steps_ends(r) + ans.grid;
    } catch (const ParameterError& e) {  // LimitError is one too
      // Forced, or nothing else answered (replace-one: no rdp, and pld refused on its capped
      // grid): the refusal is the answer.
      if (r.route == "exact" || out.routes.empty()) throw;
      out.exact_detail = std::string("not used: ") + e.what();
    }
    return;
  }
  if (r.route == "exact") {
    throw ParameterError("route", "route: exact answers one poisson-gaussian event (count 1, add-remove or "
                                  "replace-one), one poisson-discrete-gaussian event (count 1) under add-remove, "
                                  "one discrete-laplace event, plain or poisson (add-remove), with "
                                  "C(count + sensitivity, sensitivity) <= 100000, or at most " +
                                      std::to_string(pld::kFewStepsMaxCount) +
                                      " steps in total of events the pld route discretises (under replace-one: "
                                      "poisson-gaussian events only, or plain events only)");
  }
}

}  // namespace

std::string composition_route(const std::string& route) {
  if (route != "auto" && route != "rdp" && route != "gdp" && route != "kov" && route != "basic" &&
      route != "zcdp" && route != "pld" && route != "smoothed-pld" && route != "exact") {
    throw ParameterError("route", "unknown --route '" + abbreviate(route) +
                                      "': use auto, rdp, pld, smoothed-pld, exact, gdp, kov, basic or zcdp");
  }
  return route;
}

Neighbouring parse_neighbouring(const std::string& name) {
  if (name == "add-remove") return Neighbouring::kAddRemove;
  if (name == "replace-one") return Neighbouring::kReplaceOne;
  throw ParameterError("neighbouring", "unknown --neighbouring '" + abbreviate(name) +
                                           "': use add-remove or replace-one");
}

void validate_composition_target(bool want_epsilon, const mpq_class& target) {
  if (want_epsilon) {
    validate_delta(target);
  } else {
    require_nonnegative_at_most("epsilon", target, mpq_class(1'000'000), "10^6");
  }
}

EventCompositionResult compose_events(const EventCompositionRequest& request) {
  validate_composition_target(request.want_epsilon, request.target);
  (void)composition_route(request.route);
  const Applicability a = check_routes(request);
  EventCompositionResult out;
  add_rdp_route(request, a, out);
  add_accountant_routes(request, a, out);  // only plain events: never together with the pld route
  add_pld_route(request, a, out);
  add_smoothed_pld_route(request, out);
  add_exact_route(request, out);
  if (out.routes.empty()) {
    throw ParameterError("route", "--route " + request.route + " does not apply to these events");
  }
  for (std::size_t i = 1; i < out.routes.size(); ++i) {
    if (mpfr_cmp(out.routes[i].value.upper(), out.routes[out.best].value.upper()) < 0) out.best = i;
  }
  return out;
}

}  // namespace exactdp::accounting
