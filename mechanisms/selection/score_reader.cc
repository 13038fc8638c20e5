#include <exactdp/mechanisms/selection/score_reader.h>

#include <exactdp/mechanisms/selection/score_budget.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

std::vector<mpq_class> read_scores(std::istream& in) {
  std::vector<mpq_class> scores;
  ScoreBudget budget;  // the total size, checked as each score is read
  std::string line;
  unsigned long long line_number = 0;
  for (;;) {
    line.clear();
    bool saw_newline = false;
    int c;
    while ((c = in.get()) != std::char_traits<char>::eof()) {
      if (c == '\n') {
        saw_newline = true;
        break;
      }
      if (line.size() >= kMaxScoreLineLength) {
        throw LimitError("scores", "scores: line " + std::to_string(line_number + 1) +
                                       " is longer than " + std::to_string(kMaxScoreLineLength) +
                                       " characters");
      }
      line.push_back(static_cast<char>(c));
    }
    if (in.bad()) throw ParameterError("scores", "scores: read error on the input");
    if (!saw_newline && line.empty()) break;  // end of input (a final newline is not a line)
    ++line_number;
    std::size_t b = 0, e = line.size();
    while (b < e && is_blank(line[b])) ++b;
    while (e > b && is_blank(line[e - 1])) --e;
    if (b == e) {
      throw ParameterError("scores", "scores: line " + std::to_string(line_number) +
                                         " is empty (expected one rational score)");
    }
    if (scores.size() >= kMaxCandidates) {
      throw LimitError("scores", "scores: more than " + std::to_string(kMaxCandidates) +
                                     " candidates (the limit)");
    }
    try {
      scores.push_back(parse_rational("score", std::string_view(line).substr(b, e - b)));
    } catch (const LimitError& err) {
      throw LimitError("scores", "scores: line " + std::to_string(line_number) + ": " + err.what());
    } catch (const ParameterError& err) {
      throw ParameterError("scores", "scores: line " + std::to_string(line_number) + ": " + err.what());
    }
    budget.add(scores.back(), "line " + std::to_string(line_number));
    if (!saw_newline) break;
  }
  if (scores.empty()) {
    throw ParameterError("scores", "scores: no candidates on the input: allowed 1 to " +
                                       std::to_string(kMaxCandidates) + " lines, one score each");
  }
  return scores;
}

}  // namespace exactdp::mechanisms
