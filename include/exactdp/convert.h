// convert.h — the operation `convert` through the C++ facade: certified conversions between
// privacy definitions. The same operation as `exactdp convert` and exactdp.convert: the same
// checks, limits, numbers and citations (docs/DESIGN.md, "Operations"). Installed; part of the
// source-compatibility promise (docs/ABI.md).
//
//   zcdp    rho + delta -> epsilon, rho + epsilon -> delta
//   gdp     mu + delta -> epsilon, epsilon + delta -> mu
//   pure-dp epsilon -> mu and rho
//
//   const exactdp::ConvertReport c = exactdp::convert({.source = "zcdp", .rho = "1/2", .delta = "1e-6"});
//   // c.result == "epsilon"; c.value.upper() is the safe epsilon
//
// Errors, before any work: ParameterError naming "source", or the input missing, extra or out
// of range; LimitError for a tolerance below 2^-2000 (SECURITY.md, "Limits").
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>

#include <exactdp/core/interval.h>

namespace exactdp {

// The inputs a source takes, as exact text: zcdp rho and one of delta or epsilon; gdp delta and
// one of mu or epsilon; pure-dp epsilon alone.
struct ConvertRequest {
  std::string source{};  // "zcdp", "gdp" or "pure-dp"
  std::optional<std::string> rho{};
  std::optional<std::string> mu{};
  std::optional<std::string> epsilon{};
  std::optional<std::string> delta{};
  std::optional<std::string> tolerance{};  // relative width wanted (default 2^-100)
};

struct ConvertReport {
  std::string source{};
  std::string result{};             // the converted value's name: "epsilon", "delta" or "mu"
  Interval value{kDefaultPrecision};  // rounded outward; the safe end: upper (mu: see meaning)
  bool tolerance_met = true;
  std::optional<mpq_class> alpha{};  // zcdp: the Renyi order used
  std::optional<mpq_class> rho{};    // pure-dp: epsilon^2 / 2, exact
  std::string route{};               // the theorem used, one line (empty for gdp -> mu)
  std::string meaning{};             // gdp -> mu: which end of the bracket is proven
};

[[nodiscard]] ConvertReport convert(const ConvertRequest& request);

}  // namespace exactdp
