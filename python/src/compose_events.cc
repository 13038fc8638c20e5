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
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/accounting/composition_limits.h>
#include <exactdp/accounting/event_composition.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/event_text.h>

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
  r.want_epsilon = want_epsilon;
  r.target = parse_rational(want_epsilon ? "delta" : "epsilon", target);
  r.relation = accounting::parse_neighbouring(neighbouring);
  r.route = accounting::composition_route(route);
  if (!pld_step.empty()) r.pld_step = parse_rational("pld_step", pld_step);
  r.options = ziv_options(tolerance);
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

}  // namespace

void register_compose_events(py::module_& m) {
  m.def("_compose_events", &compose_events, py::arg("events"), py::arg("want_epsilon"), py::arg("target"),
        py::arg("route"), py::arg("neighbouring"), py::arg("pld_step"), py::arg("tolerance"), py::arg("digits"));
}

}  // namespace exactdp::python
