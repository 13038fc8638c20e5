#include <exactdp/mechanisms/aggregate/aggregate_quantile.h>

#include <algorithm>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/selection/score_budget.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/mechanisms/selection/selection_cost.h>

namespace exactdp::mechanisms {

std::vector<mpq_class> quantile_scores(std::vector<mpz_class> values, const ValueBounds& bounds,
                                       const mpq_class& q) {
  std::sort(values.begin(), values.end());
  const mpz_class& a = q.get_num();
  const mpz_class& b = q.get_den();
  const mpz_class n(static_cast<unsigned long>(values.size()));
  std::vector<mpq_class> scores;
  std::size_t below = 0;  // #{x < c}
  for (mpz_class c = bounds.lower_index; c <= bounds.upper_index; ++c) {
    while (below < values.size() && values[below] < c) ++below;
    std::size_t equal = below;
    while (equal < values.size() && values[equal] == c) ++equal;
    const mpz_class inner = b * mpz_class(static_cast<unsigned long>(below)) -
                            a * (n - mpz_class(static_cast<unsigned long>(equal - below)));
    scores.emplace_back(-abs(inner));
  }
  return scores;
}

mpz_class quantile_score_sensitivity(const mpq_class& q, unsigned long max_rows) {
  const mpz_class other = q.get_den() - q.get_num();
  return mpz_class(max_rows) * std::max(mpz_class(q.get_num()), other);
}

namespace {

[[noreturn]] void quantile_over_limit(const std::string& option, const std::string& what,
                                      unsigned long long estimate, const std::string& limit,
                                      const std::string& parts) {
  const std::string advice =
      option == "q" ? "give q with fewer digits (its denominator is in every score: 0.001 rather than 1e-10000)"
      : option == "epsilon" ? "give epsilon with fewer digits (every weight holds its denominator)"
                            : "give a coarser --bounds grid (fewer decimals, or a narrower range)";
  throw LimitError(option, option + ": the quantile's " + what + " would hold about " + std::to_string(estimate) +
                               " bits (" + parts + "), over the limit of " + limit + ": " + advice);
}

unsigned long long bits_of(const mpz_class& x) { return mpz_sizeinbase(x.get_mpz_t(), 2); }

}  // namespace

void check_quantile_cost(const ValueBounds& bounds, const mpq_class& q, const mpq_class& epsilon,
                         unsigned long max_rows, const mpz_class& values) {
  const mpz_class k = grid_points(bounds);
  if (!k.fits_ulong_p() || k.get_ui() > kMaxCandidates) return;  // refused by the bounds' own check
  const unsigned long long q_bits = bits_of(q.get_den());
  // |b #{x < c} - a (n - #{x = c})| <= b n, over the denominator 1.
  const unsigned long long per_score = q_bits + bits_of(values) + 2;
  WeightBits w;
  w.candidates = k.get_ui();
  w.epsilon = score_bits(epsilon);
  w.sensitivity = bits_of(quantile_score_sensitivity(q, max_rows)) + 1;
  w.best = per_score;
  w.scores = w.candidates * per_score;  // at most 10^6 x (2^32 + 66): no overflow
  // What the estimate is made of, for a refusal's message only (this runs once per released group).
  const auto parts = [&] {
    return std::to_string(w.candidates) + " grid points x (q " + std::to_string(q_bits) + " + epsilon " +
           std::to_string(w.epsilon) + " bits)";
  };
  if (w.scores > kMaxScoreBits) {
    quantile_over_limit(q_bits >= 64 ? "q" : "bounds", "scores", w.scores, "2^28 bits (32 MiB)", parts());
  }
  const unsigned long long estimate = estimated_weight_bits(w);
  if (estimate <= kMaxWeightBits) return;
  const std::string option = w.epsilon >= w.sensitivity + 2 * per_score ? "epsilon"
                             : q_bits >= 64                               ? "q"
                                                                          : "bounds";
  quantile_over_limit(option, "exponential weights", estimate, "2^31 bits (256 MiB)", parts());
}

mpz_class draw_quantile(BitSource& bits, const std::vector<mpz_class>& values, const ValueBounds& bounds,
                        const mpq_class& q, const mpq_class& epsilon, unsigned long max_rows) {
  SelectionOptions o;
  o.mechanism = SelectionMechanism::kExponential;
  o.epsilon = epsilon;
  o.sensitivity = quantile_score_sensitivity(q, max_rows);
  check_quantile_cost(bounds, q, epsilon, max_rows, mpz_class(static_cast<unsigned long>(values.size())));
  Selection s = Selection::make(quantile_scores(values, bounds, q), o);
  return bounds.lower_index + mpz_class(static_cast<unsigned long>(s.select(bits)));
}

}  // namespace exactdp::mechanisms
