#include "cli/text_json_report.h"

#include <ostream>

#include <exactdp/core/decimal.h>

namespace exactdp::cli {

void TextJsonReport::text(const std::string& key, const std::string& value) {
  json.set(key, value);
  lines.push_back(key + " = " + value);
}

void TextJsonReport::interval(const std::string& key, const exactdp::Interval& x, int digits) {
  json.set_interval(key, x, digits);
  lines.push_back(key + " = " + exactdp::to_decimal_string(x, digits));
}

void TextJsonReport::flag(const std::string& key, bool value) {
  json.set(key, value);
  lines.push_back(key + " = " + (value ? "true" : "false"));
}

int TextJsonReport::emit(Io& io, bool as_json) const {
  if (as_json) {
    io.out << json.dump() << "\n";
  } else {
    for (const auto& line : lines) io.out << line << "\n";
  }
  return 0;
}

}  // namespace exactdp::cli
