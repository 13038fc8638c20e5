#include "cli/json.h"

#include <stdexcept>

#include <exactdp/core/decimal.h>

namespace exactdp::cli {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(const std::string& s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  if (i < n && s[i] == '-') ++i;
  if (i >= n) return false;
  if (s[i] == '0') {
    ++i;
  } else if (is_digit(s[i])) {
    while (i < n && is_digit(s[i])) ++i;
  } else {
    return false;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (i >= n || !is_digit(s[i])) return false;
    while (i < n && is_digit(s[i])) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= n || !is_digit(s[i])) return false;
    while (i < n && is_digit(s[i])) ++i;
  }
  return i == n;
}

void newline(std::string& out, int indent, int level) {
  if (indent <= 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(indent * level), ' ');
}

// The length (2 to 4) of the well-formed UTF-8 sequence starting at s[i] (a byte >= 0x80), or 0
// when there is none there: no overlong form, no surrogate, nothing above U+10FFFF (RFC 3629).
std::size_t utf8_sequence_length(const std::string& s, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = at(i);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  static const char* hex = "0123456789abcdef";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (u >= 0x80) {
          const std::size_t n = utf8_sequence_length(s, i);
          if (n > 0) {
            out.append(s, i, n);  // valid UTF-8: kept as it is
            i += n - 1;
          } else {
            out += "\\u00";  // not UTF-8: the byte, read as Latin-1, escaped
            out += hex[u >> 4];
            out += hex[u & 15];
          }
        } else if (u < 0x20) {
          out += "\\u00";
          out += hex[u >> 4];
          out += hex[u & 15];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

JsonValue JsonValue::number(const std::string& literal) {
  if (!is_json_number(literal)) {
    throw std::invalid_argument("not a JSON number literal: '" + literal + "'");
  }
  JsonValue v;
  v.text_ = literal;
  return v;
}

JsonValue JsonValue::interval(const exactdp::Interval& x, int digits) {
  const exactdp::DecimalInterval d = exactdp::to_decimal(x, digits);
  return interval(d.lower, d.upper);
}

JsonValue JsonValue::interval(const exactdp::Interval& x, const std::optional<mpq_class>& exact,
                             int digits) {
  if (!exact) return interval(x, digits);
  const exactdp::DecimalInterval d = exactdp::to_decimal(*exact, digits);
  return interval(d.lower, d.upper);
}

JsonValue JsonValue::interval(std::string lower, std::string upper) {
  JsonValue v = object();
  v.set("lower", std::move(lower));
  v.set("upper", std::move(upper));
  return v;
}

JsonValue& JsonValue::set(const std::string& key, JsonValue value) {
  if (kind_ != Kind::kObject) throw std::logic_error("JsonValue::set on a non-object");
  for (auto& m : members_) {
    if (m.first == key) {
      m.second = std::move(value);
      return *this;
    }
  }
  members_.emplace_back(key, std::move(value));
  return *this;
}

JsonValue& JsonValue::set_interval(const std::string& key, const exactdp::Interval& x,
                                   int digits) {
  return set(key, interval(x, digits));
}

JsonValue& JsonValue::push(JsonValue value) {
  if (kind_ != Kind::kArray) throw std::logic_error("JsonValue::push on a non-array");
  elements_.push_back(std::move(value));
  return *this;
}

const JsonValue* JsonValue::find(const std::string& key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& m : members_) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

std::size_t JsonValue::size() const {
  if (kind_ == Kind::kObject) return members_.size();
  if (kind_ == Kind::kArray) return elements_.size();
  return 0;
}

std::string JsonValue::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

void JsonValue::dump_to(std::string& out, int indent, int level) const {
  switch (kind_) {
    case Kind::kString:
      out += json_quote(text_);
      return;
    case Kind::kRaw:
      out += text_;
      return;
    case Kind::kObject: {
      if (members_.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      bool first = true;
      for (const auto& m : members_) {
        if (!first) out += indent > 0 ? "," : ", ";
        first = false;
        newline(out, indent, level + 1);
        out += json_quote(m.first);
        out += ": ";
        m.second.dump_to(out, indent, level + 1);
      }
      newline(out, indent, level);
      out += '}';
      return;
    }
    case Kind::kArray: {
      if (elements_.empty()) {
        out += "[]";
        return;
      }
      out += '[';
      bool first = true;
      for (const auto& e : elements_) {
        if (!first) out += indent > 0 ? "," : ", ";
        first = false;
        newline(out, indent, level + 1);
        e.dump_to(out, indent, level + 1);
      }
      newline(out, indent, level);
      out += ']';
      return;
    }
  }
}

}  // namespace exactdp::cli
