// text_json_report.h — a command's result built once and printed one of two ways: as
// "key = value" lines (the default) or as one ordered JSON object (--json).
//
// Example:
//   TextJsonReport out;
//   out.json.set("command", "profile");            // JSON only
//   out.text("mechanism", "gaussian");             // mechanism = gaussian
//   out.interval("delta", c.value, digits);        // delta = [lower, upper], rounded outward
//   out.flag("tolerance_met", c.tolerance_met);    // tolerance_met = true
//   return out.emit(io, parsed.has("--json"));
#pragma once

#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include "cli/commands.h"
#include "cli/json.h"

namespace exactdp::cli {

struct TextJsonReport {
  JsonValue json = JsonValue::object();
  std::vector<std::string> lines;

  // "key = value"; a JSON string.
  void text(const std::string& key, const std::string& value);
  // "key = [lower, upper]" and {"lower": ..., "upper": ...}, both ends rounded outward.
  void interval(const std::string& key, const exactdp::Interval& x, int digits);
  // "key = true" / "key = false"; a JSON boolean.
  void flag(const std::string& key, bool value);
  // Writes the JSON object on one line (as_json) or the text lines to io.out; returns 0, the
  // command's exit status.
  int emit(Io& io, bool as_json) const;
};

}  // namespace exactdp::cli
