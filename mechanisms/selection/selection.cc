#include <exactdp/mechanisms/selection/selection.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include <exactdp/mechanisms/selection/score_budget.h>
#include <exactdp/mechanisms/selection/selection_cost.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/uniform.h>

namespace exactdp::mechanisms {
namespace {

std::size_t uniform_below(BitSource& bits, std::size_t n) {
  return static_cast<std::size_t>(sample_uniform_below(bits, static_cast<std::uint64_t>(n)));
}

}  // namespace

SelectionMechanism parse_selection_mechanism(std::string_view text) {
  if (text == "exponential") return SelectionMechanism::kExponential;
  if (text == "permute-and-flip") return SelectionMechanism::kPermuteAndFlip;
  if (text == "report-noisy-max") return SelectionMechanism::kReportNoisyMax;
  throw ParameterError("mechanism", "mechanism = " + abbreviate(text) +
                                        " is not known: allowed exponential, permute-and-flip, "
                                        "report-noisy-max");
}

NoiseKind parse_noise_kind(std::string_view text) {
  if (text == "laplace") return NoiseKind::kDiscreteLaplace;
  if (text == "exponential") return NoiseKind::kExponential;
  throw ParameterError("noise", "noise = " + abbreviate(text) +
                                    " is not known: allowed laplace (discrete Laplace), exponential");
}

std::string to_string(SelectionMechanism mechanism) {
  switch (mechanism) {
    case SelectionMechanism::kExponential: return "exponential";
    case SelectionMechanism::kPermuteAndFlip: return "permute-and-flip";
    case SelectionMechanism::kReportNoisyMax: return "report-noisy-max";
  }
  return "?";
}

std::string to_string(NoiseKind noise) {
  return noise == NoiseKind::kDiscreteLaplace ? "laplace" : "exponential";
}

void validate_selection_options(const SelectionOptions& options) {
  if (sgn(options.epsilon) <= 0 || options.epsilon > mpq_class(kMaxSelectionEpsilonNumerator)) {
    throw ParameterError::out_of_range("epsilon", abbreviate(exactdp::to_string(options.epsilon)),
                                       "0 < epsilon <= 1000000");
  }
  if (sgn(options.sensitivity) <= 0) {
    throw ParameterError::out_of_range("sensitivity",
                                       abbreviate(exactdp::to_string(options.sensitivity)),
                                       "sensitivity > 0");
  }
  const bool monotone_ok =
      options.mechanism == SelectionMechanism::kExponential ||
      (options.mechanism == SelectionMechanism::kReportNoisyMax &&
       options.noise == NoiseKind::kDiscreteLaplace);
  if (options.monotonic && !monotone_ok) {
    throw ParameterError("monotonic",
                         "monotonic is allowed only with the exponential mechanism and with "
                         "report-noisy-max --noise laplace (not with " +
                             to_string(options.mechanism) +
                             (options.mechanism == SelectionMechanism::kReportNoisyMax
                                  ? " --noise exponential"
                                  : "") +
                             ")");
  }
}

Selection Selection::make(std::vector<mpq_class> scores, const SelectionOptions& options) {
  validate_selection_options(options);
  if (scores.empty()) {
    throw ParameterError("scores", "scores: no candidates: allowed 1 to 1000000 scores");
  }
  if (scores.size() > kMaxCandidates) {
    throw LimitError("scores", "scores: " + std::to_string(scores.size()) +
                                   " candidates is over the limit: allowed at most 1000000");
  }
  check_score_bits(scores);  // before any copy is derived (score_budget.h)
  Selection s;
  s.options_ = options;
  s.scores_ = std::move(scores);
  for (auto& u : s.scores_) u.canonicalize();
  s.factor_ = options.epsilon / (options.monotonic ? options.sensitivity : 2 * options.sensitivity);
  s.factor_.canonicalize();
  s.best_ = s.scores_[0];
  for (const auto& u : s.scores_) {
    if (u > s.best_) s.best_ = u;
  }
  s.active_.resize(s.scores_.size());
  std::iota(s.active_.begin(), s.active_.end(), std::size_t{0});
  if (options.mechanism == SelectionMechanism::kReportNoisyMax &&
      options.noise == NoiseKind::kDiscreteLaplace) {
    mpz_class d = options.sensitivity.get_den();
    for (const auto& u : s.scores_) {
      mpz_lcm(d.get_mpz_t(), d.get_mpz_t(), u.get_den().get_mpz_t());
      if (mpz_sizeinbase(d.get_mpz_t(), 2) > kMaxGridBits) {
        throw LimitError("scores", "scores: the common denominator of the scores and the "
                                   "sensitivity exceeds 2^65536 (the grid limit of "
                                   "report-noisy-max with discrete Laplace noise)");
      }
    }
    s.grid_ = d;
    mpq_class grid_sensitivity = options.sensitivity * mpq_class(d);
    grid_sensitivity.canonicalize();
    s.noise_scale_ = (options.monotonic ? grid_sensitivity : 2 * grid_sensitivity) / options.epsilon;
    s.noise_scale_.canonicalize();
    // The grid scores D u_i and the noise draws of scale t: bounded before they are made.
    check_noisy_max_cost(s.scores_, d, s.noise_scale_, options);
    s.grid_scores_.reserve(s.scores_.size());
    for (const auto& u : s.scores_) s.grid_scores_.emplace_back(u.get_num() * (d / u.get_den()));
    s.laplace_.push_back(DiscreteLaplaceParams::make(s.noise_scale_));
    return s;
  }
  // Every weight holds epsilon's, Delta's and the best score's digits: bounded before any is made.
  check_selection_weights(s.scores_, s.best_, options);
  const bool inversion = options.mechanism == SelectionMechanism::kExponential &&
                         (options.exponential_sampler == ExponentialSampler::kInversion ||
                          (options.exponential_sampler == ExponentialSampler::kAuto &&
                           s.scores_.size() >= kInversionMinCandidates));
  s.coins_.reserve(s.scores_.size());
  std::vector<mpq_class> gammas;
  if (inversion) gammas.reserve(s.scores_.size());
  for (const auto& u : s.scores_) {
    mpq_class gamma = s.factor_ * (s.best_ - u);
    s.coins_.push_back(BernoulliExpParams::make(gamma));
    if (inversion) gammas.push_back(std::move(gamma));
  }
  // kInversion with one candidate or a gap over 2^40: rejection (same law).
  if (inversion) s.inversion_ = ExponentialInversionTable::make(std::move(gammas));
  return s;
}

void Selection::prepare_descending_order() {
  if (descending_.size() == scores_.size()) return;
  descending_.resize(scores_.size());
  std::iota(descending_.begin(), descending_.end(), std::size_t{0});
  std::stable_sort(descending_.begin(), descending_.end(),
                   [this](std::size_t a, std::size_t b) { return scores_[a] > scores_[b]; });
}

unsigned long long Selection::estimated_peeling_steps(std::size_t k) {
  const std::size_t n = scores_.size();
  k = std::min(k, n);
  unsigned long long steps = 0;
  if (options_.mechanism == SelectionMechanism::kReportNoisyMax &&
      options_.noise == NoiseKind::kDiscreteLaplace) {
    // n - r noise draws in round r; a draw (integers on the grid) costs about 1/16 of a coin
    // step of the other mechanisms (measured: 18 * 10^6 draws in 0.65 s) at a small scale, and
    // grows with the scale's bits (selection_cost.h).
    for (std::size_t r = 0; r < k; ++r) steps += n - r;
    const mpz_class total = mpz_class(std::to_string(steps)) *
                            mpz_class(std::to_string(noise_draw_steps_x16(score_bits(noise_scale_)))) / 16;
    return total.fits_ulong_p() ? total.get_ui() + 1 : ~0ULL;
  }
  if (k <= 1) return 1;
  prepare_descending_order();
  // near = the first index (in descending order) whose score is more than 1/c below the r-th.
  const mpq_class reach = 1 / factor_;
  std::size_t near = 0;
  mpq_class floor_score;
  for (std::size_t r = 0; r < k; ++r) {
    floor_score = scores_[descending_[r]] - reach;
    if (near < r) near = r;
    while (near < n && scores_[descending_[near]] >= floor_score) ++near;
    const unsigned long long within = near - r;  // >= 1: the best itself
    steps += (3 * static_cast<unsigned long long>(n - r) + within - 1) / within;  // e < 3
  }
  return steps;
}

unsigned long long Selection::estimated_select_steps_x64() {
  const unsigned long long n = scores_.size();
  if (options_.mechanism == SelectionMechanism::kReportNoisyMax &&
      options_.noise == NoiseKind::kDiscreteLaplace) {
    const mpz_class total = mpz_class(std::to_string(n)) *
                            mpz_class(std::to_string(noise_draw_steps_x16(score_bits(noise_scale_)))) * 4;
    return total.fits_ulong_p() ? total.get_ui() : ~0ULL;
  }
  if (inversion_) return 8;
  // w_0: the candidates within 1/c of the best (weights >= 1/e); e n / w_0 coins, e < 3.
  const mpq_class floor_score = best_ - 1 / factor_;
  unsigned long long within = 0;
  for (const auto& u : scores_) within += u >= floor_score ? 1 : 0;
  return (3 * n + within - 1) / within;
}

bool Selection::coin(BitSource& bits, std::size_t i, const mpq_class& best, bool first_round) {
  if (first_round) return sample_bernoulli_exp(bits, coins_[i]);
  gamma_ = best - scores_[i];
  gamma_ *= factor_;
  return sample_bernoulli_exp(bits, BernoulliExpParams::make(gamma_));
}

std::size_t Selection::round_exponential(BitSource& bits, std::size_t m, bool first_round) {
  if (first_round && inversion_) {
    // active_ is a permutation of all candidates in the first round: find the chosen one.
    const std::size_t i = inversion_->sample(bits);
    return static_cast<std::size_t>(std::find(active_.begin(), active_.begin() + static_cast<std::ptrdiff_t>(m), i) -
                                    active_.begin());
  }
  // Rejection: a uniform position, accepted with exp(-gamma). Terminates with probability 1:
  // the best candidate is accepted with certainty whenever it is drawn.
  for (;;) {
    const std::size_t pos = uniform_below(bits, m);
    if (coin(bits, active_[pos], round_best_, first_round)) return pos;
  }
}

std::size_t Selection::round_permute_and_flip(BitSource& bits, std::size_t m, bool first_round) {
  // Lazy Fisher–Yates: position j receives a uniform element of active_[j..m). Whatever order
  // active_ is left in by earlier draws, the visiting order is a uniform random permutation.
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t r = j + uniform_below(bits, m - j);
    std::swap(active_[j], active_[r]);
    if (coin(bits, active_[j], round_best_, first_round)) return j;
  }
  // Unreachable: the best candidate's coin is exp(0) = 1.
  throw std::logic_error("permute-and-flip: no candidate accepted (the best coin must be certain)");
}

