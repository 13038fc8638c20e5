// compose.h — the operation `compose pure-dp` through the C++ facade: the epsilon of k adaptively
// composed epsilon-DP mechanisms at a delta, by one method or all of them (basic, advanced,
// optimal, gdp, zcdp). The same operation as `exactdp compose pure-dp` and exactdp.compose: the
// same checks, limits, numbers and citations (docs/DESIGN.md, "Operations"). Installed; part of
// the source-compatibility promise (docs/ABI.md).
//
//   const exactdp::ComposePureDpReport r =
//       exactdp::compose_pure_dp({.epsilon = "1/10", .k = 100, .delta = "1e-5", .method = "all"});
//   for (const auto& m : r.results) use(m.method, m.epsilon.upper());
//
// Errors, before any work: ParameterError naming k (1..10^6), epsilon, delta, method or
// tolerance; LimitError over a cost limit (a tolerance below 2^-2000, 2^-600 with gdp or all;
// SECURITY.md, "Limits").
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp {

struct ComposePureDpRequest {
  std::string epsilon{};                   // of each mechanism, exact text
  unsigned long long k = 0;                // the number of mechanisms
  std::string delta{};                     // exact text, 0 < delta < 1
  std::string method = "optimal";          // basic, advanced, optimal, gdp, zcdp or all
  std::optional<std::string> tolerance{};  // relative width wanted (default 2^-100)
};

struct ComposedEpsilon {
  std::string method{};
  Interval epsilon{kDefaultPrecision};  // rounded outward; upper() is the one to use
  bool tolerance_met = true;
  std::string route{};                  // the theorem used, with its citation
};

struct ComposePureDpReport {
  mpq_class epsilon{};
  unsigned long long k = 0;
  mpq_class delta{};
  std::vector<ComposedEpsilon> results{};  // one per method, in the order basic ... zcdp
};

[[nodiscard]] ComposePureDpReport compose_pure_dp(const ComposePureDpRequest& request);

}  // namespace exactdp
