#include <exactdp/mechanisms/selection/selection_cost.h>

#include <algorithm>
#include <limits>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/selection/score_budget.h>
#include <exactdp/mechanisms/selection/selection.h>

namespace exactdp::mechanisms {
namespace {

constexpr unsigned long long kSaturated = std::numeric_limits<unsigned long long>::max();

unsigned long long add(unsigned long long a, unsigned long long b) {
  unsigned long long r = 0;
  return __builtin_add_overflow(a, b, &r) ? kSaturated : r;
}

unsigned long long mul(unsigned long long a, unsigned long long b) {
  unsigned long long r = 0;
  return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}

unsigned long long bits_of(const mpz_class& x) { return mpz_sizeinbase(x.get_mpz_t(), 2); }

std::string over_weights_message(const WeightBits& w, unsigned long long estimate, const std::string& option,
                                 const std::string& what, const std::string& advice) {
  const unsigned long long average = w.candidates == 0 ? 0 : w.scores / w.candidates;
  return option + ": " + what + " would hold about " + std::to_string(estimate) + " bits of exact weights (" +
         std::to_string(w.candidates) + " candidates x " + std::to_string(w.copies) +
         " copies of epsilon " + std::to_string(w.epsilon) + " + sensitivity " + std::to_string(w.sensitivity) +
         " + best score " + std::to_string(w.best) + " + score " + std::to_string(average) +
         " bits on average), over the limit of 2^31 bits (256 MiB): " + advice;
}

}  // namespace

unsigned long long estimated_weight_bits(const WeightBits& w) {
  const unsigned long long fixed = add(add(w.epsilon, w.sensitivity), add(w.best, 2 + kNumberOverheadBits));
  return mul(w.copies, add(mul(w.candidates, fixed), w.scores));
}

void check_weight_bits(const WeightBits& w, const std::string& what) {
  const unsigned long long estimate = estimated_weight_bits(w);
  if (estimate <= kMaxWeightBits) return;
  // Name the largest part of one weight: the option whose digits the user can cut.
  const unsigned long long score_part = w.best + (w.candidates == 0 ? 0 : w.scores / w.candidates);
  if (w.epsilon >= w.sensitivity && w.epsilon >= score_part) {
    throw LimitError("epsilon", over_weights_message(w, estimate, "epsilon", what,
                                                     "give epsilon with fewer digits (every weight holds "
                                                     "its denominator: 1e-1000 rather than 1e-100000), or "
                                                     "fewer candidates"));
  }
  if (w.sensitivity >= score_part) {
    throw LimitError("sensitivity", over_weights_message(w, estimate, "sensitivity", what,
                                                         "give the sensitivity with fewer digits, or fewer "
                                                         "candidates"));
  }
  throw LimitError("scores", over_weights_message(w, estimate, "scores", what,
                                                  "give fewer candidates, or scores with fewer digits"));
}

void check_selection_weights(const std::vector<mpq_class>& scores, const mpq_class& best,
                             const SelectionOptions& options) {
  WeightBits w;
  w.epsilon = score_bits(options.epsilon);
  w.sensitivity = score_bits(options.sensitivity) + 1;  // 2 Delta
  w.best = score_bits(best);
  for (const auto& u : scores) w.scores = add(w.scores, score_bits(u));
  w.candidates = scores.size();
  // The exponential mechanism keeps the coins and the inversion table's gammas; the others, the coins.
  w.copies = options.mechanism == SelectionMechanism::kExponential ? 2 : 1;
  check_weight_bits(w, "the " + to_string(options.mechanism) + " selection");
}

unsigned long long noise_draw_steps_x16(unsigned long long scale_bits) {
  return add(add(1, scale_bits / 16), mul(scale_bits, scale_bits) / 600'000);
}

void check_noisy_max_cost(const std::vector<mpq_class>& scores, const mpz_class& grid,
                          const mpq_class& noise_scale, const SelectionOptions& options) {
  const unsigned long long n = scores.size();
  const unsigned long long grid_bits = bits_of(grid);
  unsigned long long held = 0;
  for (const auto& u : scores) held = add(held, add(bits_of(u.get_num()) + grid_bits, kNumberOverheadBits));
  if (held > kMaxWeightBits) {
    throw LimitError("scores", "scores: report-noisy-max would hold about " + std::to_string(held) +
                                   " bits of grid scores (" + std::to_string(n) + " candidates x (score + " +
                                   std::to_string(grid_bits) + " bits of the common denominator)), over "
                                   "the limit of 2^31 bits (256 MiB): give fewer candidates, or scores on "
                                   "a coarser common grid (denominators with fewer digits)");
  }
  const unsigned long long scale_bits = score_bits(noise_scale);
  const unsigned long long steps = mul(n, noise_draw_steps_x16(scale_bits)) / 16;
  if (steps <= kMaxSelectionNoiseSteps) return;
  const bool epsilon_dominates = score_bits(options.epsilon) >= grid_bits;
  const std::string option = epsilon_dominates ? "epsilon" : "scores";
  throw LimitError(option, option + ": report-noisy-max would take about " + std::to_string(steps) +
                               " candidate steps a selection (" + std::to_string(n) +
                               " discrete Laplace draws of a scale with " + std::to_string(scale_bits) +
                               " bits: epsilon " + std::to_string(score_bits(options.epsilon)) +
                               ", common denominator " + std::to_string(grid_bits) +
                               "), over the limit of " + std::to_string(kMaxSelectionNoiseSteps) +
                               " (about 6 s): give " +
                               (epsilon_dominates ? "epsilon with fewer digits" : "scores on a coarser grid") +
                               ", or fewer candidates");
}

}  // namespace exactdp::mechanisms