std::size_t Selection::round_noisy_max(BitSource& bits, std::size_t m) {
  // active_ is kept in increasing index order, so the first strict maximum is the smallest index.
  std::size_t chosen = 0;
  for (std::size_t pos = 0; pos < m; ++pos) {
    sample_discrete_laplace(bits, laplace_[0], noise_);
    noisy_ = grid_scores_[active_[pos]] + noise_;
    if (pos == 0 || noisy_ > best_noisy_) {
      best_noisy_ = noisy_;
      chosen = pos;
    }
  }
  return chosen;
}

std::size_t Selection::round(BitSource& bits, std::size_t m, bool first_round) {
  switch (options_.mechanism) {
    case SelectionMechanism::kExponential:
      return round_exponential(bits, m, first_round);
    case SelectionMechanism::kPermuteAndFlip:
      return round_permute_and_flip(bits, m, first_round);
    case SelectionMechanism::kReportNoisyMax:
      if (options_.noise == NoiseKind::kDiscreteLaplace) return round_noisy_max(bits, m);
      return round_permute_and_flip(bits, m, first_round);  // the identity of Ding et al. 2021
  }
  throw std::logic_error("unknown selection mechanism");
}

std::size_t Selection::select(BitSource& bits) {
  if (inversion_) return inversion_->sample(bits);
  if (options_.mechanism == SelectionMechanism::kExponential) {
    // No permutation needed: positions of the identity array are the indices.
    for (;;) {
      const std::size_t i = uniform_below(bits, scores_.size());
      if (sample_bernoulli_exp(bits, coins_[i])) return i;
    }
  }
  round_best_ = best_;
  if (options_.mechanism == SelectionMechanism::kReportNoisyMax &&
      options_.noise == NoiseKind::kDiscreteLaplace) {
    return active_[round_noisy_max(bits, scores_.size())];  // active_ is the identity here
  }
  return active_[round(bits, scores_.size(), true)];
}

