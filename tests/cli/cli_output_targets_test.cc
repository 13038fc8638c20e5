// cli_output_targets_test.cc — every option that writes a file (release --json/--output,
// aggregate --json/--output, estimate --json/--output, profile --svg, measure-gdp --svg) refuses,
// with exit 2 naming the option and before any work, a target that is not a new path or a
// writable regular file (a character device, a FIFO, a socket, a directory, a symbolic link to a
// file or a dangling one, a 0444 file: as root and as another user), or that is an input of the
// run (stdin, --keys, --seed-file); the refused target is left exactly as it was (type, inode,
// contents) and no temporary is left beside it. A regular file is still replaced (power).
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/atomic_output.h"
#include "cli/output_target.h"
#include "tests/cli/cli_output_test_helpers.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/errors.h>

namespace exactdp {
namespace {

using namespace test_support;

// Runs `w` writing `target` (made in `dir`), and checks the refusal and that nothing changed.
void check_refused(const OutputWriter& w, const std::string& target, const std::string& dir,
                   const std::string& says, std::vector<std::string> extra = {}) {
  SCOPED_TRACE(w.name + " " + w.option + " " + target);
  const PathState before = path_state(target);
  const std::vector<std::string> entries = dir_entries(dir);
  const CliRun r = run_cli(w.writing(target, std::move(extra)), w.input);
  expect_rejected_naming(r, w.option + " = ");
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  // Refused up front by the checks themselves (a refusal when the file is finally written comes
  // later, after the work, and wrapped: "--svg: --svg = ...").
  EXPECT_EQ(r.err.rfind("exactdp: " + w.option + " = ", 0), 0u) << r.err;
  EXPECT_EQ(path_state(target), before);
  EXPECT_EQ(dir_entries(dir), entries);
}

TEST(OutputTargets, SpecialFilesAndReadOnlyAreRefused) {
  for (const OutputWriter& w : output_writers()) {
    for (const RefusedTarget& t : refused_targets()) {
      const std::string dir = fresh_output_dir("kind");
      const std::string target = t.make(dir);
      check_refused(w, target, dir, t.says);
      if (t.kind == "symlink to a regular file") {
        EXPECT_EQ(read_text_file(dir + "/real.txt"), "the file the link names\n");
      }
    }
  }
}

TEST(OutputTargets, RegularFileAndNewPathAreWritten) {  // power: the checks refuse only what they should
  for (const OutputWriter& w : output_writers()) {
    SCOPED_TRACE(w.name + " " + w.option);
    const std::string dir = fresh_output_dir("power");
    const std::string existing = dir + "/existing.txt";
    write_bytes(existing, "old\n");
    const CliRun a = run_cli(w.writing(existing), w.input);
    EXPECT_EQ(a.status, 0) << a.err;
    EXPECT_NE(read_text_file(existing), "old\n");
    const CliRun b = run_cli(w.writing(dir + "/new.txt"), w.input);
    EXPECT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(dir_entries(dir), (std::vector<std::string>{"existing.txt", "new.txt"}));
  }
}

TEST(OutputTargets, TheFileOnStandardInputIsRefused) {
  for (const OutputWriter& w : output_writers()) {
    if (!w.reads_stdin) continue;
    SCOPED_TRACE(w.name + " " + w.option);
    const std::string dir = fresh_output_dir("stdin");
    const std::string input = dir + "/input.csv";
    write_bytes(input, w.input);
    const PathState before = path_state(input);
    const CliRun r = run_with_stdin_path(w.writing(input), input);
    expect_rejected_naming(r, w.option + " = ");
    EXPECT_NE(r.err.find("is the file read on standard input"), std::string::npos) << r.err;
    EXPECT_EQ(path_state(input), before);
    EXPECT_EQ(dir_entries(dir), std::vector<std::string>{"input.csv"});
  }
}

TEST(OutputTargets, TheSeedFileIsRefused) {
  for (const OutputWriter& w : output_writers()) {
    if (!w.seeded) continue;
    const std::string dir = fresh_output_dir("seed");
    const std::string seed = dir + "/seed.hex";
    write_bytes(seed, kOutputSeed + "\n");
    check_refused(w, seed, dir, "is the file given to --seed-file", {"--seed-file", seed});
  }
}

TEST(OutputTargets, TheKeysFileIsRefusedEvenThroughAHardLink) {
  for (const OutputWriter& w : output_writers()) {
    if (w.name != "aggregate") continue;
    const std::string dir = fresh_output_dir("keys");
    const std::string keys = dir + "/keys.csv";
    write_bytes(keys, "region\na\nb\n");
    check_refused(w, keys, dir, "is the file given to --keys", {"--keys", keys});
    ASSERT_EQ(::link(keys.c_str(), (dir + "/alias.csv").c_str()), 0);
    check_refused(w, dir + "/alias.csv", dir, "is the file given to --keys", {"--keys", keys});
  }
}

TEST(OutputTargets, TwoOutputsNamingOneFileAreRefused) {
  for (const OutputWriter& w : output_writers()) {
    if (w.option != "--json") continue;
    SCOPED_TRACE(w.name);
    const std::string dir = fresh_output_dir("same");
    const CliRun r = run_cli(w.writing(dir + "/x", {"--output", dir + "/x"}), w.input);
    expect_rejected_naming(r, "the same file");
    EXPECT_TRUE(dir_entries(dir).empty());
  }
}

// As another user (nobody, when the tests run as root): a 0444 file is refused on its mode, and
// a 0644 file owned by root is refused as not writable; a new path in a writable directory is
// written. The runs happen in a child process that reports its failures on a pipe.
std::string read_only_failures_as(bool switch_user, const std::string& dir) {
  std::string failures;
  if (switch_user && (::setgid(65534) != 0 || ::setuid(65534) != 0)) return "skip: cannot become uid 65534";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return "skip: the test directory is out of uid 65534's reach";
  for (const OutputWriter& w : output_writers()) {
    const std::string tag = w.name + " " + w.option + ": ";
    const CliRun ro = run_cli(w.writing(dir + "/ro.txt"), w.input);
    if (ro.status != 2 || ro.err.find(w.option + " = ") == std::string::npos ||
        ro.err.find("is read-only (mode 0444)") == std::string::npos) {
      failures += tag + "0444 not refused: " + ro.err + "\n";
    }
    if (switch_user) {
      const CliRun theirs = run_cli(w.writing(dir + "/roots.txt"), w.input);
      if (theirs.status != 2 || theirs.err.find("is not writable by this user (mode 0644)") == std::string::npos) {
        failures += tag + "root's 0644 file not refused: " + theirs.err + "\n";
      }
    }
    const CliRun fresh = run_cli(w.writing(dir + "/new-" + std::to_string(::geteuid()) + w.name + w.option), w.input);
    if (fresh.status != 0) failures += tag + "a new path failed: " + fresh.err + "\n";
  }
  return failures;
}

// read_only_failures_as(true, dir) in a child process, its answer read back on a pipe.
std::string failures_as_nobody(const std::string& dir) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child < 0) return "fork failed";
  if (child == 0) {
    ::close(pipe_fds[0]);
    const std::string failures = read_only_failures_as(true, dir);
    (void)!::write(pipe_fds[1], failures.data(), failures.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string failures;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) failures.append(buf, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return failures;
}

TEST(OutputTargets, ReadOnlyRefusedForRootAndOtherUsers) {
  const std::string dir = fresh_output_dir("readonly");
  write_bytes(dir + "/ro.txt", "read-only bytes\n");
  ASSERT_EQ(::chmod((dir + "/ro.txt").c_str(), 0444), 0);
  write_bytes(dir + "/roots.txt", "root's bytes\n");
  ASSERT_EQ(::chmod((dir + "/roots.txt").c_str(), 0644), 0);
  const PathState ro = path_state(dir + "/ro.txt");
  const PathState roots = path_state(dir + "/roots.txt");
  EXPECT_EQ(read_only_failures_as(false, dir), "");  // as whoever runs the tests (root in CI)
  const std::string as_nobody = ::geteuid() == 0 ? failures_as_nobody(dir) : "";
  EXPECT_EQ(path_state(dir + "/ro.txt"), ro);
  EXPECT_EQ(path_state(dir + "/roots.txt"), roots);
  if (as_nobody.rfind("skip:", 0) == 0) GTEST_SKIP() << as_nobody;
  EXPECT_EQ(as_nobody, "") << "as uid 65534";
}

TEST(OutputTargets, CheckNamesTheRealDevNull) {
  try {
    (void)cli::check_output_target("--json", "/dev/null");
    ADD_FAILURE() << "/dev/null accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("--json = /dev/null is a character device"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cli::check_output_target("--svg", ""), ParameterError);
  EXPECT_FALSE(cli::check_output_target("--svg", fresh_output_dir("new") + "/absent.svg").exists);
}

}  // namespace
}  // namespace exactdp
