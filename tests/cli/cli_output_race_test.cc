// cli_output_race_test.cc — a target that changes while the run writes: AtomicOutputFile's commit
// replaces only what was checked. A new path where something appeared (a FIFO, a file), or an
// existing file that became a symbolic link, a FIFO or another file, is left as it is (commit
// throws, no temporary behind); a target removed during the run is written as a new path.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/atomic_output.h"
#include "tests/cli/cli_output_test_helpers.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/errors.h>

namespace exactdp {
namespace {

using namespace test_support;

// Starts an output to `path`, lets `change` act on the path, then commits: commit must throw,
// and the path must be as `change` left it, with no temporary beside it.
void expect_commit_refused(const std::string& dir, const std::string& path, void (*change)(const std::string&)) {
  cli::AtomicOutputFile file("--json", path);
  file.stream() << "new contents\n";
  change(path);
  const PathState changed = path_state(path);
  const std::vector<std::string> entries = dir_entries(dir);
  try {
    file.commit();
    ADD_FAILURE() << "commit replaced a target that changed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--json"), std::string::npos) << e.what();
  }
  EXPECT_EQ(path_state(path), changed);
  EXPECT_EQ(dir_entries(dir), entries);  // the temporary is still there until the destructor
}

void make_fifo(const std::string& path) { ASSERT_EQ(::mkfifo(path.c_str(), 0666), 0); }
void make_file(const std::string& path) { write_bytes(path, "someone else's file\n"); }
void replace_by_fifo(const std::string& path) {
  ASSERT_EQ(::unlink(path.c_str()), 0);
  make_fifo(path);
}
void replace_by_symlink(const std::string& path) {
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_EQ(::symlink("elsewhere", path.c_str()), 0);
}
void replace_by_other_file(const std::string& path) {
  ASSERT_EQ(::rename((path + ".other").c_str(), path.c_str()), 0);
}

TEST(OutputRace, NewPathWhereSomethingAppeared) {
  for (auto* appear : {make_fifo, make_file}) {
    const std::string dir = fresh_output_dir("race_new");
    expect_commit_refused(dir, dir + "/out.json", appear);
    EXPECT_EQ(dir_entries(dir), std::vector<std::string>{"out.json"});  // and no temporary once abandoned
  }
}

TEST(OutputRace, ExistingFileThatChanged) {
  for (auto* change : {replace_by_fifo, replace_by_symlink, replace_by_other_file}) {
    const std::string dir = fresh_output_dir("race_existing");
    const std::string path = dir + "/out.json";
    write_bytes(path, "checked file\n");
    write_bytes(path + ".other", "another file\n");
    expect_commit_refused(dir, path, change);
    const std::vector<std::string> left = dir_entries(dir);
    EXPECT_TRUE(left == std::vector<std::string>{"out.json"} ||
                left == (std::vector<std::string>{"out.json", "out.json.other"}));
  }
}

TEST(OutputRace, UnchangedOrRemovedTargetIsWritten) {  // power
  const std::string dir = fresh_output_dir("race_ok");
  const std::string path = dir + "/out.json";
  write_bytes(path, "checked file\n");
  {
    cli::AtomicOutputFile file("--json", path);
    file.stream() << "new contents\n";
    file.commit();
  }
  EXPECT_EQ(read_text_file(path), "new contents\n");
  {
    cli::AtomicOutputFile file("--json", path);
    file.stream() << "again\n";
    ASSERT_EQ(::unlink(path.c_str()), 0);
    file.commit();
  }
  EXPECT_EQ(read_text_file(path), "again\n");
  EXPECT_EQ(dir_entries(dir), std::vector<std::string>{"out.json"});
}

TEST(OutputRace, ConstructorRefusesBadTargets) {
  for (const RefusedTarget& t : refused_targets()) {
    SCOPED_TRACE(t.kind);
    const std::string dir = fresh_output_dir("ctor");
    const std::string path = t.make(dir);
    const std::vector<std::string> entries = dir_entries(dir);
    EXPECT_THROW(cli::AtomicOutputFile("--json", path), ParameterError);
    EXPECT_EQ(dir_entries(dir), entries);
  }
}

}  // namespace
}  // namespace exactdp
