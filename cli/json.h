// json.h — a tiny JSON writer for the exactdp command's --json output.
//
// JsonValue is a string, a raw literal (number, true, false, null), an ORDERED object (keys
// keep insertion order, so output is stable and diffable) or an array. Numbers from the
// accounting layer are written as strings (they can have thousands of digits and exponents
// beyond any double), and intervals as objects {"lower": "...", "upper": "..."} whose ends are
// rounded outward (docs/DESIGN.md, "Command-line contract").
//
// Example:
//   JsonValue out = JsonValue::object();
//   out.set("mechanism", "gaussian").set_interval("delta", delta, 20).set("tolerance_met", true);
//   io.out << out.dump() << "\n";
//   // {"mechanism": "gaussian", "delta": {"lower": "0.1", "upper": "0.2"}, "tolerance_met": true}
//
// Strings are escaped per RFC 8259 (quote, backslash, control characters as \uXXXX); well-formed
// UTF-8 is passed through unchanged, and every byte that is not part of a well-formed UTF-8
// sequence (a CSV header in Latin-1, say) is written as \u00XX, the byte read as Latin-1, so
// the output is always valid JSON whatever bytes the caller gives.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::cli {

class JsonValue {
 public:
  enum class Kind { kString, kRaw, kObject, kArray };

  JsonValue() : kind_(Kind::kRaw), text_("null") {}
  JsonValue(const char* s) : kind_(Kind::kString), text_(s) {}        // NOLINT: implicit on purpose
  JsonValue(std::string s) : kind_(Kind::kString), text_(std::move(s)) {}  // NOLINT
  JsonValue(bool b) : kind_(Kind::kRaw), text_(b ? "true" : "false") {}    // NOLINT
  JsonValue(long long n) : kind_(Kind::kRaw), text_(std::to_string(n)) {}  // NOLINT
  JsonValue(int n) : JsonValue(static_cast<long long>(n)) {}              // NOLINT
  JsonValue(unsigned long long n) : kind_(Kind::kRaw), text_(std::to_string(n)) {}  // NOLINT
  JsonValue(long n) : JsonValue(static_cast<long long>(n)) {}             // NOLINT
  JsonValue(unsigned long n) : JsonValue(static_cast<unsigned long long>(n)) {}  // NOLINT

  [[nodiscard]] static JsonValue object() { return JsonValue(Kind::kObject); }
  [[nodiscard]] static JsonValue array() { return JsonValue(Kind::kArray); }
  [[nodiscard]] static JsonValue null() { return JsonValue(); }
  // A JSON number literal written as given; throws std::invalid_argument unless `literal`
  // matches the JSON number grammar.
  [[nodiscard]] static JsonValue number(const std::string& literal);
  // {"lower": decimal_lower(x.lower, digits), "upper": decimal_upper(x.upper, digits)}.
  [[nodiscard]] static JsonValue interval(const exactdp::Interval& x, int digits);
  [[nodiscard]] static JsonValue interval(std::string lower, std::string upper);
  // A certified value whose exact value may be known: the exact value rounded outward
  // (exactdp::to_decimal of the rational: 1/1000000 gives "0.000001" at both ends), else x.
  [[nodiscard]] static JsonValue interval(const exactdp::Interval& x, const std::optional<mpq_class>& exact,
                                          int digits);

  [[nodiscard]] Kind kind() const { return kind_; }

  // Object: sets key (replacing an existing key in place). Throws std::logic_error if this is
  // not an object. Returns *this for chaining.
  JsonValue& set(const std::string& key, JsonValue value);
  JsonValue& set_interval(const std::string& key, const exactdp::Interval& x, int digits);
  // Array: appends. Throws std::logic_error if this is not an array.
  JsonValue& push(JsonValue value);

  // Object lookup (nullptr if absent or not an object); for tests.
  [[nodiscard]] const JsonValue* find(const std::string& key) const;
  [[nodiscard]] const std::string& text() const { return text_; }  // string or raw literal
  [[nodiscard]] std::size_t size() const;  // members of an object or array

  // Compact JSON on one line (", " and ": " separators), or indented by `indent` spaces per
  // level when indent > 0.
  [[nodiscard]] std::string dump(int indent = 0) const;

 private:
  explicit JsonValue(Kind kind) : kind_(kind) {}
  void dump_to(std::string& out, int indent, int level) const;

  Kind kind_;
  std::string text_;                                     // kString, kRaw
  std::vector<std::pair<std::string, JsonValue>> members_;  // kObject
  std::vector<JsonValue> elements_;                          // kArray
};

// The JSON string literal for s, with quotes.
[[nodiscard]] std::string json_quote(const std::string& s);

}  // namespace exactdp::cli
