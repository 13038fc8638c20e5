// cli_output_option_test.cc — `--output FILE` of aggregate and estimate, as release has it: a
// run that succeeds writes the whole table to FILE (the table stdout would get; nothing on
// stdout), and a run that fails — on a parameter, or on the input after the temporary exists —
// leaves an existing FILE byte for byte as it was (same inode) and no temporary behind.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_output_test_helpers.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"

namespace exactdp {
namespace {

using namespace test_support;

const std::string kPrecious = "precious bytes\r\nthat must survive\n";

struct TableCommand {
  std::string name;
  std::vector<std::string> base;
  std::string good_input;
  std::string bad_later_row;  // refused on a later row: after the output's temporary was made
  std::string bad_row_names;  // what that refusal names
};

std::vector<TableCommand> table_commands() {
  return {
      {"aggregate", aggregate_base(), kAggregateRecords, kAggregateRecords + "u4\n", "line 5"},
      {"estimate", estimate_base(), kEstimateRows, kEstimateRows + "5,x7\n", "line 4"},
  };
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& extra) {
  a.insert(a.end(), extra.begin(), extra.end());
  a.insert(a.end(), {"--seed", kOutputSeed});
  return a;
}

TEST(CliOutputOption, SuccessWritesTheTableToTheFile) {
  for (const TableCommand& c : table_commands()) {
    SCOPED_TRACE(c.name);
    const std::string dir = fresh_output_dir("output_ok");
    const std::string out = dir + "/table.csv";
    write_bytes(out, kPrecious);
    const CliRun r = run_cli(with(c.base, {"--output", out}), c.good_input);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    const CliRun to_stdout = run_cli(with(c.base, {}), c.good_input);
    ASSERT_EQ(to_stdout.status, 0) << to_stdout.err;
    EXPECT_FALSE(to_stdout.out.empty());
    EXPECT_EQ(read_text_file(out), to_stdout.out);
    EXPECT_EQ(dir_entries(dir), std::vector<std::string>{"table.csv"});
    // With --json too: both written.
    const CliRun both = run_cli(with(c.base, {"--output", dir + "/t2.csv", "--json", dir + "/g.json"}), c.good_input);
    ASSERT_EQ(both.status, 0) << both.err;
    EXPECT_EQ(read_text_file(dir + "/t2.csv"), to_stdout.out);
    EXPECT_EQ(read_text_file(dir + "/g.json").rfind("{", 0), 0u);
  }
}

TEST(CliOutputOption, ErrorLeavesTheFileAndNoTemporary) {
  for (const TableCommand& c : table_commands()) {
    SCOPED_TRACE(c.name);
    const std::string dir = fresh_output_dir("output_err");
    const std::string out = dir + "/table.csv";
    write_bytes(out, kPrecious);
    const PathState before = path_state(out);
    // A bad parameter (epsilon), refused while parsing.
    std::vector<std::string> bad_epsilon = c.base;
    bad_epsilon.back() = "-1";
    expect_rejected_naming(run_cli(with(bad_epsilon, {"--output", out}), c.good_input), "epsilon");
    EXPECT_EQ(path_state(out), before);
    // A bad later row: refused after the temporary was created.
    const CliRun bad = run_cli(with(c.base, {"--output", out, "--json", dir + "/g.json"}), c.bad_later_row);
    expect_rejected_naming(bad, c.bad_row_names);
    EXPECT_EQ(path_state(out), before);
    EXPECT_EQ(dir_entries(dir), std::vector<std::string>{"table.csv"});
    // A new path stays absent.
    expect_rejected_naming(run_cli(with(c.base, {"--output", dir + "/new.csv"}), c.bad_later_row), c.bad_row_names);
    EXPECT_EQ(dir_entries(dir), std::vector<std::string>{"table.csv"});
  }
}

TEST(CliOutputOption, HelpMentionsOutput) {
  for (const std::string command : {"aggregate", "estimate"}) {
    const CliRun r = run_cli({command, "--help"});
    EXPECT_NE(r.out.find("--output FILE"), std::string::npos) << command;
  }
}

}  // namespace
}  // namespace exactdp
