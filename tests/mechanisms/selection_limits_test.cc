// selection_limits_test.cc — the size and work limits of exact selection (score_budget.h,
// Selection::estimated_peeling_steps): huge score magnitudes are refused with LimitError naming
// "scores" after a bounded read, in the score reader, in Selection::make and through the C
// interface (EXACTDP_E_LIMIT, never GMP's abort); the peeling estimate tracks the cost model
// (spread scores: about n steps a round; close scores: a few). Speed is measured in
// bench/selection_limits_bench.cc, not here.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <exactdp/exactdp.h>
#include <exactdp/mechanisms/selection/score_budget.h>
#include <exactdp/mechanisms/selection/score_reader.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/core/errors.h>

namespace exactdp::mechanisms {
namespace {

std::string repeat_lines(const std::string& line, std::size_t n) {
  std::string text;
  text.reserve((line.size() + 1) * n);
  for (std::size_t i = 0; i < n; ++i) text += line + "\n";
  return text;
}

TEST(ScoreBudget, HugeMagnitudesRefusedWhileReading) {
  // 1e100000 holds 332,193 bits: the 809th such line passes 2^28 bits.
  std::istringstream in(repeat_lines("1e100000", 30'000));
  try {
    (void)read_scores(in);
    FAIL() << "30,000 scores of 1e100000 were accepted";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "scores");
    EXPECT_NE(std::string(e.what()).find("line 809"), std::string::npos) << e.what();
  }
  // Power: 800 of them are within the limit (the check is not refusing the magnitude itself).
  std::istringstream fits(repeat_lines("1e100000", 800));
  EXPECT_EQ(read_scores(fits).size(), 800u);
}

TEST(ScoreBudget, SelectionMakeChecksVectorsBuiltByTheCaller) {
  std::vector<mpq_class> scores(900, mpq_class(mpz_class("1" + std::string(100'000, '0'))));
  EXPECT_THROW((void)Selection::make(scores, SelectionOptions{}), LimitError);
  scores.resize(800);
  EXPECT_NO_THROW((void)Selection::make(scores, SelectionOptions{}));
}

TEST(ScoreBudget, NoisyMaxGridScoresAreBounded) {
  // Denominators 2^65000 and 3: D has ~65,000 bits, and 10^4 grid scores of that size would be
  // 81 MB: n * bits(D) is over 2^28, refused before any is made.
  std::vector<mpq_class> scores(10'000, mpq_class(1, 3));
  scores[0] = mpq_class(mpz_class(1), mpz_class(1) << 65'000);
  SelectionOptions o;
  o.mechanism = SelectionMechanism::kReportNoisyMax;
  EXPECT_THROW((void)Selection::make(scores, o), LimitError);
  scores.resize(100);  // 100 * 65,000 bits: fine
  EXPECT_NO_THROW((void)Selection::make(scores, o));
}

TEST(ScoreBudget, CInterfaceReturnsLimitInsteadOfAborting) {
  const std::vector<std::string> text(20'000, "1e100000");
  std::vector<const char*> scores;
  for (const auto& s : text) scores.push_back(s.c_str());
  exactdp_selection* sel = nullptr;
  EXPECT_EQ(exactdp_selection_new("exponential", nullptr, "1", "1", 0, scores.data(), scores.size(), &sel),
            EXACTDP_E_LIMIT);
  EXPECT_EQ(sel, nullptr);
  EXPECT_NE(std::string(exactdp_last_error()).find("scores[808]"), std::string::npos)
      << exactdp_last_error();
  EXPECT_EQ(exactdp_selection_new("exponential", nullptr, "1", "1", 0, scores.data(), 100, &sel),
            EXACTDP_OK);
  exactdp_selection_free(sel);
}

TEST(PeelingEstimate, SpreadScoresCostAboutNARoundCloseScoresAFew) {
  std::vector<mpq_class> spread, close;
  for (int i = 0; i < 1000; ++i) {
    spread.emplace_back(100 * i);  // gaps of 50 / c: every round w = 1
    close.emplace_back(i % 3);     // within 2 / c: w is most of what is left
  }
  Selection s = Selection::make(spread, SelectionOptions{});
  Selection c = Selection::make(close, SelectionOptions{});
  // Spread: round r costs 3 (n - r): sum over 100 rounds = 3 (100 n - 4950).
  EXPECT_EQ(s.estimated_peeling_steps(100), 3ULL * (100 * 1000 - 4950));
  EXPECT_LT(c.estimated_peeling_steps(100), 1000u);
  SelectionOptions rnm;
  rnm.mechanism = SelectionMechanism::kReportNoisyMax;
  Selection r = Selection::make(close, rnm);
  EXPECT_EQ(r.estimated_peeling_steps(10), (10ULL * 1000 - 45) / 16 + 1);  // n - r noises a round
}

}  // namespace
}  // namespace exactdp::mechanisms
