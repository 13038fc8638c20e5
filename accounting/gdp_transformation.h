// gdp_transformation.h — GDP identification and measurement of a privacy profile
// (Liu, Sun, Jiang & Kong, "Identification, Amplification and Measurement: A bridge to Gaussian
// Differential Privacy", NeurIPS 2022, Sections 3-4 and Appendix D).
//
// A privacy profile delta(eps) (non-increasing, delta(0) < 1) is given as a CERTIFIED function:
// ProfileFunction(eps, p) returns an Interval containing delta(eps) at working precision p
// (built-in mechanisms, or a user callback).
//
// GDPT (Definition 4.1). T(eps) = mu_eps(delta(eps)), where mu_eps(d) is the mu with
// delta_mu(eps) = d for the mu-GDP profile delta_mu. A mechanism is mu-GDP iff sup T <= mu
// (Corollary 4.1), and eps*-head GDP iff sup over [0, eps*] of T <= mu (Theorem 4.1).
//
// Staircase bounds (Theorem 4.3). mu_eps(d) is increasing in d and in eps, and delta is
// non-increasing, so on a grid 0 = e_0 < e_1 < ... < e_n = eps_max and eps in [e_i, e_{i+1}]:
//   T(e_i) ... is a value of T, and T(eps) <= U_i := mu_{e_{i+1}}(delta(e_i)).
// Hence  max_i T(e_i)  <=  mu_head := sup_{[0, eps_max]} T  <=  max_i U_i.  Only these two
// monotonicity facts are used for CERTIFICATION; each U_i is tested with one comparison,
// "delta_M(e_{i+1}) >= delta(e_i)" (<=> U_i <= M), with outward-rounded intervals.
//
// Grid (width of the result, not its validity). Along a level set of delta_mu,
// d mu / d eps = R(eps/mu + mu/2) with R(x) = (1 - Phi(x))/phi(x) the Mills ratio (this is
// Theorem 4.2's bounded derivative; it follows from d delta_mu/d eps = -e^eps Phi(-eps/mu - mu/2)
// and d delta_mu/d mu = phi(eps/mu - mu/2)). Since eps/mu + mu/2 >= sqrt(2 eps) and
// R(x) <= min(sqrt(pi/2), 1/x), U_i - T(e_i) <= (e_{i+1} - e_i) B(e_i) with
// B(e) = min(sqrt(pi/2), 1/sqrt(2e)). We step e_{i+1} = e_i + h0 / B(e_i) (h0 = 0.6 tolerance),
// a non-uniform grid with ~ sqrt(2 eps_max)/h0 points instead of the paper's uniform
// eps_max sqrt(pi/2)/h0; the certified bracket is unaffected.
//
// Algorithm 1 (App. D), with the grid visited in a random order (seeded shuffle): keep m_hi;
// at each e_i test U_i <= m_hi with ONE comparison; only when the test fails (U_i may exceed the
// current m_hi — in random order a record, expected O(log n) times) run the binary searches:
// one for U_i (raising m_hi to a certified upper bound of U_i, within 0.2 tolerance) and one for
// T(e_i) (raising m_lo to a certified lower bound). Deviation from the paper: we do not test
// every point for the lower staircase; m_lo is taken at the record points only, which suffices:
// the final m_hi was set at some record point j, where m_lo >= T(e_j) - 0.2 tol >= U_j - h0 -
// 0.2 tol, so the width is <= h0 + 0.4 tol = tolerance. That halves the profile evaluations.
//
// Tail identification (Theorem 3.3, Lemma 3.1): delta_mu(eps) = exp(-eps^2/(2 mu^2) (1+o(1))),
// so the mechanism is GDP iff L = lim eps / sqrt(-2 log delta(eps)) is finite (and then it is
// mu-tail-GDP for every mu > L). A limit cannot be certified from finitely many evaluations of a
// black box: tail_ratio gives the certified value of eps / sqrt(-2 log delta(eps)) at any eps,
// and the built-in mechanisms know their L exactly (Gaussian Delta/sigma; pure DP, Laplace and
// discrete Laplace 0, since delta = 0 past their epsilon; discrete Gaussian Delta/sigma).
//
// Limits: eps_max in (0, 1000]; tolerance in [10^-9, 1]; mu_max in (0, 1000]; at most
// kMaxGridPoints grid points; binary searches at most 200 steps. Cost: about 2 profile-sized
// evaluations per grid point plus 2 binary searches (~25 evaluations each) per record.
// Errors: ParameterError naming eps_max, tolerance or mu_max. Thread-safety: as the profile.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// delta(eps) enclosure at working precision p; must be valid for every eps >= 0 asked.
using ProfileFunction = std::function<Interval(const mpq_class& eps, mpfr_prec_t precision)>;

