// args.h — the small argument parser every exactdp subcommand uses.
//
// Options are "--name VALUE", "--name=VALUE", or boolean "--name"; a lone "-n" style short option
// is declared the same way. Unknown options, a missing value, an option given twice or a
// required option left out throw UsageError (exit 2). Parameter values are parsed with the exact
// rational parser, so errors name the parameter and the allowed range.
#pragma once

#include <gmpxx.h>

#include <iosfwd>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace exactdp::cli {

// Bad usage: exit status 2, message on stderr.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;   // with its dashes: "--sigma2", "-n"
  bool takes_value;   // false: a boolean flag such as "--json"
};

class ParsedArgs {
 public:
  // Parses args against specs. Tokens not starting with '-' (and "-" alone) are positionals;
  // "--" ends options.
  ParsedArgs(std::span<const std::string> args, const std::vector<OptionSpec>& specs);

  [[nodiscard]] bool has(const std::string& name) const;
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const;
  [[nodiscard]] std::string require(const std::string& name) const;
  [[nodiscard]] const std::vector<std::string>& positionals() const { return positionals_; }

  // Exact rational value of an option; the parameter is named without dashes in errors.
  [[nodiscard]] std::optional<mpq_class> rational(const std::string& name) const;
  [[nodiscard]] mpq_class require_rational(const std::string& name) const;
  [[nodiscard]] std::optional<mpz_class> integer(const std::string& name) const;

  // A count in [minimum, maximum], e.g. -n; errors name the range.
  [[nodiscard]] std::optional<unsigned long long> count(const std::string& name,
                                                        unsigned long long minimum,
                                                        unsigned long long maximum) const;

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> positionals_;
};

// "--sigma2" -> "sigma2"
[[nodiscard]] std::string parameter_name(const std::string& option);

// "--help" and "-h", which every subcommand accepts; append them to the command's specs.
[[nodiscard]] std::vector<OptionSpec> help_option_specs();

// Writes `help` to out when --help or -h was given, and says whether it did (the command then
// returns 0 without doing anything else):
//   if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
bool print_help_if_asked(const ParsedArgs& parsed, const char* help, std::ostream& out);

}  // namespace exactdp::cli
