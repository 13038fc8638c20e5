// selection.h — exact private selection for rational scores: the exponential mechanism,
// permute-and-flip, report-noisy-max (discrete Laplace or exponential noise) and peeling
// (top-K). docs/SELECTION.md has the laws, proofs and references in full.
//
// Input: n >= 1 candidates with exact rational scores u_0..u_{n-1} (higher is better), a
// privacy parameter 0 < epsilon <= 10^6 and a sensitivity Delta > 0: on neighbouring data sets
// every score moves by at most Delta. With `monotonic`, all scores move in the same direction
// (e.g. counts when a record is added). Let c = epsilon / (2 Delta), or epsilon / Delta with
// monotonic, and gamma_i = c (u* - u_i) >= 0 where u* is the best score still in play.
//
// Mechanisms (each is epsilon-DP for one selection; the guarantee of K peeling rounds is the
// composition of K epsilon-DP mechanisms, selection_guarantee.h):
//  * kExponential: P[i] = exp(-gamma_i) / sum_j exp(-gamma_j) (McSherry–Talwar 2007).
//      Sampling: rejection. Draw a uniform candidate i (uniform.h), accept it with an exact
//      Bernoulli(exp(-gamma_i)) (bernoulli_exp.h, gamma_i an exact rational), else retry. Each
//      attempt accepts i with probability exp(-gamma_i)/n, so the accepted index has exactly the
//      law above. Expected attempts n / sum_j exp(-gamma_j), in [1, n] (the best candidate has
//      weight 1); worst case unbounded (geometric tail: more than r n attempts with probability
//      < e^-r). Expected time O(n / sum_j exp(-gamma_j)) Bernoulli draws of O(1) expected cost.
//      When the scores are spread (most gamma_j large) this approaches n attempts; the cheaper
//      exact alternative is certified inversion (exponential_inversion.h, ExponentialSampler):
//      O(log n) a draw after an O(n) table, chosen automatically from 16 candidates on.
//  * kPermuteAndFlip (McKenna–Sheldon, NeurIPS 2020): visit the candidates in a uniformly random
//      order (lazy Fisher–Yates, exact uniform integers) and return the first i for which an
//      exact Bernoulli(exp(-gamma_i)) coin lands 1. The best candidate's coin is certain, so at
//      most n coins are flipped: worst case n steps, O(n) time and never more. P[i] =
//      E over permutations of exp(-gamma_i) prod_{j before i} (1 - exp(-gamma_j)).
//      Not defined here with `monotonic` (refused: ParameterError naming "monotonic").
//  * kReportNoisyMax, NoiseKind::kDiscreteLaplace (PrivateMax of Cai–Wang–Zhang, "The cost of
//      privacy", with the exact discrete Laplace of CKS20 in place of the continuous one):
//      the scores are put on the common grid 1/D, D = lcm of the denominators of the scores and
//      of Delta, as integers s_i = D u_i; each gets independent noise X_i ~ Lap_Z(t) with
//      t = 2 D Delta / epsilon (D Delta / epsilon with monotonic) (discrete_laplace.h); the
//      result is the SMALLEST index attaining max_i (s_i + X_i). The paper's argmax with
//      continuous noise has ties with probability 0; with integer noise they occur, and any
//      fixed tie rule keeps the proof of Dwork–Roth Claim 3.9 valid on the integer grid (the
//      set of X_i making i win, the others fixed, is {X_i >= r*} for an integer r*, and shifting
//      the scores by D Delta moves r* by at most 2 D Delta, or D Delta for monotone scores;
//      P[X >= m + k] >= e^{-k/t} P[X >= m] for the discrete Laplace). Exactly n noise draws per
//      selection; expected time O(n) big-integer operations, worst case unbounded (each draw
//      has geometric tails). D is limited to kMaxGridBits bits (LimitError naming "scores").
//  * kReportNoisyMax, NoiseKind::kExponential: argmax_i (u_i + E_i) with E_i ~ Exponential of
//      scale 2 Delta / epsilon. Its law is exactly that of permute-and-flip at the same epsilon
//      (Ding, Kifer, Sheldon et al., "The permute-and-flip mechanism is identical to
//      report-noisy-max with exponential noise", 2021), so it is sampled, exactly, by
//      permute-and-flip; the continuous noise itself is never materialised (it cannot be held
//      exactly). Not with `monotonic` (refused).
//
// Peeling (select_top): K rounds of the chosen mechanism, each on the candidates not yet chosen
// (u* and gamma recomputed for the remaining set); returns the K distinct indices in the order
// selected (Cai–Wang–Zhang Algorithm 2 "Peeling" with the mechanism above as PrivateMax).
//
// Exactness: only integer and rational arithmetic, exact uniform integers, exact Bernoulli(exp(-g))
// for rational g and exact discrete Laplace noise; no float, no logarithm, no normalising sum is
// ever computed. Given fair bits, the output law is exactly the law stated (tested against MPFR
// laws: tests/mechanisms/selection_law_test.cc).
// Randomness: all bits come from the BitSource (seeded_bits.h only for tests and audits).
// Timing: NOT constant-time: the duration depends on the bits and on the result (SECURITY.md).
// Errors: Selection::make throws ParameterError naming scores, epsilon, sensitivity, monotonic
// or noise, or LimitError over kMaxCandidates / kMaxGridBits or over the cost limits of
// selection_cost.h (weights, grid scores and noise work, estimated before they are made; naming
// epsilon, sensitivity or scores); select_top throws ParameterError
// naming "top" unless 1 <= K <= n. Thread-safety: a Selection holds scratch space (the
// permutation array); use one per thread.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/mechanisms/selection/exponential_inversion.h>

