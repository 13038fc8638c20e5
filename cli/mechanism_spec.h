// mechanism_spec.h — "<mechanism> --noise R [--sensitivity R|INT] ..." on the command line, for
// the accounting commands (profile, measure-gdp, calibrate): the table of mechanisms and their
// checks are the operations' (operations/mechanisms.h); this file turns its parameters into
// options ("sigma": --sigma) and the options given back into the operation's parameters.
#pragma once

#include <vector>

#include <exactdp/operations/mechanisms.h>
#include "cli/args.h"

namespace exactdp::cli {

using operations::find_mechanism;
using operations::mechanism_list;
using operations::MechanismCommand;
using operations::MechanismRow;
using operations::MechanismSpec;

// Every option of the rows `command` offers, to merge into its specs.
[[nodiscard]] std::vector<OptionSpec> mechanism_option_specs(MechanismCommand command);

// The mechanism options given on the command line as the operation's parameters: (name, text),
// in the table's order.
[[nodiscard]] operations::GivenParameters given_mechanism_parameters(MechanismCommand command,
                                                                     const ParsedArgs& parsed);

}  // namespace exactdp::cli
