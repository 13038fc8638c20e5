#include <exactdp/mechanisms/aggregate/aggregate_quantile.h>

#include <algorithm>

#include <exactdp/mechanisms/selection/selection.h>

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

mpz_class draw_quantile(BitSource& bits, const std::vector<mpz_class>& values, const ValueBounds& bounds,
                        const mpq_class& q, const mpq_class& epsilon, unsigned long max_rows) {
  SelectionOptions o;
  o.mechanism = SelectionMechanism::kExponential;
  o.epsilon = epsilon;
  o.sensitivity = quantile_score_sensitivity(q, max_rows);
  Selection s = Selection::make(quantile_scores(values, bounds, q), o);
  return bounds.lower_index + mpz_class(static_cast<unsigned long>(s.select(bits)));
}

}  // namespace exactdp::mechanisms
