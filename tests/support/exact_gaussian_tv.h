// exact_gaussian_tv.h — the total-variation distance between an exactly known law (dyadic or
// rational probabilities) and the discrete Gaussian D_{Z, sigma}, enclosed with exactdp::Interval
// independently of any sampler's builder (its own normaliser and tail bound, 320-bit precision).
// Used by the hardened samplers' law tests.
#pragma once

#include <gmpxx.h>

#include <algorithm>
#include <map>

#include <mpfr.h>

#include <exactdp/core/interval.h>

namespace exactdp::test_support {

using Law = std::map<long, mpq_class>;
inline constexpr mpfr_prec_t kTvPrecision = 320;

inline Interval gaussian_rho(long x, const mpq_class& sigma2) {
  return exp(Interval(mpq_class(-x * x) / (2 * sigma2), kTvPrecision));
}

// TV(hardened, D_{Z,sigma}) enclosed: 1/2 sum_x |P(x) - rho(x)/S| + 1/2 D(outside the support).
// S = sum_{|x| <= N} rho(x) + [0, 2 tail], tail = sum_{x > N} rho(x) <= rho(N+1) / (1 - exp(-(N+1)/sigma2))
// (x^2 - (N+1)^2 >= 2 (N+1) (x - N - 1)).
inline Interval gaussian_tv(const Law& law, const mpq_class& sigma2) {
  const long support = std::max(-law.begin()->first, law.rbegin()->first);
  mpz_class sigma_floor;
  mpz_sqrt(sigma_floor.get_mpz_t(), mpz_class(sigma2.get_num() / sigma2.get_den()).get_mpz_t());
  const long n = support + 20 * (sigma_floor.get_si() + 1) + 10;
  Interval s(0L, kTvPrecision), outside(0L, kTvPrecision);
  std::map<long, Interval> rho;
  for (long x = -n; x <= n; ++x) {
    Interval r = gaussian_rho(x, sigma2);
    s = s + r;
    if (law.count(x) == 0) outside = outside + r;
    else rho.emplace(x, std::move(r));
  }
  const Interval ratio = exp(Interval(mpq_class(-(n + 1)) / sigma2, kTvPrecision));
  Interval tail = gaussian_rho(n + 1, sigma2) / (Interval(1L, kTvPrecision) - ratio);
  tail = mul_2si(tail, 1);
  const Interval zero_to_tail = hull(Interval(0L, kTvPrecision), tail);
  s = s + zero_to_tail;
  outside = outside + zero_to_tail;
  Interval l1 = outside / s;
  for (const auto& [x, p] : law) l1 = l1 + abs(Interval(p, kTvPrecision) - rho.at(x) / s);
  return mul_2si(l1, -1);
}

inline mpq_class upper_of(const Interval& x) {
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), x.upper());
  return q;
}
inline mpq_class lower_of(const Interval& x) {
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), x.lower());
  return q;
}

}  // namespace exactdp::test_support
