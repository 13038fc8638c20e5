// spelling.h — how a face names parameters in the messages of an operation: the command line
// as options ("missing required option --rho (see --help)"), Python as keyword arguments
// ("missing required argument rho"). An operation's request carries the spelling of the face
// that built it; the check and its parameter are the same for both.
#pragma once

#include <string>
#include <string_view>

namespace exactdp::operations {

struct Spelling {
  std::string prefix;    // before a parameter's name: "--" or ""
  std::string noun;      // what a parameter is called: "option" or "argument"
  std::string see_help;  // after a usage message: " (see --help)" or ""

  [[nodiscard]] std::string name(std::string_view parameter) const {
    return prefix + std::string(parameter);
  }
  [[nodiscard]] std::string missing(std::string_view parameter) const {
    return "missing required " + noun + " " + name(parameter) + see_help;
  }
};

inline const Spelling kCommandLineSpelling{"--", "option", " (see --help)"};
inline const Spelling kPythonSpelling{"", "argument", ""};

}  // namespace exactdp::operations
