// The operation release (operations/release.h) called directly: every option is checked before
// the table is read, in either face's spelling; the contributions limit is the same check for the
// CSV release and the in-memory one; the report holds the per-column choices in header order; and
// the in-memory release draws the same noise as the CSV release with the same seed.
// tests/operations/test_faces.py runs the same over-limit request through the command line and Python.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/operations/release.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/operations/thrown.h"
#include "tests/support/seeds.h"

namespace exactdp::operations {
namespace {

constexpr unsigned kSuite = 3901;

ReleaseRequest laplace() {
  return {.columns = {"count", "amount"}, .mechanism = "discrete-laplace", .epsilon = "1"};
}

std::string message_of(const ReleaseRequest& r) {
  return thrown<ParameterError>([&] { (void)plan_release(r); }).what();
}

TEST(OperationsRelease, RequiredOptionsNamedInTheFacesSpelling) {
  ReleaseRequest r = laplace();
  r.mechanism.reset();
  EXPECT_EQ(message_of(r), "missing required option --mechanism (see --help)");
  r.spelling = kPythonSpelling;
  EXPECT_EQ(message_of(r), "missing required argument mechanism");
  r = laplace();
  r.columns.clear();
  EXPECT_EQ(message_of(r), "release needs at least one --column NAME to noise");
  r = laplace();
  r.round = "nearest";
  EXPECT_EQ(message_of(r), "--round needs --granularity");
}

TEST(OperationsRelease, ContributionsLimitIsOneCheckForBothInputs) {
  ReleaseRequest r = laplace();
  r.contributions = "1000001";
  const auto csv = thrown<ParameterError>([&] { (void)plan_release(r); });
  EXPECT_EQ(csv.parameter(), "contributions");
  EXPECT_STREQ(csv.what(), "contributions = 1000001 is out of range: allowed 1 <= contributions <= 1000000");
  r.contributions = "1000000";
  EXPECT_EQ(plan_release(r).model.contributions, 1'000'000UL);
  const ReleaseValuesRequest values{.mechanism = "discrete-laplace", .epsilon = "1", .contributions = "1000001",
                                    .columns = {{}}};
  const auto memory = thrown<ParameterError>([&] { (void)plan_release_values(values); });
  EXPECT_EQ(memory.parameter(), "contributions");
  EXPECT_STREQ(memory.what(), csv.what());
}

TEST(OperationsRelease, PerColumnValuesBelongToNamedColumnsOnce) {
  ReleaseRequest r = laplace();
  r.per_column = {{"sensitivity", "total", "5"}};
  const auto unknown = thrown<ParameterError>([&] { (void)plan_release(r); });
  EXPECT_EQ(unknown.parameter(), "column");
  EXPECT_STREQ(unknown.what(),
               "column 'total' (in --sensitivity total=5) is not a noised column: name it with --column");
  r.per_column = {{"sensitivity", "amount", "5"}, {"sensitivity", "amount", "6"}};
  EXPECT_EQ(message_of(r), "option --sensitivity given more than once for column 'amount'");
  r.per_column = {{"round", "count", "nearest"}};
  EXPECT_EQ(message_of(r), "--round count=... needs a granularity for column 'count'");
  r.per_column = {{"granularity", "amount", "0.01"}, {"sensitivity", "amount", "0"}};
  const auto bad = thrown<ParameterError>([&] { (void)plan_release(r); });
  EXPECT_EQ(bad.parameter(), "sensitivity");
  EXPECT_EQ(std::string(bad.what()).rfind("column 'amount': ", 0), 0u) << bad.what();
}

TEST(OperationsRelease, PlanHoldsEachColumnsGridAndDelta) {
  ReleaseRequest r = laplace();
  r.per_column = {{"granularity", "amount", "0.01"}, {"sensitivity", "amount", "5"}};
  const ReleasePlan plan = plan_release(r);
  ASSERT_EQ(plan.per_column.size(), 2u);
  EXPECT_FALSE(plan.per_column[0].grid);
  EXPECT_EQ(plan.per_column[0].delta, 1);
  ASSERT_TRUE(plan.per_column[1].grid);
  EXPECT_EQ(plan.per_column[1].grid->granularity, mpq_class(1, 100));
  EXPECT_EQ(plan.per_column[1].delta, 500);
  EXPECT_EQ(plan.model.column_sensitivities, (std::vector<mpz_class>{1, 500}));
}

// The CSV release of `csv` under `r` with the suite's seed `index`: the noisy table and the report.
std::string csv_release(const ReleaseRequest& r, const std::string& csv, ReleaseReport& report) {
  const ReleasePlan plan = plan_release(r);
  std::istringstream in(csv);
  const std::unique_ptr<mechanisms::TwoPassInput> input = mechanisms::TwoPassInput::from_stream(in);
  report = scan_release(plan, *input);
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  std::ostringstream out;
  write_release_table(plan, report, *input, out, bits);
  return out.str();
}

TEST(OperationsRelease, ReportIsInHeaderOrderAndMatchesTheInMemoryRelease) {
  ReleaseRequest r = laplace();
  r.columns = {"amount", "count"};  // asked in the other order: drawn in header order
  r.per_column = {{"granularity", "amount", "0.01"}, {"sensitivity", "amount", "5"}};
  ReleaseReport report;
  const std::string table = csv_release(r, "key,count,amount\na,3,1.25\nb,7,-0.50\n", report);
  EXPECT_EQ(report.noised, (std::vector<std::string>{"count", "amount"}));
  ASSERT_EQ(report.per_column.size(), 2u);
  EXPECT_FALSE(report.per_column[0].grid);
  EXPECT_TRUE(report.per_column[1].grid);
  EXPECT_EQ(report.calibration.cells, 4u);
  EXPECT_EQ(report.calibration.noise_of(1), 1000);  // C K Delta_c / epsilon = 2 * 500

  ReleaseValuesRequest memory{.mechanism = "discrete-laplace", .epsilon = "1"};
  memory.columns = {{}, {.granularity = "0.01", .sensitivity = "5"}};
  std::vector<std::vector<mpq_class>> values = {{3, 7}, {mpq_class(5, 4), mpq_class(-1, 2)}};
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  const ReleaseValuesReport noisy = release_values(plan_release_values(memory), values, bits);
  std::istringstream lines(table);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "key,count,amount");
  for (std::size_t row = 0; row < 2; ++row) {
    std::getline(lines, line);
    EXPECT_EQ(line, std::string(row == 0 ? "a" : "b") + "," + noisy.values[0][row] + "," + noisy.values[1][row]);
  }
  EXPECT_EQ(noisy.calibration.noise_of(1), report.calibration.noise_of(1));
}

TEST(OperationsRelease, DrawCostIsRefusedBeforeAnyNoiseForBothInputs) {
  // scale = 1 / epsilon holds the 10,000 digits of epsilon: about 240 us a draw (the discrete
  // Laplace's Law::draw_costs), 16,666 draws in 4 s.
  ReleaseRequest r{.columns = {"v"}, .mechanism = "discrete-laplace", .epsilon = "1e-9999"};
  std::string csv = "v\n";
  for (int i = 0; i < 16'667; ++i) csv += "1\n";
  ReleaseReport report;
  const auto e = thrown<LimitError>([&] { (void)csv_release(r, csv, report); });
  EXPECT_EQ(e.parameter(), "epsilon");
  EXPECT_STREQ(e.what(), "cells = 16667 (rows x noised columns) is over the cost limit of discrete-laplace at "
                         "parameters of 10000 digits (scale 10000): allowed at most 16666 draws (each takes about "
                         "240 us)");
  const ReleaseValuesRequest memory{.mechanism = "discrete-laplace", .epsilon = "1e-9999", .columns = {{}}};
  std::vector<std::vector<mpq_class>> values = {std::vector<mpq_class>(16'667, 1)};
  SeededBits bits(test_support::fixed_seed(kSuite, 2));
  const auto m = thrown<LimitError>([&] { (void)release_values(plan_release_values(memory), values, bits); });
  EXPECT_STREQ(m.what(), e.what());
  EXPECT_EQ(bits.bits_consumed(), 0u);
  values[0].resize(20);  // few cells: drawn
  EXPECT_EQ(release_values(plan_release_values(memory), values, bits).values[0].size(), 20u);
}

}  // namespace
}  // namespace exactdp::operations
