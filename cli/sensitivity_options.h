// sensitivity_options.h — the noise parameters and --sensitivity of the mechanisms that
// calibrate, profile and measure-gdp describe, read and range-checked one way: the error names
// the parameter and its range (ParameterError, exit 2), by the checks of
// accounting/parameter_checks.h.
//
//   positive_option(parsed, "--sigma")   --sigma R with R > 0 (required)
//   real_sensitivity_option(parsed)      --sensitivity R with R > 0 (default 1)
//   integer_sensitivity_option(parsed)   --sensitivity INT with INT >= 1 (default 1)
#pragma once

#include <gmpxx.h>

#include <string>

#include "cli/args.h"

namespace exactdp::cli {

// A required option whose value must be > 0; the error says "name > 0".
[[nodiscard]] mpq_class positive_option(const ParsedArgs& parsed, const std::string& option);

// --sensitivity read (default 1) and checked as above.
[[nodiscard]] mpq_class real_sensitivity_option(const ParsedArgs& parsed);
[[nodiscard]] mpz_class integer_sensitivity_option(const ParsedArgs& parsed);

}  // namespace exactdp::cli
