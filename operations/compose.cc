#include <exactdp/operations/compose.h>

#include <algorithm>
#include <utility>

#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/tolerance.h>

namespace exactdp::operations {
namespace {

const std::vector<std::string> kMethods = {"basic", "advanced", "optimal", "gdp", "zcdp"};

ComposedEpsilon run_method(const std::string& method, const mpq_class& eps, unsigned long k,
                           const mpq_class& delta, const accounting::ZivOptions& options) {
  if (method == "basic") {
    const mpq_class e = accounting::basic_composition_epsilon(eps, k);
    return {method, Interval(e, 128), true, "k epsilon, exact; holds with delta = 0"};
  }
  if (method == "advanced") {
    return {method, accounting::advanced_composition_epsilon(eps, k, delta, 128), true,
            "Dwork-Rothblum-Vadhan 2010 Thm III.3 (delta' = delta)"};
  }
  if (method == "optimal") {
    accounting::Certified c = accounting::kov_epsilon(eps, k, delta, options);
    return {method, std::move(c.value), c.tolerance_met,
            "Kairouz-Oh-Viswanath 2015 optimal composition, exact (certified interval)"};
  }
  if (method == "gdp") {
    accounting::ComposedGdp c = accounting::gdp_epsilon_of_composed_pure_dp(eps, k, delta, options);
    return {method, std::move(c.epsilon.value), c.epsilon.tolerance_met,
            "mu = 2 Phi^-1(e^eps/(1+e^eps)) per mechanism, composed as mu sqrt(k) = " +
                decimal_upper(c.mu.upper(), 12) + " (upper)"};
  }
  const mpq_class rho = accounting::zcdp_rho_pure_dp(eps) * mpq_class(mpz_class(k));
  const auto c = accounting::zcdp_epsilon(rho, delta, options);
  return {method, c.bound.value, c.bound.tolerance_met,
          "rho = k eps^2 / 2 = " + abbreviate(to_string(rho)) + ", CKS20 Corollary 13"};
}

// The zCDP route composes rho = k eps^2 / 2, which zcdp_epsilon accepts up to 10^9; a larger one
// is refused naming epsilon (the accounting error would name rho, which the caller never gave).
void check_zcdp_range(const ComposePureDpRequest& request, unsigned long k) {
  const mpq_class rho = accounting::zcdp_rho_pure_dp(request.epsilon) * mpq_class(mpz_class(k));
  if (rho > mpq_class(1'000'000'000)) {
    throw ParameterError::out_of_range(
        "epsilon", abbreviate(to_string(request.epsilon)),
        "k * epsilon^2 / 2 <= 10^9 for " + request.spelling.name("method") + " zcdp (here k = " +
            std::to_string(k) + ", so rho = " + abbreviate(to_string(rho)) + "); other methods accept it");
  }
}

}  // namespace

std::vector<std::string> compose_methods(const std::string& method) {
  if (method == "all") return kMethods;
  if (std::find(kMethods.begin(), kMethods.end(), method) == kMethods.end()) {
    throw ParameterError("method", "unknown method '" + abbreviate(method) +
                                       "': use basic, advanced, optimal, gdp, zcdp or all");
  }
  return {method};
}

ComposePureDpReport compose_pure_dp(const ComposePureDpRequest& request) {
  if (request.k < 1 || request.k > accounting::kMaxCompositions) {
    throw ParameterError::out_of_range("k", std::to_string(request.k), "1 <= k <= 10^6");
  }
  const auto k = static_cast<unsigned long>(request.k);
  accounting::validate_pure_dp_composition(request.epsilon, k);
  accounting::validate_delta(request.delta);
  // The gdp method (alone or in all) converts an enclosed mu: the costliest (tolerance.h).
  const bool costly = request.method == "gdp" || request.method == "all";
  const accounting::ZivOptions options = checked_ziv_options(
      request.tolerance, TinyTolerance::kBelowMinimum, costly ? kMaxAllMethodsToleranceBits : kMaxToleranceBits);
  const std::vector<std::string> methods = compose_methods(request.method);
  if (std::find(methods.begin(), methods.end(), "zcdp") != methods.end()) check_zcdp_range(request, k);

  ComposePureDpReport report{request.epsilon, k, request.delta, {}};
  for (const auto& m : methods) {
    report.results.push_back(run_method(m, request.epsilon, k, request.delta, options));
  }
  return report;
}

}  // namespace exactdp::operations