inline constexpr std::size_t kMaxGridPoints = 1'000'000;  // ~1 minute of evaluations at most
// The command line's bound (GdptOptions::max_grid_points in `exactdp measure-gdp`): 20,000 KOV
// evaluations at k = 1000 take ~3 s idle, 7 s loaded (10^6 points took minutes before this bound).
inline constexpr std::size_t kMaxCliGridPoints = 20'000;
// The naive algorithm runs two binary searches (~50 GDP evaluations) at every grid point: it is
// refused (LimitError naming the tolerance) past this many points, ~3 s idle (12,248 points took
// 2 minutes before this bound).
inline constexpr std::size_t kMaxNaiveGridPoints = 1'000;

struct GdptOptions {
  mpq_class eps_max = 10;                   // measure the head on [0, eps_max]
  mpq_class tolerance = mpq_class(1, 1000); // absolute width wanted for the mu bracket
  mpq_class mu_max = 100;                   // larger mu counts as "not GDP on [0, eps_max]"
  mpfr_prec_t precision = 40;  // bits of the comparisons (low is fast; results stay certified)
  std::uint64_t seed = 0x9E3779B97F4A7C15ULL;  // shuffle order (affects speed only)
  bool naive = false;  // true: the paper's Algorithm 3 (a binary search at every grid point)
  std::size_t max_grid_points = kMaxGridPoints;  // LimitError (naming tolerance) past this

  void validate() const;  // throws ParameterError
};

struct GdptResult {
  // Contains mu_head = sup over [0, eps_max] of T: the mechanism is eps_max-head
  // mu.upper-GDP (proven), and not eps_max-head mu-GDP for any mu < mu.lower (proven).
  // mu.upper = +inf when T exceeds mu_max somewhere (bounded == false).
  Interval mu;
  bool bounded = true;
  std::size_t grid_points = 0;
  std::size_t binary_searches = 0;   // each search counted once
  std::size_t profile_evaluations = 0;
  std::size_t gdp_evaluations = 0;
  mpq_class eps_argmax;  // a grid point where the lower end was attained
};

[[nodiscard]] GdptResult gdpt_measure(const ProfileFunction& profile, const GdptOptions& options);

// A bracket of T(eps) = mu_eps(delta(eps)) of absolute width <= width (for plots and tests);
// [0, 0] when delta(eps) = 0; upper = +inf past mu_max.
[[nodiscard]] Interval gdpt_point(const ProfileFunction& profile, const mpq_class& eps,
                                  const mpq_class& width, const mpq_class& mu_max,
                                  mpfr_prec_t precision);

// eps / sqrt(-2 log delta(eps)), certified (increasing in delta): [0, 0] when delta(eps) = 0.
// Throws std::domain_error if delta(eps) may be >= 1.
[[nodiscard]] Interval tail_ratio(const ProfileFunction& profile, const mpq_class& eps,
                                  mpfr_prec_t precision);

// Built-in certified profiles for the mechanisms this file can measure without acct-core's
// profile files: mu-GDP, and a pure epsilon-DP worst case (randomized response):
//   delta(eps') = max(0, (e^eps - e^eps') / (1 + e^eps))   (gdp_bridge Theorem 2.1).
[[nodiscard]] ProfileFunction gdp_profile(const mpq_class& mu);
[[nodiscard]] ProfileFunction pure_dp_profile(const mpq_class& epsilon);
// The exact KOV profile of k-fold epsilon-DP composition (pure_dp_composition.h).
[[nodiscard]] ProfileFunction kov_profile(const mpq_class& epsilon, unsigned long k);

}  // namespace exactdp::accounting
