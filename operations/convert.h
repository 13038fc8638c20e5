// convert.h — the operation `convert`: certified conversions between privacy definitions
// (docs/DESIGN.md, "Operations"). The command line (cli/cmd_convert.cc) and Python
// (python/src/convert.cc) build a ConvertRequest and print or convert the ConvertReport; every
// check, limit and citation is here.
//
//   zcdp    rho + delta -> epsilon (zcdp_epsilon), rho + epsilon -> delta (zcdp_delta)
//   gdp     mu + delta -> epsilon (gdp_epsilon), epsilon + delta -> mu (gdp_mu_for)
//   pure-dp epsilon -> mu (gdp_mu_of_pure_dp) and rho (zcdp_rho_pure_dp, exact)
//
// Example:
//   ConvertRequest r{.source = "zcdp", .rho = mpq_class(1, 2), .delta = mpq_class(1, 1000000)};
//   const ConvertReport c = convert(r);   // c.result == "epsilon"; use c.value.value.upper()
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>

#include <exactdp/accounting/ziv.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

// The inputs given (a source takes some of them: zcdp rho and one of delta or epsilon; gdp delta
// and one of mu or epsilon; pure-dp epsilon alone).
struct ConvertRequest {
  std::string source{};  // zcdp, gdp or pure-dp
  std::optional<mpq_class> rho{};
  std::optional<mpq_class> mu{};
  std::optional<mpq_class> epsilon{};
  std::optional<mpq_class> delta{};
  std::optional<mpq_class> tolerance{};  // relative width wanted; none: 2^-100
  Spelling spelling = kCommandLineSpelling;
};

struct ConvertReport {
  std::string source{};
  std::string result{};               // the name of the converted value: epsilon, delta or mu
  accounting::Certified value;      // rounded outward; the safe end: upper (mu: lower, see meaning)
  std::optional<mpq_class> alpha{};   // zcdp: the Renyi order of CKS20 Corollary 13 used
  std::optional<mpq_class> rho{};     // pure-dp: eps^2 / 2, exact (BS16 Prop. 3.3)
  std::string route{};                // the theorem used, one line (empty for gdp -> mu)
  std::string meaning{};              // gdp -> mu: which end of the bracket is proven
};

// Checks the tolerance (and its cost limit, 2^-2000), the source and the inputs it takes
// (ParameterError naming the one missing, extra or out of range), then converts.
[[nodiscard]] ConvertReport convert(const ConvertRequest& request);

}  // namespace exactdp::operations
