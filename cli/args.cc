#include "cli/args.h"

#include <ostream>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>

namespace exactdp::cli {

std::string parameter_name(const std::string& option) {
  std::size_t i = 0;
  while (i < option.size() && option[i] == '-') ++i;
  return option.substr(i);
}

std::vector<OptionSpec> help_option_specs() { return {{"--help", false}, {"-h", false}}; }

bool print_help_if_asked(const ParsedArgs& parsed, const char* help, std::ostream& out) {
  if (!parsed.has("--help") && !parsed.has("-h")) return false;
  out << help;
  return true;
}

ParsedArgs::ParsedArgs(std::span<const std::string> args, const std::vector<OptionSpec>& specs) {
  auto find_spec = [&](const std::string& name) -> const OptionSpec* {
    for (const auto& s : specs)
      if (s.name == name) return &s;
    return nullptr;
  };
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (options_done || token.size() < 2 || token[0] != '-') {
      positionals_.push_back(token);
      continue;
    }
    if (token == "--") {
      options_done = true;
      continue;
    }
    std::string name = token;
    std::optional<std::string> inline_value;
    if (const auto eq = token.find('='); eq != std::string::npos && token.rfind("--", 0) == 0) {
      name = token.substr(0, eq);
      inline_value = token.substr(eq + 1);
    }
    const OptionSpec* spec = find_spec(name);
    if (spec == nullptr) {
      // A negative number as a positional ("-5") is not an option.
      if (token.size() >= 2 && (token[1] >= '0' && token[1] <= '9')) {
        positionals_.push_back(token);
        continue;
      }
      throw UsageError("unknown option '" + abbreviate(name) + "' (see --help)");
    }
    if (values_.count(name) != 0) throw UsageError("option " + name + " given more than once");
    if (!spec->takes_value) {
      if (inline_value) throw UsageError("option " + name + " takes no value");
      values_[name] = "";
      continue;
    }
    if (inline_value) {
      values_[name] = *inline_value;
    } else {
      if (i + 1 >= args.size()) throw UsageError("option " + name + " needs a value");
      // "--sigma2 -n 5": the value was forgotten and the next word is one of this command's
      // options. Say so instead of parsing "-n" as a number ("-5" is still a value).
      const std::string& next = args[i + 1];
      const std::string next_name = next.rfind("--", 0) == 0 ? next.substr(0, next.find('=')) : next;
      if (next.size() >= 2 && next[0] == '-' && find_spec(next_name) != nullptr) {
        throw UsageError("option " + name + " needs a value, but the word after it is the option " +
                         abbreviate(next_name) + " (give " + name + " a value first)");
      }
      values_[name] = args[++i];
    }
  }
}

bool ParsedArgs::has(const std::string& name) const { return values_.count(name) != 0; }

std::optional<std::string> ParsedArgs::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string ParsedArgs::require(const std::string& name) const {
  auto v = get(name);
  if (!v) throw UsageError("missing required option " + name + " (see --help)");
  return *v;
}

std::optional<mpq_class> ParsedArgs::rational(const std::string& name) const {
  auto v = get(name);
  if (!v) return std::nullopt;
  return parse_rational(parameter_name(name), *v);
}

mpq_class ParsedArgs::require_rational(const std::string& name) const {
  return parse_rational(parameter_name(name), require(name));
}

std::optional<mpz_class> ParsedArgs::integer(const std::string& name) const {
  auto v = get(name);
  if (!v) return std::nullopt;
  return parse_integer(parameter_name(name), *v);
}

std::optional<unsigned long long> ParsedArgs::count(const std::string& name,
                                                    unsigned long long minimum,
                                                    unsigned long long maximum) const {
  auto v = get(name);
  if (!v) return std::nullopt;
  return operations::checked_count(parameter_name(name), *v, minimum, maximum);
}

}  // namespace exactdp::cli
