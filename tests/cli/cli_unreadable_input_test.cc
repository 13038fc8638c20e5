// An input the command cannot read at all — standard input a directory or closed, a --keys
// directory — is bad input: exit 2 naming it, nothing on stdout, never "internal error"
// (exit 1, which the first read's EISDIR or EBADF once gave).
// Standard output the very file release reads (twice, in place) is refused too, naming stdout.
#include <fcntl.h>
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
  const test_support::ReplacedFd in(0, -1);
  return test_support::run_with_current_stdin(args);
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

// `exactdp release < t.csv 1<> t.csv` (or `>> t.csv`): the table would be written over (or after)
// the input that release reads a second time. Refused before any work; the file is unchanged.
TEST(UnreadableInput, ReleaseStandardOutputTheInputFileIsRefused) {
  const std::string path = test_support::fresh_output_dir("stdout_is_stdin") + "/t.csv";
  std::string text = "count\n";
  for (int i = 0; i < 1000; ++i) text += "0\n";
  test_support::write_bytes(path, text);
  for (const int flags : {O_WRONLY, O_WRONLY | O_APPEND}) {
    const int in = ::open(path.c_str(), O_RDONLY), out = ::open(path.c_str(), flags);
    ASSERT_GE(in, 0);
    ASSERT_GE(out, 0);
    std::ostringstream err;
    int status = 0;
    {
      const test_support::ReplacedFd stdin_fd(0, in), stdout_fd(1, out);
      Io io{std::cin, std::cout, err, false};
      status = run_exactdp({"release", "--mechanism", "discrete-laplace", "--epsilon", "1/100", "--column", "count",
                            "--seed", std::string(64, '5')},
                           io);
    }
    EXPECT_EQ(status, 2) << err.str();
    EXPECT_NE(err.str().find("stdout: standard output is the file read on standard input"), std::string::npos)
        << err.str();
    EXPECT_EQ(test_support::read_text_file(path), text);
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
