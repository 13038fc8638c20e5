// The operation select (operations/select.h) called directly: every option is checked before the
// scores are read, in the face's spelling; the work limits (draws, peeling) are refused before a
// bit is drawn, for the command line and the C interface alike; the guarantee counts every round.
// tests/operations/test_c_faces.py runs the same over-limit request through the command line and C.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/operations/select.h>
#include "tests/operations/thrown.h"

namespace exactdp::operations {
namespace {

SelectRequest exponential() { return {.mechanism = "exponential", .epsilon = "1", .sensitivity = "1"}; }

std::string message_of(const SelectRequest& r) { return thrown<ParameterError>([&] { (void)plan_select(r); }).what(); }

// n scores 100 apart: each round of peeling looks at about every candidate still in play.
std::vector<mpq_class> spread_scores(int n) {
  std::vector<mpq_class> scores;
  for (int i = 0; i < n; ++i) scores.emplace_back(100 * i);
  return scores;
}

TEST(OperationsSelect, OptionsCheckedInTheFacesSpelling) {
  SelectRequest r = exponential();
  r.epsilon.reset();
  EXPECT_EQ(message_of(r), "missing required option --epsilon (see --help)");
  r.spelling = kPythonSpelling;
  EXPECT_EQ(message_of(r), "missing required argument epsilon");
  r = exponential();
  r.noise = "laplace";
  const auto noise = thrown<ParameterError>([&] { (void)plan_select(r); });
  EXPECT_EQ(noise.parameter(), "noise");
  EXPECT_STREQ(noise.what(), "--noise applies to --mechanism report-noisy-max only");
  r = exponential();
  r.draws = "10000001";
  EXPECT_EQ(message_of(r), "n = 10000001 is out of range: allowed 1 <= n <= 10000000");
  r.draws = "1000001";
  r.json = true;
  EXPECT_EQ(message_of(r), "n = 1000001 is out of range: allowed 1 <= n <= 1000000 with --json");
  r.json = false;
  EXPECT_EQ(plan_select(r).draws, 1'000'001ULL);
}

TEST(OperationsSelect, TopIsAtMostTheCandidates) {
  SelectRequest r = exponential();
  r.top = "4";
  const SelectPlan plan = plan_select(r);
  const auto e = thrown<ParameterError>([&] { (void)make_selection(plan, spread_scores(3)); });
  EXPECT_EQ(e.parameter(), "top");
  EXPECT_STREQ(e.what(), "top = 4 is out of range: allowed 1 <= top <= the number of candidates (3)");
  EXPECT_EQ(make_selection(plan, spread_scores(4)).candidates(), 4u);
}

TEST(OperationsSelect, PeelingWorkLimitIsRefusedBeforeDrawingInEitherSpelling) {
  SelectRequest r{.mechanism = "permute-and-flip", .epsilon = "1", .sensitivity = "1", .top = "2000"};
  const auto cli = thrown<LimitError>([&] { (void)make_selection(plan_select(r), spread_scores(3000)); });
  EXPECT_EQ(cli.parameter(), "top");
  const std::string text = cli.what();
  EXPECT_EQ(text.rfind("top = 2000 over 3000 candidates (x 1 draws) would take about ", 0), 0u) << text;
  EXPECT_NE(text.find("allowed at most 3000000"), std::string::npos) << text;
  EXPECT_NE(text.find("; lower --top or -n"), std::string::npos) << text;
  // The C interface peels one draw per call: the same check, its own spelling.
  r.top = "1";
  mechanisms::Selection selection = make_selection(plan_select(r), spread_scores(3000));
  const auto c = thrown<LimitError>([&] { check_select_work(selection, 2000, 1, kPythonSpelling); });
  EXPECT_EQ(std::string(c.what()), text.substr(0, text.find("; lower")) + "; lower top");
  check_select_work(selection, 100, 1, kPythonSpelling);  // 100 rounds: within the limit
}

TEST(OperationsSelect, GuaranteeCountsEveryRound) {
  SelectRequest r = exponential();
  r.top = "3";
  r.draws = "2";
  r.delta = "1e-6";
  const SelectGuarantee g = select_guarantee(plan_select(r));
  EXPECT_EQ(g.rounds, 6);
  EXPECT_EQ(g.basic, 6);
  ASSERT_TRUE(g.optimal);
  EXPECT_TRUE(g.optimal_note.empty());
  r.top = "1";
  r.draws = "1";
  const SelectGuarantee one = select_guarantee(plan_select(r));
  EXPECT_FALSE(one.optimal);
  EXPECT_EQ(one.optimal_note, "one round: epsilon is already exact with delta = 0");
}

}  // namespace
}  // namespace exactdp::operations
