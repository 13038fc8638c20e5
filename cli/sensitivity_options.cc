#include "cli/sensitivity_options.h"

#include <algorithm>
#include <cstddef>

#include <exactdp/accounting/parameter_checks.h>

namespace exactdp::cli {

mpq_class positive_option(const ParsedArgs& parsed, const std::string& option) {
  const mpq_class v = parsed.require_rational(option);
  accounting::require_positive(parameter_name(option).c_str(), v);
  return v;
}

namespace {

// "NAME=VALUE" split at the last '=', or false when `text` holds no '='.
bool split_per_column(const std::string& option, const std::string& text, PerColumnValue& out) {
  const std::size_t eq = text.rfind('=');
  if (eq == std::string::npos) return false;
  out.option = option;
  out.column = text.substr(0, eq);
  out.value = text.substr(eq + 1);
  if (out.column.empty() || out.value.empty()) {
    throw UsageError("option " + option + " '" + text + "': the per-column form is " + option +
                     " NAME=VALUE (a column name and a value)");
  }
  return true;
}

}  // namespace

std::vector<PerColumnValue> take_per_column_values(const std::vector<std::string>& args,
                                                   const std::vector<std::string>& options,
                                                   std::vector<std::string>& rest) {
  std::vector<PerColumnValue> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    PerColumnValue v;
    bool taken = false;
    for (const std::string& option : options) {
      if (a == option && i + 1 < args.size() && split_per_column(option, args[i + 1], v)) {
        ++i;
        taken = true;
      } else if (a.rfind(option + "=", 0) == 0 && split_per_column(option, a.substr(option.size() + 1), v)) {
        taken = true;
      }
      if (taken) break;
    }
    if (taken) {
      out.push_back(v);
    } else {
      rest.push_back(a);
    }
  }
  return out;
}

}  // namespace exactdp::cli
