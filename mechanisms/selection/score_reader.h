// score_reader.h — reads the candidate scores of a selection (selection.h) from text: one exact
// rational per line, in the forms of core/rational.h ("3", "-1/3", "0.25", "1e-3"), blanks
// (space, tab, CR) around it allowed, a final newline optional.
// Limits: at most kMaxCandidates lines and kMaxScoreLineLength characters a line (the parser's
// own digit and exponent limits apply too) and kMaxScoreBits bits of numerators and
// denominators in all (score_budget.h), checked while reading, so memory stays bounded whatever
// the input (30,000 lines of 1e100000 are refused at line 809, not held as 1.2 GB).
// Errors: ParameterError naming "scores" and the line ("scores: line 3: ..."), LimitError over a
// limit, ParameterError for an empty input or a read error. Thread-safety: pure function.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace exactdp::mechanisms {

inline constexpr std::size_t kMaxScoreLineLength = 25'000;

[[nodiscard]] std::vector<mpq_class> read_scores(std::istream& in);

}  // namespace exactdp::mechanisms
