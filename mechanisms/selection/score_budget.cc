#include <exactdp/mechanisms/selection/score_budget.h>

#include <exactdp/core/errors.h>

namespace exactdp::mechanisms {
namespace {

[[noreturn]] void over_limit(const std::string& where) {
  throw LimitError("scores", "scores: over the size limit at " + where +
                                 ": all scores together may hold at most 2^28 bits (32 MiB) of "
                                 "numerators and denominators (10^6 scores of about 80 digits, "
                                 "or 800 scores of 10^100000)");
}

}  // namespace

unsigned long long score_bits(const mpq_class& score) {
  return mpz_sizeinbase(score.get_num_mpz_t(), 2) + mpz_sizeinbase(score.get_den_mpz_t(), 2);
}

void ScoreBudget::add(const mpq_class& score, const std::string& where) {
  total_ += score_bits(score);
  if (total_ > kMaxScoreBits) over_limit(where);
}

void ScoreBudget::add_bits(unsigned long long bits, const std::string& what) {
  if (bits > kMaxScoreBits || total_ + bits > kMaxScoreBits) over_limit(what);
  total_ += bits;
}

void check_score_bits(const std::vector<mpq_class>& scores) {
  ScoreBudget budget;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    budget.add(scores[i], "scores[" + std::to_string(i) + "]");
  }
}

}  // namespace exactdp::mechanisms