namespace exactdp::mechanisms {

inline constexpr std::size_t kMaxCandidates = 1'000'000;
inline constexpr std::size_t kMaxGridBits = 65'536;
inline constexpr unsigned long kMaxSelectionEpsilonNumerator = 1'000'000;  // epsilon <= 10^6

enum class SelectionMechanism { kExponential, kPermuteAndFlip, kReportNoisyMax };
enum class NoiseKind { kDiscreteLaplace, kExponential };
// How the exponential mechanism draws (the law is the same): kRejection (above), kInversion
// (exponential_inversion.h: certified inversion, O(log n) a draw whatever the spread of the
// scores), kAuto: inversion when n >= kInversionMinCandidates and every gap
// c (u* - u_i) <= 2^40, else rejection. Peeling rounds after the first always use rejection.
enum class ExponentialSampler { kAuto, kRejection, kInversion };
inline constexpr std::size_t kInversionMinCandidates = 16;

// "exponential", "permute-and-flip", "report-noisy-max"; ParameterError naming "mechanism".
[[nodiscard]] SelectionMechanism parse_selection_mechanism(std::string_view text);
// "laplace", "exponential"; ParameterError naming "noise".
[[nodiscard]] NoiseKind parse_noise_kind(std::string_view text);
[[nodiscard]] std::string to_string(SelectionMechanism mechanism);
[[nodiscard]] std::string to_string(NoiseKind noise);

struct SelectionOptions {
  SelectionMechanism mechanism = SelectionMechanism::kExponential;
  NoiseKind noise = NoiseKind::kDiscreteLaplace;  // report-noisy-max only
  mpq_class epsilon = 1;
  mpq_class sensitivity = 1;
  bool monotonic = false;
  ExponentialSampler exponential_sampler = ExponentialSampler::kAuto;  // exponential only
};

// Throws ParameterError unless 0 < epsilon <= 10^6, sensitivity > 0, and monotonic is only
// asked of the exponential mechanism or report-noisy-max with discrete Laplace noise.
void validate_selection_options(const SelectionOptions& options);

class Selection {
 public:
  // Validates everything (options, 1 <= n <= kMaxCandidates, the grid for report-noisy-max) and
  // precomputes the per-candidate coins of the first round.
  [[nodiscard]] static Selection make(std::vector<mpq_class> scores, const SelectionOptions& options);

