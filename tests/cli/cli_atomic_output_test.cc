// cli_atomic_output_test.cc — output files are all or nothing and never the input: AtomicOutputFile
// itself (commit, abandon), and `exactdp release --json FILE / --output FILE` and `profile --svg`
// end to end: a failed run leaves FILE byte for byte as it was and no temporary behind; an
// output that is the file on standard input (fd 0) is refused with exit 2 naming the option.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/atomic_output.h"
#include "cli/commands.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_output_test_helpers.h"
#include "tests/cli/cli_test_helpers.h"
#include <exactdp/core/errors.h>

namespace exactdp {
namespace {
namespace cli_atomic_output_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using namespace test_support;

const std::string kSeed(64, 'a');
const std::string kTable = "region,count\nNorth,10\nSouth,20\n";
// A bad cell in a LATER row: pass 1 refuses it after reading the good rows.
const std::string kBadLaterRow = "region,count\nNorth,10\nSouth,20\nWest,x7\n";
const std::string kPrecious = "precious bytes\r\nthat must survive\n";

// A fresh, empty directory per test.
std::string fresh_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "atomic_" + name + "_" + std::to_string(::getpid());
  (void)std::system(("rm -rf '" + dir + "'").c_str());
  EXPECT_EQ(::mkdir(dir.c_str(), 0700), 0);
  return dir;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  return names;
}

std::vector<std::string> release(std::vector<std::string> extra) {
  std::vector<std::string> a = {"release", "--mechanism", "discrete-laplace", "--epsilon", "1",
                                "--column", "count", "--seed", kSeed};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(AtomicOutputFile, AppearsOnlyOnCommit) {
  const std::string dir = fresh_dir("commit");
  const std::string path = dir + "/out.txt";
  write_file(path, kPrecious);
  {
    cli::AtomicOutputFile file("--out", path);
    file.stream() << "new contents\n";
    file.stream().flush();
    EXPECT_EQ(read_text_file(path), kPrecious);  // written, not yet committed
    EXPECT_EQ(entries(dir).size(), 2u);          // the target and the hidden temporary
    file.commit();
  }
  EXPECT_EQ(read_text_file(path), "new contents\n");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"out.txt"});
}

TEST(AtomicOutputFile, AbandonedLeavesTargetAndNoTemporary) {
  const std::string dir = fresh_dir("abandon");
  const std::string path = dir + "/out.txt";
  write_file(path, kPrecious);
  {
    cli::AtomicOutputFile file("--out", path);
    file.stream() << std::string(200000, 'z');  // more than the buffer: reaches the temporary
  }
  EXPECT_EQ(read_text_file(path), kPrecious);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"out.txt"});
}

TEST(AtomicOutputFile, MissingDirectoryRefusedUpFront) {
  EXPECT_THROW(cli::AtomicOutputFile("--json", "/nonexistent-dir-exactdp/x.json"), ParameterError);
}

TEST(CliReleaseAtomic, FailedRunLeavesJsonFileUnchanged) {
  const std::string dir = fresh_dir("json_fail");
  const std::string path = dir + "/report.json";
  write_file(path, kPrecious);
  const auto r = run_cli(release({"--json", path}), kBadLaterRow);
  expect_rejected_naming(r, "line 4");
  EXPECT_EQ(read_text_file(path), kPrecious);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"report.json"});
}

TEST(CliReleaseAtomic, OutputFileAppearsOnlyComplete) {
  const std::string dir = fresh_dir("output");
  const std::string out = dir + "/noisy.csv";
  // A failed run (bad cell in a later row): no file, no temporary, nothing on stdout.
  const auto bad = run_cli(release({"--output", out}), kBadLaterRow);
  expect_rejected_naming(bad, "line 4");
  EXPECT_TRUE(entries(dir).empty());
  // An existing file survives a failed run byte for byte.
  write_file(out, kPrecious);
  expect_rejected_naming(run_cli(release({"--output", out}), kBadLaterRow), "line 4");
  EXPECT_EQ(read_text_file(out), kPrecious);
  // A good run writes the whole table to the file and nothing to stdout; same table as stdout.
  const auto good = run_cli(release({"--output", out}), kTable);
  ASSERT_EQ(good.status, 0) << good.err;
  EXPECT_TRUE(good.out.empty());
  EXPECT_EQ(read_text_file(out), run_cli(release({}), kTable).out);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"noisy.csv"});
}

TEST(CliReleaseAtomic, OutputOntoTheInputIsRefused) {
  const std::string dir = fresh_dir("onto_input");
  const std::string table = dir + "/table.csv";
  write_file(table, kTable);
  for (const std::string option : {"--json", "--output"}) {
    const auto r = run_with_stdin_path(release({option, table}), table);
    expect_rejected_naming(r, option + " = ");
    EXPECT_NE(r.err.find("standard input"), std::string::npos) << r.err;
    EXPECT_EQ(read_text_file(table), kTable) << option;
  }
  // Power: another file with the same stdin works (the check is not refusing everything).
  const auto ok = run_with_stdin_path(release({"--json", dir + "/g.json"}), table);
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(read_text_file(table), kTable);
}

TEST(CliReleaseAtomic, JsonAndOutputMustDiffer) {
  const std::string dir = fresh_dir("same");
  const auto r = run_cli(release({"--json", dir + "/x", "--output", dir + "/x"}), kTable);
  expect_rejected_naming(r, "the same file");
  EXPECT_TRUE(entries(dir).empty());
}

TEST(CliProfileAtomic, SvgWrittenWhole) {
  const std::string dir = fresh_dir("svg");
  const std::string path = dir + "/p.svg";
  write_file(path, kPrecious);
  const auto r = run_cli({"profile", "discrete-gaussian", "--sigma2", "4", "--curve", "0", "4",
                          "30", "--svg", path});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string svg = read_text_file(path);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>\n"), std::string::npos);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"p.svg"});
}

}  // namespace cli_atomic_output_test
}  // namespace
}  // namespace exactdp
