// accountant.cc — accounting::Accountant (accounting/accountant.h) for Python, in the shape of
// dp_accounting: compose(event, count), get_epsilon(delta), get_delta(epsilon).
//
// Events are the registry's (laws::Law::privacy_event): the law's name and its parameters as
// exact text (the Python layer converts int / Fraction / Decimal / str), parsed by the law,
// naming the parameter in errors.
// Answers are returned as dicts whose interval ends are EXACT: the MPFR ends of the certified
// interval (lower rounded down, upper rounded up by the accounting code) converted with
// mpfr_get_q, which is exact for every finite MPFR number (a dyadic rational), and written
// "p/q"; an infinite end is "inf" / "-inf". Nothing is rounded on the way to Python.
// The GIL is held throughout (an Accountant is not thread-safe for compose; accounting/accountant.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>
#include <mpfr.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/accounting/accountant.h>
#include <exactdp/core/decimal.h>
#include <exactdp/laws/registry.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/tolerance.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using accounting::Accountant;
using accounting::AccountantAnswer;
using exactdp::Interval;
using accounting::PrivacyEvent;

// Binary exponents past this (|x| beyond about 10^+-100000) are sent as outward-rounded
// decimal text instead: their exact dyadic would be a number of millions of digits, and the
// Python side widens such ends outward anyway (exactdp/interval.py, EXPONENT_LIMIT).
constexpr mpfr_exp_t kMaxExactExponent = 332'000;

std::string exact_text(mpfr_srcptr x, bool upper) {
  if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? "inf" : "-inf";
  if (!mpfr_zero_p(x) && (mpfr_get_exp(x) > kMaxExactExponent || mpfr_get_exp(x) < -kMaxExactExponent)) {
    return upper ? exactdp::decimal_upper(x, 20) : exactdp::decimal_lower(x, 20);
  }
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), x);  // exact: a finite MPFR number is a dyadic rational
  return to_string(q);
}

py::dict interval_dict(const Interval& x) {
  py::dict d;
  d["lower"] = exact_text(x.lower(), false);
  d["upper"] = exact_text(x.upper(), true);
  return d;
}

py::dict answer_dict(const AccountantAnswer& a) {
  py::dict d;
  d["value"] = interval_dict(a.value);
  d["route"] = a.route;
  d["tolerance_met"] = a.tolerance_met;
  py::list considered;
  for (const auto& r : a.considered) {
    py::dict c = route_value_dict(r.route, r.value);
    c["exact_route"] = r.exact_route;
    c["tolerance_met"] = r.tolerance_met;
    considered.append(c);
  }
  d["considered"] = considered;
  return d;
}

// The accounting event of a law of the registry (laws/registry.h) at its noise and privacy
// parameters (Law::parse, Use::kPrivacy: ParameterError naming the parameter); a law without an
// accounting event is refused naming it, never treated as another.
PrivacyEvent make_event(const std::string& law_name, const std::vector<std::pair<std::string, std::string>>& given) {
  const laws::Law& law = laws::law_named(law_name);
  if (!law.supports(laws::Capability::kEvent)) {
    throw laws::UnsupportedError("law", "law = " + law_name + " has no accounting event: allowed " +
                                            laws::law_names_with(laws::Capability::kEvent));
  }
  return law.privacy_event(law.parse(given, laws::Use::kPrivacy));
}

// The tolerance's range and cost limit are compose_events' (the same routes run on the same
// events): below 2^-700 a LimitError naming tolerance (10^-300 took 12 s for ten Gaussians).
Accountant make_accountant(const std::string& tolerance) {
  std::optional<mpq_class> given;
  if (!tolerance.empty()) given = parse_rational("tolerance", tolerance);
  return Accountant(operations::checked_ziv_options(given, operations::TinyTolerance::kBelowMinimum,
                                                    operations::kMaxEventToleranceBits));
}

}  // namespace

py::dict interval_to_dict(const exactdp::Interval& x) { return interval_dict(x); }

py::dict route_value_dict(const std::string& route, const exactdp::Interval& value) {
  py::dict d;
  d["route"] = route;
  d["value"] = interval_dict(value);
  return d;
}

void register_accountant(py::module_& m) {
  py::class_<PrivacyEvent>(m, "_PrivacyEvent")
      .def(py::init(&make_event), py::arg("law"), py::arg("parameters"))
      .def("describe", &PrivacyEvent::describe)
      .def("rho", [](const PrivacyEvent& e) { return to_string(e.rho()); });
  py::class_<Accountant>(m, "_Accountant")
      .def(py::init(&make_accountant), py::arg("tolerance") = "")
      .def(
          "compose",
          [](Accountant& a, const PrivacyEvent& e, unsigned long count) { a.compose(e, count); },
          py::arg("event"), py::arg("count") = 1)
      .def("get_epsilon",
           [](const Accountant& a, const std::string& delta) {
             const mpq_class d = parse_rational("delta", delta);
             return answer_dict(a.get_epsilon(d));
           })
      .def("get_delta",
           [](const Accountant& a, const std::string& epsilon) {
             const mpq_class e = parse_rational("epsilon", epsilon);
             return answer_dict(a.get_delta(e));
           })
      .def("event_count", [](const Accountant& a) { return a.events().size(); });
}

}  // namespace exactdp::python
