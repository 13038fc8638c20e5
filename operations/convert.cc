#include <exactdp/operations/convert.h>

#include <utility>
#include <vector>

#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/law_queries.h>
#include <exactdp/operations/tolerance.h>

namespace exactdp::operations {
namespace {

// "convert SOURCE needs exactly one of A (-> what A gives) or B (-> what B gives)", naming A.
void require_one_of(const ConvertRequest& r, const char* a, const char* a_gives, bool has_a, const char* b,
                    const char* b_gives, bool has_b) {
  if (has_a != has_b) return;
  throw ParameterError(a, "convert " + r.source + " needs exactly one of " + r.spelling.name(a) + " (-> " + a_gives +
                              ") or " + r.spelling.name(b) + " (-> " + b_gives + ")");
}

ConvertReport convert_zcdp(const ConvertRequest& r, const accounting::ZivOptions& o) {
  const mpq_class& rho = required(r.rho, "rho", r.spelling);
  accounting::validate_rho(rho);
  if (r.mu) throw ParameterError("mu", "convert zcdp takes " + r.spelling.name("rho") + ", not " + r.spelling.name("mu"));
  require_one_of(r, "delta", "epsilon", r.delta.has_value(), "epsilon", "delta", r.epsilon.has_value());
  const bool to_epsilon = r.delta.has_value();
  accounting::ZcdpConversion c =
      to_epsilon ? accounting::zcdp_epsilon(rho, *r.delta, o) : accounting::zcdp_delta(rho, *r.epsilon, o);
  ConvertReport report{r.source, to_epsilon ? "epsilon" : "delta", std::move(c.bound), c.alpha, {}, {}, {}};
  report.route = "CKS20 Corollary 13 at alpha = " + decimal_upper(Interval(c.alpha, 64).upper(), 12) +
                 " (any alpha > 1 is valid)";
  return report;
}

ConvertReport convert_gdp(const ConvertRequest& r, const accounting::ZivOptions& o) {
  if (r.rho) {
    throw ParameterError("rho", "convert gdp takes " + r.spelling.name("mu") + " or " + r.spelling.name("epsilon") +
                                    ", not " + r.spelling.name("rho"));
  }
  const mpq_class& delta = required(r.delta, "delta", r.spelling);
  require_one_of(r, "mu", "epsilon", r.mu.has_value(), "epsilon", "mu", r.epsilon.has_value());
  if (r.mu) {
    return {r.source, "epsilon", accounting::gdp_epsilon(*r.mu, delta, o), {}, {},
            "mu-GDP profile (Dong-Roth-Su Cor. 2.13), certified bisection", {}};
  }
  return {r.source, "mu", accounting::gdp_mu_for(*r.epsilon, delta, o), {}, {}, {},
          "mu-GDP with mu <= mu_lower implies (epsilon, delta)-DP (proven); mu_upper does not"};
}

ConvertReport convert_pure_dp(const ConvertRequest& r, const accounting::ZivOptions& o) {
  for (const auto& [value, name] : {std::pair{&r.rho, "rho"}, {&r.mu, "mu"}, {&r.delta, "delta"}}) {
    if (*value) throw ParameterError(name, "convert pure-dp takes only " + r.spelling.name("epsilon"));
  }
  const mpq_class& eps = required(r.epsilon, "epsilon", r.spelling);
  accounting::Certified c = accounting::gdp_mu_of_pure_dp(eps, o);
  return {r.source, "mu", std::move(c), {}, accounting::zcdp_rho_pure_dp(eps),
          "mu = 2 Phi^-1(e^eps/(1+e^eps)) (Dong-Roth-Su; gdp_bridge Thm 5.1)", {}};
}

// The sources: each a privacy definition of one parameter, named as the registry names its law
// (operations/law_queries.h: rho -> zcdp, mu -> gdp, epsilon -> pure-dp).
struct Conversion {
  const char* parameter;
  ConvertReport (*run)(const ConvertRequest&, const accounting::ZivOptions&);
};
constexpr Conversion kConversions[] = {{"rho", convert_zcdp}, {"mu", convert_gdp}, {"epsilon", convert_pure_dp}};

}  // namespace

ConvertReport convert(const ConvertRequest& request) {
  const accounting::ZivOptions options = checked_ziv_options(request.tolerance);
  std::vector<std::string> sources;
  for (const Conversion& c : kConversions) {
    const laws::Law* law = definition_law(c.parameter);
    if (law == nullptr) continue;
    if (law->name() == request.source) return c.run(request, options);
    sources.push_back(law->name());
  }
  std::string use;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    use += (i == 0 ? "" : (i + 1 == sources.size() ? " or " : ", ")) + sources[i];
  }
  throw ParameterError("source", "unknown source '" + abbreviate(request.source) + "' for convert: use " + use +
                                     request.spelling.see_help);
}

}  // namespace exactdp::operations