std::vector<std::size_t> Selection::select_top(BitSource& bits, std::size_t k) {
  const std::size_t n = scores_.size();
  if (k < 1 || k > n) {
    throw ParameterError::out_of_range("top", std::to_string(k),
                                       "1 <= top <= the number of candidates (" + std::to_string(n) + ")");
  }
  const bool sorted = options_.mechanism == SelectionMechanism::kReportNoisyMax &&
                      options_.noise == NoiseKind::kDiscreteLaplace;
  if (sorted) std::iota(active_.begin(), active_.end(), std::size_t{0});
  // The best score still in play, in O(1) amortised a round: candidates by decreasing score,
  // skipping the ones already chosen (not a scan of the m remaining scores every round).
  if (!sorted && k > 1) prepare_descending_order();
  std::vector<char> taken(sorted || k == 1 ? 0 : n, 0);
  std::size_t next_best = 0;
  std::vector<std::size_t> chosen;
  chosen.reserve(k);
  std::size_t m = n;
  for (std::size_t r = 0; r < k; ++r) {
    const bool first = (r == 0);
    if (first) {
      round_best_ = best_;
    } else if (!sorted) {
      while (taken[descending_[next_best]] != 0) ++next_best;
      round_best_ = scores_[descending_[next_best]];
    }
    const std::size_t pos = round(bits, m, first);
    chosen.push_back(active_[pos]);
    if (!taken.empty()) taken[active_[pos]] = 1;
    if (sorted) {
      active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(pos));
    } else {
      std::swap(active_[pos], active_[m - 1]);
    }
    --m;
  }
  // Restore the full candidate set for the next call (any order for exponential and
  // permute-and-flip, increasing for report-noisy-max).
  if (sorted) {
    active_.resize(n);
    std::iota(active_.begin(), active_.end(), std::size_t{0});
  }
  return chosen;
}

}  // namespace exactdp::mechanisms