  [[nodiscard]] std::size_t candidates() const noexcept { return scores_.size(); }
  [[nodiscard]] const SelectionOptions& options() const noexcept { return options_; }
  // Report-noisy-max with discrete Laplace: the grid denominator D and the noise scale t in
  // grid units (both 0 for the other mechanisms).
  [[nodiscard]] const mpz_class& grid_denominator() const noexcept { return grid_; }
  [[nodiscard]] const mpq_class& noise_scale() const noexcept { return noise_scale_; }
  // The exponential mechanism's first round uses the inversion table.
  [[nodiscard]] bool uses_inversion() const noexcept { return inversion_.has_value(); }

  // One selection among all candidates: a 0-based index.
  [[nodiscard]] std::size_t select(BitSource& bits);
  // Peeling: K distinct indices in the order selected. ParameterError ("top") unless
  // 1 <= k <= candidates().
  [[nodiscard]] std::vector<std::size_t> select_top(BitSource& bits, std::size_t k);

  // A cheap estimate (O(n log n) once, then O(n)) of the candidate steps one select_top(k) call
  // takes: coins (exponential, permute-and-flip) or noise draws (report-noisy-max), for callers
  // that refuse a peeling too slow to serve before they start it (the CLI does). Round r is
  // assumed to face the n - r candidates below the r best: report-noisy-max draws n - r noises
  // (counted as (n - r) / 16 steps: a draw is that much cheaper than a coin);
  // the others need about e (n - r) / w_r coins where w_r counts the candidates within 1/c of
  // the best still in play (their weights are >= 1/e). Peeling after the first round is
  // O(sum of these), so spread scores (w_r = 1) cost O(K n): ~5 microseconds a step.
  [[nodiscard]] unsigned long long estimated_peeling_steps(std::size_t k);

  // The same estimate for ONE select() call, in 1/64 candidate steps (a first-round coin, whose
  // Bernoulli parameters are precomputed, costs about 1/64 of a later round's step: measured
  // 1.6 * 10^8 such coins in 3.9 s): the inversion table's draw counts 8 (O(log n): 10^7 draws
  // in 1.85 s), rejection and permute-and-flip e n / w_0 coins, report-noisy-max n noise draws
  // (4 each at a small scale, more as the scale's bits grow). For callers that repeat select()
  // many times (`exactdp select -n N`) and refuse a run too slow to serve before they start it.
  [[nodiscard]] unsigned long long estimated_select_steps_x64();

 private:
  Selection() = default;
  // One round on active_[0..m): returns the POSITION in active_ of the chosen candidate.
  std::size_t round(BitSource& bits, std::size_t m, bool first_round);
  std::size_t round_exponential(BitSource& bits, std::size_t m, bool first_round);
  std::size_t round_permute_and_flip(BitSource& bits, std::size_t m, bool first_round);
  std::size_t round_noisy_max(BitSource& bits, std::size_t m);
  // descending_: the candidates by decreasing score (made once, at the first peeling call).
  void prepare_descending_order();
  // exp(-gamma) coin for candidate i against the best score `best` of the current round.
  bool coin(BitSource& bits, std::size_t i, const mpq_class& best, bool first_round);

  SelectionOptions options_;
  std::vector<mpq_class> scores_;
  mpq_class factor_;  // c = epsilon / (2 Delta), or epsilon / Delta with monotonic
  mpq_class best_;                          // max score over all candidates
  std::vector<BernoulliExpParams> coins_;   // first round: exp(-c (best_ - u_i))
  std::optional<ExponentialInversionTable> inversion_;  // exponential, first round
  mpz_class grid_ = 0;
  mpq_class noise_scale_ = 0;
  std::vector<mpz_class> grid_scores_;      // D u_i (report-noisy-max with discrete Laplace)
  std::vector<DiscreteLaplaceParams> laplace_;  // 0 or 1 element
  std::vector<std::size_t> active_;         // scratch: candidates in play (a permutation)
  std::vector<std::size_t> descending_;     // candidates by decreasing score (peeling)
  mpq_class round_best_;                    // scratch
  mpq_class gamma_;                         // scratch
  mpz_class noisy_, best_noisy_, noise_;    // scratch
};

}  // namespace exactdp::mechanisms
