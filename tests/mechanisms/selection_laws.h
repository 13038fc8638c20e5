// selection_laws.h — the exact laws of mechanisms/selection/selection.h as certified MPFR
// intervals (tests only), computed independently of the samplers:
//  * exponential:       p_i = w_i / sum_j w_j, w_i = exp(-c (u* - u_i)) (closed form);
//  * permute-and-flip:  the average over all n! orders of a_i prod_{j before i} (1 - a_j),
//                       a_i = exp(-c (u* - u_i)) (enumeration; n <= 7);
//  * report-noisy-max with discrete Laplace noise on the grid (smallest index wins ties):
//      p_i = sum_x P[X = x] prod_{j < i} P[X_j < s_i + x - s_j] prod_{j > i} P[X_j <= s_i + x - s_j]
//    summed over |x| <= L with the omitted mass, at most P[|X| > L] = 2 q^(L+1) / (1 + q),
//    added to the upper end (q = exp(-1/t)); L is chosen so that this is below 2^-200;
//  * peeling (two rounds): P[(i, j)] = L(S)[i] L(S \ {i})[j].
// Every operation rounds outward (core/interval.h), so each interval contains the exact
// probability.
#pragma once

#include <gmpxx.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/mechanisms/selection/selection.h>

namespace exactdp::test_support {

using exactdp::Interval;
inline constexpr mpfr_prec_t kLawPrecision = 256;

inline std::vector<Interval> acceptance_coins(const std::vector<mpq_class>& u, const mpq_class& c) {
  const mpq_class best = *std::max_element(u.begin(), u.end());
  std::vector<Interval> a;
  for (const auto& x : u) a.push_back(exactdp::exp(Interval(mpq_class(-c * (best - x)), kLawPrecision)));
  return a;
}

inline std::vector<Interval> exponential_law(const std::vector<mpq_class>& u, const mpq_class& c) {
  const auto w = acceptance_coins(u, c);
  Interval total(kLawPrecision);
  for (const auto& x : w) total = total + x;
  std::vector<Interval> p;
  for (const auto& x : w) p.push_back(x / total);
  return p;
}

inline std::vector<Interval> permute_and_flip_law(const std::vector<mpq_class>& u, const mpq_class& c) {
  const auto a = acceptance_coins(u, c);
  const std::size_t n = u.size();
  std::vector<std::size_t> perm(n);
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::vector<Interval> p(n, Interval(kLawPrecision));
  mpz_class orders = 0;
  do {
    Interval reach(1L, kLawPrecision);  // P[the walk reaches this position]
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = perm[k];
      p[i] = p[i] + reach * a[i];
      reach = reach * (mpq_class(1) - a[i]);
    }
    ++orders;
  } while (std::next_permutation(perm.begin(), perm.end()));
  for (auto& x : p) x = x / mpq_class(orders);
  return p;
}

// P[X <= x] for P[X = x] proportional to q^|x|, q = exp(-1/t).
inline Interval discrete_laplace_cdf(const mpz_class& x, const mpq_class& t) {
  if (x < 0) {
    const Interval qx = exactdp::exp(Interval(mpq_class(mpq_class(x) / t), kLawPrecision));  // q^-x
    const Interval q = exactdp::exp(Interval(mpq_class(-1 / t), kLawPrecision));
    return qx / (q + mpq_class(1));
  }
  const Interval q = exactdp::exp(Interval(mpq_class(-1 / t), kLawPrecision));
  const Interval qx1 = exactdp::exp(Interval(mpq_class(-mpq_class(x + 1) / t), kLawPrecision));
  return mpq_class(1) - qx1 / (q + mpq_class(1));
}

inline std::vector<Interval> noisy_max_laplace_law(const std::vector<mpz_class>& s, const mpq_class& t) {
  const std::size_t n = s.size();
  const Interval q = exactdp::exp(Interval(mpq_class(-1 / t), kLawPrecision));
  const Interval norm = (mpq_class(1) - q) / (q + mpq_class(1));
  // L with 2 q^(L+1) / (1 + q) < 2^-200: (L + 1) / t >= 200 ln 2 < 139.
  mpz_class limit = 140 * t.get_num() / t.get_den() + 1;
  const long L = limit.get_si();
  std::vector<Interval> p(n, Interval(kLawPrecision));
  for (std::size_t i = 0; i < n; ++i) {
    for (long x = -L; x <= L; ++x) {
      Interval term = norm * exactdp::exp(Interval(mpq_class(-mpq_class(x < 0 ? -x : x) / t), kLawPrecision));
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        mpz_class bound = s[i] + x - s[j];
        if (j < i) bound -= 1;  // strict: X_j < s_i + x - s_j
        term = term * discrete_laplace_cdf(bound, t);
      }
      p[i] = p[i] + term;
    }
    const Interval tail = mul_2si(exactdp::exp(Interval(mpq_class(-mpq_class(L + 1) / t), kLawPrecision)) /
                                      (q + mpq_class(1)), 1);
    Interval slack = Interval::from_ends(Interval(kLawPrecision).lower(), tail.upper(), kLawPrecision);
    p[i] = p[i] + slack;
  }
  return p;
}

// The law of one round of `options` on the scores u (the same computations the CLI would
// need; report-noisy-max with exponential noise has permute-and-flip's law).
inline std::vector<Interval> selection_law(const std::vector<mpq_class>& u,
                                           const mechanisms::SelectionOptions& options) {
  const mpq_class c = options.epsilon / (options.monotonic ? options.sensitivity : 2 * options.sensitivity);
  switch (options.mechanism) {
    case mechanisms::SelectionMechanism::kExponential:
      return exponential_law(u, c);
    case mechanisms::SelectionMechanism::kPermuteAndFlip:
      return permute_and_flip_law(u, c);
    case mechanisms::SelectionMechanism::kReportNoisyMax:
      break;
  }
  if (options.noise == mechanisms::NoiseKind::kExponential) return permute_and_flip_law(u, c);
  mpz_class d = options.sensitivity.get_den();
  for (const auto& x : u) mpz_lcm(d.get_mpz_t(), d.get_mpz_t(), x.get_den().get_mpz_t());
  std::vector<mpz_class> s;
  for (const auto& x : u) s.emplace_back(x.get_num() * (d / x.get_den()));
  const mpq_class grid_sensitivity = options.sensitivity * mpq_class(d);
  const mpq_class t = (options.monotonic ? grid_sensitivity : 2 * grid_sensitivity) / options.epsilon;
  return noisy_max_laplace_law(s, t);
}

// Two peeling rounds: cell i * n + j holds P[(i, j)] (0 when i == j).
inline std::vector<Interval> two_round_peeling_law(const std::vector<mpq_class>& u,
                                                   const mechanisms::SelectionOptions& options) {
  const std::size_t n = u.size();
  const auto first = selection_law(u, options);
  std::vector<Interval> p(n * n, Interval(kLawPrecision));
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<mpq_class> rest;
    std::vector<std::size_t> index;
    for (std::size_t j = 0; j < n; ++j) {
      if (j != i) {
        rest.push_back(u[j]);
        index.push_back(j);
      }
    }
    const auto second = selection_law(rest, options);
    for (std::size_t k = 0; k < rest.size(); ++k) p[i * n + index[k]] = first[i] * second[k];
  }
  return p;
}

}  // namespace exactdp::test_support
