// compose.h — the operation `compose pure-dp`: the epsilon of k adaptively composed epsilon-DP
// mechanisms at a delta, by one method or all of them (docs/DESIGN.md, "Operations"). The command
// line (cli/cmd_compose.cc) and Python (python/src/compose.cc) build a ComposePureDpRequest and
// print or convert the ComposePureDpReport; every check, limit and citation is here.
//
//   basic     k epsilon (exact)                           basic_composition_epsilon
//   advanced  Dwork-Rothblum-Vadhan Thm III.3             advanced_composition_epsilon
//   optimal   Kairouz-Oh-Viswanath, exact (certified)     kov_epsilon
//   gdp       mu = 2 Phi^-1(e^eps/(1+e^eps)), mu sqrt(k)  gdp_epsilon_of_composed_pure_dp
//   zcdp      rho = k eps^2 / 2, CKS20 Corollary 13       zcdp_epsilon
//
// Example:
//   ComposePureDpRequest r{.epsilon = 1, .k = 10, .delta = mpq_class(1, 100000), .method = "all"};
//   for (const auto& m : compose_pure_dp(r).results) use(m.method, m.epsilon.upper());
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

struct ComposePureDpRequest {
  mpq_class epsilon{};                   // of each mechanism, 0 < epsilon <= 10^6
  unsigned long long k = 0;            // the number of mechanisms, 1 <= k <= 10^6
  mpq_class delta{};                     // 0 < delta < 1
  std::string method = "optimal";      // basic, advanced, optimal, gdp, zcdp or all
  std::optional<mpq_class> tolerance{};  // relative width wanted; none: 2^-100
  Spelling spelling = kCommandLineSpelling;
};

// One method's answer: the composed epsilon (rounded outward; its upper end is the one to use),
// whether the tolerance was met, and the route with its citation.
struct ComposedEpsilon {
  std::string method{};
  Interval epsilon;
  bool tolerance_met = true;
  std::string route{};
};

struct ComposePureDpReport {
  mpq_class epsilon{};
  unsigned long k = 0;
  mpq_class delta{};
  std::vector<ComposedEpsilon> results;  // one per method, in the order basic ... zcdp
};

// The methods `method` names ("all": every one), or ParameterError naming "method".
[[nodiscard]] std::vector<std::string> compose_methods(const std::string& method);

// Checks the request before any work: k (1..10^6), epsilon, delta, the tolerance and its cost
// limit (2^-600 with gdp or all, else 2^-2000), the method, and for the zcdp method
// k epsilon^2 / 2 <= 10^9 (naming epsilon); then computes every method asked for.
[[nodiscard]] ComposePureDpReport compose_pure_dp(const ComposePureDpRequest& request);

}  // namespace exactdp::operations
