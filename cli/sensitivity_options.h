// sensitivity_options.h — a positive rational option read and range-checked one way: the error
// names the parameter and its range (ParameterError, exit 2), by accounting/parameter_checks.h.
// (The laws' noise parameters and --sensitivity are validated by the law registry instead:
// cli/mechanism_spec.h.) And the per-column form of an option, "--OPTION NAME=VALUE", which
// `exactdp release` uses to give each column its own sensitivity, grid and rounding.
//
//   positive_option(parsed, "--epsilon")   --epsilon R with R > 0 (required)
//   take_per_column_values(args, {"--sensitivity"}, rest)
//       "--sensitivity sum=5" -> {--sensitivity, sum, 5}; "--sensitivity 5" stays in rest
#pragma once

#include <gmpxx.h>

#include <string>
#include <vector>

#include "cli/args.h"

namespace exactdp::cli {

// A required option whose value must be > 0; the error says "name > 0".
[[nodiscard]] mpq_class positive_option(const ParsedArgs& parsed, const std::string& option);

// One "--OPTION NAME=VALUE" (or "--OPTION=NAME=VALUE"): NAME is everything before the LAST '='
// of the value (a column name may contain '='; a number, a grid and a rounding mode never do).
struct PerColumnValue {
  std::string option;  // with its dashes: "--sensitivity"
  std::string column;
  std::string value;
};

// Takes the per-column occurrences of `options` (those whose value holds a '=') out of args, in
// order; everything else, the global "--OPTION VALUE" included, goes to `rest` unchanged. Stops
// at "--" (copied to rest with what follows). UsageError for a per-column value with an empty
// column name ("=5") or an empty value ("sum=").
[[nodiscard]] std::vector<PerColumnValue> take_per_column_values(const std::vector<std::string>& args,
                                                                 const std::vector<std::string>& options,
                                                                 std::vector<std::string>& rest);

}  // namespace exactdp::cli
