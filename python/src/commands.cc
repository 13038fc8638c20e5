// commands.cc — the CLI's accounting and audit commands, run in-process.
//
// _run_command(name, args, stdin_text) calls the command's own function (cli/commands.h:
// cmd_profile, cmd_calibrate, cmd_convert, cmd_compose, cmd_measure_gdp, cmd_audit) with the
// given arguments and an in-memory stdin, and returns (exit_status, stdout_text). The Python
// layer always passes --json and reads the report, so every option, default, check and printed
// interval is exactly the CLI's (docs/DESIGN.md, "Command-line contract") — no subprocess, no
// second copy of the option handling. Bad usage and bad parameters propagate as C++ exceptions and become
// exactdp.UsageError / exactdp.ParameterError (errors.cc). The GIL is released while the
// command runs (accounting at a tight tolerance can take a while).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bindings.h"
#include "cli/args.h"
#include "cli/commands.h"

namespace py = pybind11;

namespace exactdp::python {
namespace {

using Command = int (*)(cli::Args, cli::Io&);

py::tuple run_command(const std::string& name, const std::vector<std::string>& args,
                      const std::string& stdin_text) {
  static const std::map<std::string, Command> commands = {
      {"profile", cli::cmd_profile}, {"calibrate", cli::cmd_calibrate},
      {"convert", cli::cmd_convert}, {"compose", cli::cmd_compose},
      {"measure-gdp", cli::cmd_measure_gdp}, {"audit", cli::cmd_audit},
  };
  const auto it = commands.find(name);
  if (it == commands.end()) throw cli::UsageError("unknown command '" + name + "'");
  std::istringstream in(stdin_text);
  std::ostringstream out;
  std::ostringstream err;
  int status = 0;
  try {
    const py::gil_scoped_release release;
    cli::Io io{in, out, err, false};
    status = it->second(cli::Args(args), io);
  } catch (const cli::UsageError& e) {
    raise_exactdp_error("UsageError", e.what(), nullptr);
    throw py::error_already_set();
  }
  return py::make_tuple(status, py::bytes(out.str()), py::bytes(err.str()));
}

}  // namespace

void register_commands(py::module_& m) {
  m.def("_run_command", &run_command, py::arg("name"), py::arg("args"), py::arg("stdin_text") = "");
}

}  // namespace exactdp::python
