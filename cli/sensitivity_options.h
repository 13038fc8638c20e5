// sensitivity_options.h — a positive rational option read and range-checked one way: the error
// names the parameter and its range (ParameterError, exit 2), by accounting/parameter_checks.h.
// (The laws' noise parameters and --sensitivity are validated by the law registry instead:
// cli/mechanism_spec.h.)
//
//   positive_option(parsed, "--epsilon")   --epsilon R with R > 0 (required)
#pragma once

#include <gmpxx.h>

#include <string>

#include "cli/args.h"

namespace exactdp::cli {

// A required option whose value must be > 0; the error says "name > 0".
[[nodiscard]] mpq_class positive_option(const ParsedArgs& parsed, const std::string& option);

}  // namespace exactdp::cli
