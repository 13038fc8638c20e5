// compose.cc — k-fold composition of pure epsilon-DP mechanisms for exactdp.compose, from the
// accounting library (accounting/pure_dp_composition.h, gdp_conversions.h, zcdp.h):
//   basic     k epsilon (exact)                           basic_composition_epsilon
//   advanced  Dwork-Rothblum-Vadhan Thm III.3             advanced_composition_epsilon
//   optimal   Kairouz-Oh-Viswanath, exact (certified)     kov_epsilon
//   gdp       mu = 2 Phi^-1(e^eps/(1+e^eps)), mu sqrt(k)  gdp_epsilon_of_composed_pure_dp
//   zcdp      rho = k eps^2 / 2, CKS20 Corollary 13       zcdp_epsilon
// _compose_pure_dp(epsilon, k, delta, method, tolerance) -> {"epsilon": interval dict,
// "tolerance_met", "route": one line}. ParameterError naming epsilon, k, delta, method or
// tolerance; the zcdp method refuses k eps^2 / 2 > 10^9 naming epsilon. GIL released while
// computing.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <string>
#include <utility>

#include "bindings.h"
#include <exactdp/core/decimal.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using accounting::Certified;
using exactdp::Interval;

struct MethodResult {
  Interval epsilon;
  bool tolerance_met;
  std::string route;
};

MethodResult zcdp_method(const mpq_class& eps, unsigned long k, const mpq_class& delta,
                         const accounting::ZivOptions& o) {
  const mpq_class rho = accounting::zcdp_rho_pure_dp(eps) * mpq_class(mpz_class(k));
  const auto c = accounting::zcdp_epsilon(rho, delta, o);
  return {c.bound.value, c.bound.tolerance_met, "rho = k eps^2 / 2 = " + rho.get_str() + ", CKS20 Corollary 13"};
}

MethodResult run_method(const std::string& method, const mpq_class& eps, unsigned long k, const mpq_class& delta,
                        const accounting::ZivOptions& o) {
  if (method == "basic") {
    return {Interval(accounting::basic_composition_epsilon(eps, k), 128), true, "k epsilon, exact; holds with delta = 0"};
  }
  if (method == "advanced") {
    return {accounting::advanced_composition_epsilon(eps, k, delta, 128), true,
            "Dwork-Rothblum-Vadhan 2010 Thm III.3 (delta' = delta)"};
  }
  if (method == "optimal") {
    Certified c = accounting::kov_epsilon(eps, k, delta, o);
    return {std::move(c.value), c.tolerance_met, "Kairouz-Oh-Viswanath 2015 optimal composition, exact (certified interval)"};
  }
  if (method == "gdp") {
    accounting::ComposedGdp c = accounting::gdp_epsilon_of_composed_pure_dp(eps, k, delta, o);
    return {std::move(c.epsilon.value), c.epsilon.tolerance_met,
            "mu = 2 Phi^-1(e^eps/(1+e^eps)) per mechanism, composed as mu sqrt(k) = " +
                exactdp::decimal_upper(c.mu.upper(), 12) + " (upper)"};
  }
  return zcdp_method(eps, k, delta, o);
}

py::dict compose_pure_dp(const std::string& epsilon_text, unsigned long long k_value, const std::string& delta_text,
                         const std::string& method, const std::string& tolerance) {
  if (method != "basic" && method != "advanced" && method != "optimal" && method != "gdp" && method != "zcdp") {
    throw ParameterError::out_of_range("method", method, "basic, advanced, optimal, gdp or zcdp");
  }
  const mpq_class eps = parse_rational("epsilon", epsilon_text);
  const mpq_class delta = parse_rational("delta", delta_text);
  if (k_value < 1 || k_value > accounting::kMaxCompositions) {
    throw ParameterError::out_of_range("k", std::to_string(k_value), "1 <= k <= 10^6");
  }
  const auto k = static_cast<unsigned long>(k_value);
  accounting::validate_pure_dp_composition(eps, k);
  accounting::validate_delta(delta);
  const accounting::ZivOptions o = ziv_options(tolerance);
  if (method == "zcdp" && accounting::zcdp_rho_pure_dp(eps) * mpq_class(mpz_class(k)) > mpq_class(1'000'000'000)) {
    throw ParameterError::out_of_range("epsilon", epsilon_text, "k * epsilon^2 / 2 <= 10^9 for method zcdp");
  }
  const MethodResult r = [&] {
    const py::gil_scoped_release release;
    return run_method(method, eps, k, delta, o);
  }();
  py::dict d;
  d["epsilon"] = interval_to_dict(r.epsilon);
  d["tolerance_met"] = r.tolerance_met;
  d["route"] = r.route;
  return d;
}

}  // namespace

void register_compose(py::module_& m) {
  m.def("_compose_pure_dp", &compose_pure_dp, py::arg("epsilon"), py::arg("k"), py::arg("delta"), py::arg("method"),
        py::arg("tolerance"));
}

}  // namespace exactdp::python
