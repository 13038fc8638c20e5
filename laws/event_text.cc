#include <exactdp/laws/event_text.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>

namespace exactdp::laws {
namespace {

struct EventText {
  std::string kind;
  std::vector<std::pair<std::string, std::string>> fields;
};

ParameterError event_error(const std::string& message) { return ParameterError("event", message); }

EventText split_event(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0) {
    throw event_error("event '" + abbreviate(text) +
                      "': expected kind:key=value,... (e.g. poisson-gaussian:sigma=1,q=0.01)");
  }
  EventText e;
  e.kind = text.substr(0, colon);
  const std::string rest = text.substr(colon + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {
    const auto comma = rest.find(',', start);
    const std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw event_error("event '" + abbreviate(text) + "': expected key=value, got '" + abbreviate(item) + "'");
    }
    const std::string key = item.substr(0, eq);
    for (const auto& [k, v] : e.fields) {
      if (k == key) throw event_error("event '" + abbreviate(text) + "': " + key + " given twice");
    }
    e.fields.emplace_back(key, item.substr(eq + 1));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return e;
}

// The keys an event of `law` takes, in order: its noise parameters, q when Poisson-subsampled,
// then its privacy parameters (the sensitivity). `names` gets every key's name, q included.
std::vector<const ParameterSpec*> event_keys(const Law& law, bool poisson, std::vector<std::string>& names) {
  std::vector<const ParameterSpec*> keys;
  for (const auto& p : law.parameters()) {
    if (p.role != Role::kNoise) continue;
    keys.push_back(&p);
    names.push_back(p.name);
  }
  if (poisson) names.emplace_back("q");
  for (const auto& p : law.parameters()) {
    if (p.role != Role::kPrivacy) continue;
    keys.push_back(&p);
    names.push_back(p.name);
  }
  return keys;
}

// The law's parameters among the fields (q split off into `q`), every key known and every
// required one present.
std::vector<std::pair<std::string, std::string>> law_fields(const EventText& e, const Law& law, bool poisson,
                                                            std::optional<std::string>& q) {
  std::vector<std::string> names;
  const auto keys = event_keys(law, poisson, names);
  std::vector<std::pair<std::string, std::string>> given;
  for (const auto& [k, v] : e.fields) {
    bool ok = false;
    for (const auto& n : names) ok = ok || n == k;
    if (!ok) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw event_error("event " + e.kind + ": unknown key '" + abbreviate(k) + "' (allowed: " + list + ")");
    }
    if (poisson && k == "q") {
      q = v;
    } else {
      given.emplace_back(k, v);
    }
  }
  for (const auto* key : keys) {
    bool present = false;
    for (const auto& [k, v] : given) present = present || k == key->name;
    if (!present && !key->fallback) throw event_error("event " + e.kind + ": " + key->name + "=R is required");
  }
  if (poisson && !q) throw event_error("event " + e.kind + ": q=R is required");
  return given;
}

}  // namespace

std::string event_kinds() {
  std::string poisson;
  for (const Law* law : all_laws()) {
    if (law->supports(Capability::kEvent) && law->supports(Capability::kSubsample)) poisson += ", poisson-" + law->name();
  }
  return law_names_with(Capability::kEvent) + poisson;
}

accounting::RdpEvent parse_event_text(const std::string& text) {
  const EventText e = split_event(text);
  const bool poisson = e.kind.rfind("poisson-", 0) == 0;
  const Law* law = find_law(poisson ? e.kind.substr(8) : e.kind);
  if (law == nullptr || !law->supports(Capability::kEvent) || (poisson && !law->supports(Capability::kSubsample))) {
    throw event_error("unknown event kind '" + abbreviate(e.kind) + "' (allowed: " + event_kinds() + ")");
  }
  std::optional<std::string> q;
  const auto given = law_fields(e, *law, poisson, q);
  const accounting::PrivacyEvent event = law->privacy_event(law->parse(given, Use::kPrivacy));
  if (!poisson) return accounting::RdpEvent::plain(event);
  return accounting::RdpEvent::poisson_subsampled(event, parse_rational("q", *q));
}

unsigned long parse_event_count(const std::string& text) {
  const mpz_class n = parse_integer("count", text);
  if (n < 1 || n > mpz_class("1000000000000")) {
    throw ParameterError::out_of_range("count", abbreviate(to_string(n)), "1 <= count <= 10^12");
  }
  return n.get_ui();
}

}  // namespace exactdp::laws
