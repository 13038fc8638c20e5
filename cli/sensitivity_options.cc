#include "cli/sensitivity_options.h"

#include <exactdp/accounting/parameter_checks.h>

namespace exactdp::cli {

mpq_class positive_option(const ParsedArgs& parsed, const std::string& option) {
  const mpq_class v = parsed.require_rational(option);
  accounting::require_positive(parameter_name(option).c_str(), v);
  return v;
}

mpq_class real_sensitivity_option(const ParsedArgs& parsed) {
  const mpq_class v = parsed.rational("--sensitivity").value_or(mpq_class(1));
  accounting::require_positive("sensitivity", v);
  return v;
}

mpz_class integer_sensitivity_option(const ParsedArgs& parsed) {
  const mpz_class v = parsed.integer("--sensitivity").value_or(mpz_class(1));
  accounting::require_integer_sensitivity(v);
  return v;
}

}  // namespace exactdp::cli
