#include "cli/mechanism_spec.h"

#include <string>

namespace exactdp::cli {

std::vector<OptionSpec> mechanism_option_specs(MechanismCommand command) {
  std::vector<OptionSpec> out;
  for (const auto& name : operations::mechanism_parameters(command)) out.push_back({"--" + name, true});
  return out;
}

operations::GivenParameters given_mechanism_parameters(MechanismCommand command, const ParsedArgs& parsed) {
  operations::GivenParameters given;
  for (const auto& name : operations::mechanism_parameters(command)) {
    if (const auto v = parsed.get("--" + name)) given.emplace_back(name, *v);
  }
  return given;
}

}  // namespace exactdp::cli
