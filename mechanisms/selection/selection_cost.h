// selection_cost.h — the up-front cost of a selection, counted in bits of its inputs and checked
// before Selection::make derives anything from the scores.
//
// What grows with the input. The scores themselves are bounded as they are read (score_budget.h).
// What a selection derives from them can be far larger than the scores: the exponential weights
// gamma_i = c (u* - u_i), c = epsilon / (2 Delta), hold the bits of epsilon, of Delta, of the
// best score and of u_i EACH (1e-100000 is 8 characters but 41.5 KB of denominator, in every one
// of n weights); report-noisy-max puts every score on the common grid 1/D and draws noise of a
// scale t = 2 D Delta / epsilon whose size is that of D and epsilon together. So:
//  * weights (exponential, permute-and-flip, report-noisy-max --noise exponential): every gamma_i
//    is held once (the coins), twice by the exponential mechanism (also the inversion table's
//    gammas while it is built), each of at most bits(epsilon) + bits(Delta) + bits(u*) + bits(u_i) + 2 bits plus
//    kNumberOverheadBits (limb rounding, malloc headers, the mpq_class itself); measured: 2,000
//    candidates at epsilon = 1e-100000 estimate 166 MB and use 170 MB (peak RSS).
//  * grid (report-noisy-max --noise laplace): n grid scores of bits(u_i) + bits(D) bits.
//  * noise work (report-noisy-max --noise laplace): one selection draws n discrete Laplace noises
//    whose cost grows with bits(t) (measured per draw: 8.5 us at 3,300 bits, 0.35 ms at 33,000,
//    1 ms at 100,000, 7-12 ms at 332,000): noise_draw_steps below, in the candidate steps of
//    Selection::estimated_peeling_steps (about 2 us each).
// Each estimate is compared with its limit BEFORE anything is allocated; over it, LimitError
// names the option the caller can change: "epsilon" or "sensitivity" when their digits are the
// largest part of every weight, else "scores" (fewer candidates, or scores with fewer digits),
// and says the estimate, the limit and which way to move.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <string>
#include <vector>

namespace exactdp::mechanisms {

struct SelectionOptions;

// 2^31 bits (256 MiB) of exact weights or grid scores for one selection.
inline constexpr unsigned long long kMaxWeightBits = 1ULL << 31;
// What one exact rational costs beyond its numerator's and denominator's bits (measured: two
// limb-rounded GMP blocks with their malloc headers and the 32-byte mpq_class).
inline constexpr unsigned long long kNumberOverheadBits = 384;
// Candidate steps of one selection's noise draws (report-noisy-max --noise laplace): about 6 s.
inline constexpr unsigned long long kMaxSelectionNoiseSteps = 3'000'000;

// The parts of one weight gamma_i, for the estimate and its message.
struct WeightBits {
  unsigned long long epsilon = 0;      // bits(epsilon)
  unsigned long long sensitivity = 0;  // bits(Delta)
  unsigned long long best = 0;         // bits(u*)
  unsigned long long scores = 0;       // sum over i of bits(u_i)
  unsigned long long candidates = 0;   // n
  unsigned long long copies = 2;       // copies of every gamma alive at once
};

// copies x (n (epsilon + sensitivity + best + 2 + kNumberOverheadBits) + scores), saturating.
[[nodiscard]] unsigned long long estimated_weight_bits(const WeightBits& w);
// LimitError over kMaxWeightBits naming epsilon, sensitivity or scores (the largest part);
// `what` names the mechanism in the message ("the exponential mechanism", "the quantile").
void check_weight_bits(const WeightBits& w, const std::string& what);

// The weights of `scores` under `options` (best = the largest score): check_weight_bits.
void check_selection_weights(const std::vector<mpq_class>& scores, const mpq_class& best,
                             const SelectionOptions& options);

// Report-noisy-max with discrete Laplace noise on the grid 1/D: the n grid scores' bits and the
// noise work of one selection (n draws of scale t, noise_draw_steps each), LimitError naming
// "scores" (the grid) or "epsilon" / "scores" (the noise: whichever has more bits in t).
void check_noisy_max_cost(const std::vector<mpq_class>& scores, const mpz_class& grid,
                          const mpq_class& noise_scale, const SelectionOptions& options);

// Candidate steps (Selection::estimated_peeling_steps' unit) of ONE discrete Laplace draw of a
// scale with `scale_bits` bits, times 16 (a draw at a small scale is 1/16 step): 1 + bits/16 +
// bits^2 / 600000, an upper fit of the measurements above (2-3x above them from 33,000 bits).
[[nodiscard]] unsigned long long noise_draw_steps_x16(unsigned long long scale_bits);

}  // namespace exactdp::mechanisms
