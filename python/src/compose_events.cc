// compose_events.cc — adaptive composition of privacy events for exactdp.compose_events, from
// the library: each event's text parsed through the law registry (laws/event_text.h), the
// composition by every route that applies (accounting/event_composition.h, compose_events) —
// the same functions `exactdp compose --event` calls.
//
// _compose_events(events, want_epsilon, target, route, neighbouring, pld_step, tolerance,
// digits): events are (EVENT text, count text) pairs; target the delta (want_epsilon) or
// epsilon as exact text; pld_step "" for the default grid; tolerance "" for 2^-100. Returns
// {"events": [{"event", "count"}], "neighbouring", "routes": [{"route", "value": interval dict,
// "tolerance_met"}], "best": index of the answer, "upper_text": the answer's upper end rounded
// up to `digits` significant digits, "rdp_detail", "pld_detail", "smoothed_pld_detail", "exact_detail"}.
// ParameterError / LimitError
// naming the parameter for bad input. GIL released while composing.
//
// _rdp_at_orders(events, want_epsilon, target, neighbouring, orders, tolerance): the rdp route at
// the given Renyi orders (exact texts, each 1 < alpha <= 2^16; at most kMaxGivenOrders), as
// dp_accounting's RdpAccountant(orders) takes them: the minimum over the orders every event takes
// of the conversion of the composed RDP (accounting/rdp_accountant.h: composed_rdp,
// rdp_to_epsilon / rdp_to_delta, each a theorem at its order): every order is evaluated at 64
// bits, and the two of the smallest upper ends are certified to the tolerance by the Ziv loop
// (the answer is the minimum over those two; selecting needs no certificate). The orders' sum
// times the distinct events is at most kMaxOrderWork (LimitError naming orders).
// Returns {"value": interval dict, "tolerance_met", "order": the order of the smallest upper end
// (exact text), "orders_used": how many orders every event takes, "neighbouring"}. ParameterError naming
// "route" for an event without RDP, "orders" when no given order is taken by every event.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/accounting/composition_limits.h>
#include <exactdp/accounting/event_composition.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/event_text.h>
#include <exactdp/operations/tolerance.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using EventTexts = std::vector<std::pair<std::string, std::string>>;

accounting::EventCompositionRequest composition_request(const EventTexts& events, bool want_epsilon,
                                                        const std::string& target, const std::string& route,
                                                        const std::string& neighbouring, const std::string& pld_step,
                                                        const std::string& tolerance) {
  accounting::check_event_option_count(events.size());  // before parsing (composition_limits.h)
  accounting::EventCompositionRequest r;
  for (const auto& [event, count] : events) {
    r.events.emplace_back(laws::parse_event_text(event), laws::parse_event_count(count));
  }
  // The command line's order (cli/cmd_compose_events.cc): target, neighbouring, route, tolerance
  // (its checker, operations::checked_ziv_options, with the same bounds), pld_step.
  r.want_epsilon = want_epsilon;
  r.target = parse_rational(want_epsilon ? "delta" : "epsilon", target);
  accounting::validate_composition_target(r.want_epsilon, r.target);
  r.relation = accounting::parse_neighbouring(neighbouring);
  r.route = accounting::composition_route(route);
  std::optional<mpq_class> given_tolerance;
  if (!tolerance.empty()) given_tolerance = parse_rational("tolerance", tolerance);
  r.options = operations::checked_ziv_options(given_tolerance, operations::TinyTolerance::kBelowMinimum,
                                              operations::kMaxEventToleranceBits);
  if (!pld_step.empty()) r.pld_step = parse_rational("pld_step", pld_step);
  return r;
}

py::dict compose_events(const EventTexts& events, bool want_epsilon, const std::string& target,
                        const std::string& route, const std::string& neighbouring, const std::string& pld_step,
                        const std::string& tolerance, int digits) {
  if (digits < 1 || digits > 10'000) {
    throw ParameterError::out_of_range("digits", std::to_string(digits), "1 <= digits <= 10000");
  }
  const accounting::EventCompositionRequest r =
      composition_request(events, want_epsilon, target, route, neighbouring, pld_step, tolerance);
  accounting::EventCompositionResult result;
  {
    const py::gil_scoped_release release;
    result = accounting::compose_events(r);
  }
  py::list event_list;
  for (const auto& [e, n] : r.events) {
    py::dict one;
    one["event"] = e.describe();
    one["count"] = n;
    event_list.append(one);
  }
  py::list routes;
  for (const auto& res : result.routes) {
    py::dict one = route_value_dict(res.route, res.value);
    one["tolerance_met"] = res.tolerance_met;
    routes.append(one);
  }
  py::dict d;
  d["events"] = event_list;
  d["neighbouring"] = accounting::neighbouring_name(r.relation);
  d["routes"] = routes;
  d["best"] = result.best;
  d["upper_text"] = exactdp::decimal_upper(result.answer().value.upper(), digits);
  d["rdp_detail"] = result.rdp_detail;
  d["pld_detail"] = result.pld_detail;
  d["smoothed_pld_detail"] = result.smoothed_pld_detail;
  d["exact_detail"] = result.exact_detail;
  return d;
}

constexpr std::size_t kMaxGivenOrders = 256;        // dp_accounting's default list has 73, Opacus' 151
// The sum of the orders times the distinct events: an order's cost grows with it (poisson-laplace
// at order 256: ~0.25 s; the orders 192..256 of one such event take ~5 s).
constexpr unsigned long kMaxOrderWork = 16384;

