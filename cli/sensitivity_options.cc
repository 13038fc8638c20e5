#include "cli/sensitivity_options.h"

#include <exactdp/accounting/parameter_checks.h>

namespace exactdp::cli {

mpq_class positive_option(const ParsedArgs& parsed, const std::string& option) {
  const mpq_class v = parsed.require_rational(option);
  accounting::require_positive(parameter_name(option).c_str(), v);
  return v;
}

}  // namespace exactdp::cli
