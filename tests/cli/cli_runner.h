// cli_runner.h — runs the exactdp command line in process (run_exactdp) with string streams,
// for the CLI tests: exit status, stdout and stderr of one invocation.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace exactdp::test_support {

struct CliRun {
  int status;
  std::string out, err;
};

// args: the whole command line minus "exactdp"; input: what the command reads on stdin.
inline CliRun run_cli(const std::vector<std::string>& args, const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out, err;
  cli::Io io{in, out, err, false};
  const int status = cli::run_exactdp(args, io);
  return {status, out.str(), err.str()};
}

// The same with `command` put in front of args.
inline CliRun run_command(const std::string& command, std::vector<std::string> args) {
  args.insert(args.begin(), command);
  return run_cli(args);
}

// The runner of one command, for a test file about it:
//   const auto run = command_runner("calibrate");  run({"gaussian", "--epsilon", "1", ...})
inline auto command_runner(std::string command) {
  return [command = std::move(command)](std::vector<std::string> args) { return run_command(command, std::move(args)); };
}

}  // namespace exactdp::test_support

namespace exactdp {
// The other spelling some tests use for the one helper namespace.
namespace testing_support = test_support;  // NOLINT(misc-unused-alias-decls)
}  // namespace exactdp