// The given orders each events' RDP takes: ParameterError naming "orders" for one out of range or
// when none is left, "route" for an event without RDP.
std::vector<mpq_class> usable_orders(const accounting::RdpComposition& events, const std::vector<std::string>& texts) {
  if (texts.empty() || texts.size() > kMaxGivenOrders) {
    throw ParameterError::out_of_range("orders", std::to_string(texts.size()) + " orders",
                                       "1 to " + std::to_string(kMaxGivenOrders) + " orders");
  }
  for (const auto& [event, count] : events) {
    if (!event.has_rdp()) throw ParameterError("route", "route rdp: " + event.describe() + " has no RDP bound");
  }
  std::vector<mpq_class> out;
  for (const std::string& text : texts) {
    const mpq_class alpha = parse_rational("orders", text);
    if (alpha <= 1 || alpha > mpq_class(accounting::kMaxRdpOrder)) {
      throw ParameterError::out_of_range("orders", text.substr(0, 40), "1 < alpha <= 65536");
    }
    bool taken = true;
    for (const auto& [event, count] : events) taken = taken && event.supports_order(alpha);
    if (taken) out.push_back(alpha);
  }
  if (out.empty()) throw ParameterError("orders", "orders: no given order is taken by every event (rdp.h)");
  return out;
}

// The conversion of the composed RDP at order alpha, at precision p.
Interval converted_at(const accounting::EventCompositionRequest& r, const mpq_class& alpha, mpfr_prec_t p) {
  const Interval tau = accounting::composed_rdp(r.events, alpha, r.relation, p);
  return r.want_epsilon ? accounting::rdp_to_epsilon(tau, alpha, r.target) : accounting::rdp_to_delta(tau, alpha, r.target);
}

// The two orders of the smallest upper ends at 64 bits (a selection needs no certificate: every
// order gives a theorem), as rdp_order_search.h selects before certifying.
std::vector<mpq_class> best_two(const accounting::EventCompositionRequest& r, const std::vector<mpq_class>& orders) {
  std::vector<std::pair<Interval, mpq_class>> scored;
  for (const mpq_class& alpha : orders) scored.emplace_back(converted_at(r, alpha, 64), alpha);
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return mpfr_less_p(a.first.upper(), b.first.upper()) != 0; });
  std::vector<mpq_class> out{scored[0].second};
  if (scored.size() > 1) out.push_back(scored[1].second);
  return out;
}

py::dict rdp_at_orders(const EventTexts& events, bool want_epsilon, const std::string& target,
                       const std::string& neighbouring, const std::vector<std::string>& order_texts,
                       const std::string& tolerance) {
  const accounting::EventCompositionRequest r =
      composition_request(events, want_epsilon, target, "rdp", neighbouring, "", tolerance);
  want_epsilon ? accounting::require_open_unit("delta", r.target)
               : accounting::require_nonnegative_at_most("epsilon", r.target, mpq_class(1'000'000'000), "10^9");
  if (r.events.empty()) throw ParameterError("event", "event: give at least one event to compose");
  accounting::check_compose_event_limits(r.events);  // the limits of compose_events' routes
  accounting::check_event_tolerance(r.options);
  mpz_class total = 0;
  for (const auto& [event, count] : r.events) {
    if (event.is_subsampled() && r.relation != accounting::Neighbouring::kAddRemove) {
      throw ParameterError("route", "route: rdp does not apply to Poisson-subsampled events under replace-one");
    }
    total += mpz_class(count);
  }
  if (total > mpz_class("1000000000000")) {
    throw ParameterError::out_of_range("count", to_string(mpq_class(total)), "a total count <= 10^12");
  }
  const std::vector<mpq_class> usable = usable_orders(r.events, order_texts);
  mpq_class sum = 0;
  for (const mpq_class& alpha : usable) sum += alpha;
  if (sum * static_cast<unsigned long>(r.events.size()) > kMaxOrderWork) {
    throw LimitError("orders", "orders: the orders sum to " + to_string(sum) + " over " +
                                   std::to_string(r.events.size()) + " distinct event(s): allowed a sum times the " +
                                   "events of at most " + std::to_string(kMaxOrderWork) +
                                   " (the cost of an order grows with it)");
  }
  mpq_class best;
  accounting::Certified answer;
  {
    const py::gil_scoped_release release;
    const std::vector<mpq_class> orders = best_two(r, usable);
    answer = accounting::evaluate_to_tolerance(
        [&](mpfr_prec_t p) {
          Interval result(p);
          for (std::size_t i = 0; i < orders.size(); ++i) {
            const Interval value = converted_at(r, orders[i], p);
            if (i == 0 || mpfr_less_p(value.upper(), result.upper())) best = orders[i];
            result = i == 0 ? value : min(result, value);
          }
          return result;
        },
        r.options);
  }
  py::dict d = route_value_dict("rdp", answer.value);
  d["tolerance_met"] = answer.tolerance_met;
  d["order"] = to_string(best);
  d["orders_used"] = usable.size();
  d["neighbouring"] = accounting::neighbouring_name(r.relation);
  return d;
}

}  // namespace

void register_compose_events(py::module_& m) {
  m.def("_compose_events", &compose_events, py::arg("events"), py::arg("want_epsilon"), py::arg("target"),
        py::arg("route"), py::arg("neighbouring"), py::arg("pld_step"), py::arg("tolerance"), py::arg("digits"));
  m.def("_rdp_at_orders", &rdp_at_orders, py::arg("events"), py::arg("want_epsilon"), py::arg("target"),
        py::arg("neighbouring"), py::arg("orders"), py::arg("tolerance"));
}

}  // namespace exactdp::python
