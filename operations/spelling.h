// spelling.h — how a face names parameters in the messages of an operation: the command line
// as options ("missing required option --rho (see --help)", "--tau-bits", "--hardened"), Python
// as keyword arguments ("missing required argument rho", "tau_bits", "hardened=True"). An
// operation's request carries the spelling of the face that built it; the check and its
// parameter are the same for both.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include <exactdp/core/errors.h>

namespace exactdp::operations {

struct Spelling {
  std::string prefix;    // before a parameter's name: "--" or ""
  std::string noun;      // what a parameter is called: "option" or "argument"
  std::string see_help;  // after a usage message: " (see --help)" or ""
  bool hyphens = false;  // '_' in a parameter's name written '-' (tau_bits: --tau-bits)
  std::string flag_on;   // after a boolean parameter's name when it is set: "" or "=True"

  // The parameter's name as the face writes it in "NAME = VALUE is out of range": tau-bits.
  [[nodiscard]] std::string bare(std::string_view parameter) const {
    std::string out(parameter);
    if (hyphens) std::replace(out.begin(), out.end(), '_', '-');
    return out;
  }
  [[nodiscard]] std::string name(std::string_view parameter) const { return prefix + bare(parameter); }
  // A boolean parameter set: "--hardened" or "hardened=True".
  [[nodiscard]] std::string flag(std::string_view parameter) const { return name(parameter) + flag_on; }
  [[nodiscard]] std::string missing(std::string_view parameter) const {
    return "missing required " + noun + " " + name(parameter) + see_help;
  }
};

inline const Spelling kCommandLineSpelling{"--", "option", " (see --help)", true, ""};
inline const Spelling kPythonSpelling{"", "argument", "", false, "=True"};

// The value of a required parameter of a request; ParameterError naming it, in the face's
// spelling ("missing required option --epsilon (see --help)"), when it is absent.
template <class T>
const T& required(const std::optional<T>& value, const char* parameter, const Spelling& s) {
  if (!value) throw ParameterError(parameter, s.missing(parameter));
  return *value;
}

}  // namespace exactdp::operations
