// An input the command cannot read at all — standard input a directory or closed, a --keys
// directory — is bad input: exit 2 naming it, nothing on stdout, never "internal error"
// (exit 1, which the first read's EISDIR or EBADF once gave).
#include <unistd.h>

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tests/cli/cli_output_test_helpers.h"

namespace exactdp::cli {
namespace {

using test_support::CliRun;

// The commands that read a CSV on standard input.
std::vector<std::vector<std::string>> stdin_readers() {
  return {{"release", "--mechanism", "discrete-laplace", "--epsilon", "1", "--column", "count"},
          {"aggregate", "--privacy-unit", "user", "--group-by", "g", "--count", "--epsilon", "1", "--delta", "1e-6"},
          {"estimate", "sparse-mean", "--s", "1", "--bound", "4", "--epsilon", "1"}};
}

// Runs the command with file descriptor 0 closed, as `exactdp ... <&-` does.
CliRun run_with_stdin_closed(const std::vector<std::string>& args) {
  const int saved = ::dup(0);
  ::close(0);
  std::cin.clear();
  std::ostringstream out, err;
  Io io{std::cin, out, err, false};
  const int status = run_exactdp(args, io);
  ::dup2(saved, 0);
  ::close(saved);
  std::cin.clear();
  return {status, out.str(), err.str()};
}

TEST(UnreadableInput, StandardInputADirectoryIsRefusedNamingStdin) {
  const std::string dir = test_support::fresh_output_dir("stdin_dir");
  for (const auto& args : stdin_readers()) {
    const CliRun r = test_support::run_with_stdin_path(args, dir);
    test_support::expect_rejected_naming(r, "stdin: standard input is a directory");
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << args[0] << ": " << r.err;
  }
}

TEST(UnreadableInput, StandardInputClosedIsRefusedNamingStdin) {
  for (const auto& args : stdin_readers()) {
    const CliRun r = run_with_stdin_closed(args);
    test_support::expect_rejected_naming(r, "stdin: standard input cannot be read");
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << args[0] << ": " << r.err;
  }
}

TEST(UnreadableInput, KeysFileADirectoryIsRefusedNamingKeys) {
  const std::string dir = test_support::fresh_output_dir("keys_dir");
  const CliRun r = test_support::run_cli({"aggregate", "--privacy-unit", "user", "--group-by", "g", "--count",
                                          "--epsilon", "1", "--keys", dir},
                                         "user,g\nu1,a\n");
  test_support::expect_rejected_naming(r, "--keys = ");
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace exactdp::cli
