// skellam_pmf.h — the Skellam law Sk(mu) (samplers/skellam.h) as certified numbers: its masses
// s_k = P[X = k] = exp(-2 mu) I_|k|(2 mu) for |k| <= K and a bound on the tail beyond K, at a
// working precision p, for 0 < mu <= 10^6 (the audit's reference law, skellam_reference.h, and
// the exact profile, skellam_privacy.h).
//
// How the masses are certified (Interval arithmetic, outward rounding):
//  * the tail: for every t > 0, P[X >= a] <= exp(-t a + 2 mu (cosh t - 1)) (Chernoff, with the
//    moment generating function E e^(tX) = exp(mu (e^t + e^-t - 2))); t is a rational near
//    asinh(a / (2 mu)) (any t > 0 is valid, so its choice needs no certificate). K is the first
//    power of two with P[X > K] <= 2^-(p + 32);
//  * s_K and s_(K+1) by the series s_k = sum_j exp(-2 mu) mu^(2j + k) / (j! (j + k)!), every term
//    positive, stopped once the term ratio mu^2 / ((j + 1)(j + 1 + k)) is <= 1/2 and the term is
//    below 2^-(p + 16) of the partial sum; the rest is at most the last term (a geometric series
//    of ratio <= 1/2 with decreasing ratios) and is added as [0, term];
//  * s_k for k < K by the Bessel recurrence I_(k-1)(x) = I_(k+1)(x) + (2k / x) I_k(x), i.e.
//    s_(k-1) = s_(k+1) + (k / mu) s_k: sums of positive terms, so the relative width of the
//    enclosures does not grow beyond the rounding of each step (no cancellation).
// Precision: the working precision is min(p, 320) bits (precision() says which), so a caller
// that asks for more (a Ziv loop chasing a delta far below 2^-352) gets the 320-bit enclosure,
// still certified, instead of a table whose size and cost grow with p.
// Cost: O(mu + K) interval operations at that precision (mu = 10^6: a few seconds at 320 bits).
// Errors: LimitError naming "mu" beyond 10^6. Immutable after construction.
#pragma once

#include <gmpxx.h>

#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::laws {

class SkellamPmf {
 public:
  SkellamPmf(const mpq_class& mu, mpfr_prec_t precision);
  [[nodiscard]] const mpq_class& mu() const noexcept { return mu_; }
  [[nodiscard]] mpfr_prec_t precision() const noexcept { return precision_; }
  // The table's last index K (P[X > K] <= 2^-(p + 32)).
  [[nodiscard]] long table_end() const noexcept { return static_cast<long>(masses_.size()) - 1; }
  // P[X = k] for any integer k ([0, tail bound] beyond the table).
  [[nodiscard]] Interval mass(long k) const;
  // P[a <= X <= b] for 0 <= a <= b; b = -1: no upper end.
  [[nodiscard]] Interval mass_between(long a, long b) const;
  // An upper bound on P[X >= a], a >= 0 (Chernoff), as [0, bound].
  [[nodiscard]] Interval tail_from(const mpz_class& a) const;

 private:
  mpq_class mu_;
  mpfr_prec_t precision_;
  std::vector<Interval> masses_;  // s_0 .. s_K
  Interval beyond_;               // [0, bound on P[X > K]]
};

// The largest mu SkellamPmf accepts (10^6).
[[nodiscard]] const mpq_class& skellam_pmf_max_mu();
// The working precision of a table asked for at `asked` bits: min(asked, 320).
[[nodiscard]] mpfr_prec_t skellam_pmf_precision(mpfr_prec_t asked);

}  // namespace exactdp::laws
