// score_budget.h — the memory limit of a selection's scores, checked before GMP allocates.
//
// A score is held exactly (mpq_class): "1e100000" is eight characters of text but 41.5 KB of
// numerator, and a selection keeps a few copies of every score (the scores, the first round's
// coins, the inversion table or the grid scores of report-noisy-max). Without a bound, 10^6 such
// lines ask GMP for tens of GB and GMP aborts the process ("Cannot allocate memory"), which no
// caller can catch. So the scores together may hold at most kMaxScoreBits bits of numerators and
// denominators (32 MiB; 10^6 scores of up to 80 digits each, or 800 scores of 10^100000),
// counted as each score is read (one score is itself at most ~46 KB: core/rational.h) and
// again before any derived copy is made. What the selection derives from the scores (weights
// that also hold epsilon's and Delta's digits, grid scores, noise) has its own up-front limits:
// selection_cost.h.
//
// Errors: LimitError naming "scores" with the limit and, when known, the line or index where the
// running total passed it. Thread-safety: a ScoreBudget is a plain counter; one per reader.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <string>
#include <vector>

namespace exactdp::mechanisms {

// 2^28 bits = 32 MiB of numerators and denominators over all scores.
inline constexpr unsigned long long kMaxScoreBits = 1ULL << 28;

// The bits a score occupies: the sizes of its numerator and denominator.
[[nodiscard]] unsigned long long score_bits(const mpq_class& score);

class ScoreBudget {
 public:
  // Adds one score; LimitError naming "scores" once the total passes kMaxScoreBits. `where`
  // ("line 812", "scores[811]") goes into the message.
  void add(const mpq_class& score, const std::string& where);
  // Adds an estimated number of bits for a derived copy (the grid scores of report-noisy-max).
  void add_bits(unsigned long long bits, const std::string& what);
  [[nodiscard]] unsigned long long total() const noexcept { return total_; }

 private:
  unsigned long long total_ = 0;
};

// Checks a whole vector of scores against the limit (Selection::make does, for callers that
// built the vector themselves).
void check_score_bits(const std::vector<mpq_class>& scores);

}  // namespace exactdp::mechanisms
