// internal/poisson_fixed.h — the Poisson envelope's acceptance a(k) (samplers/poisson.h) enclosed in
// 64/80-bit fixed point with integer arithmetic only (not installed): the common path of
// sample_poisson from mu = 64 on. Nothing here uses floating point.
//
// With m = floor(mu), j = k - m, x = j / m and lambda, t the envelope's rate and half-width:
//   log a(k) = d = j log(mu / m) - m g(x) - log1p(x) / 2 - 1/(12 k) + 1/(12 m) + r(k) - r(m)
//                  + lambda (|j| - t),
// Stirling's series as in poisson.cc (ln n! = S(n) - r(n), 0 < r(n) < 1/(360 n^3)), where
//   m g(x) = (k ln k - m ln m) - j ln m - j = m ((1 + x) log1p(x) - x)
//          = sum_{n>=2} (-1)^n j x^(n-1) / (n (n-1)),
//   log1p(x) = sum_{n>=1} (-1)^(n+1) x^n / n.
// The range: m >= 64 and |j| <= m / 4 (so |x| <= 1/4) and |j| < 2^31; elsewhere no enclosure is
// given (the caller takes the MPFR path).
// Enclosure of d, as integers [lo, hi] in units of 2^-64: x is enclosed from a one-sided reciprocal
// of m (inv = floor((2^(64+s) - 1) / m) with 2^s <= m < 2^(s+1): 2^64 |j| / m lies in
// [floor(|j| inv / 2^s), floor(|j| (inv + 1) / 2^s) + 1], as |j| < 2^s); the powers
// Q_n = |j| x^(n-1) and X_n = |x|^n by products rounded down (lower end) and down plus one (upper
// end), each term P / w (Q_n / (n (n-1)), X_n / (2 n)) as floor(P r_lo / 2^64) and
// floor(P r_hi / 2^64) + 1 with r_lo = floor((2^64 - 1) / w) <= 2^64 / w <= r_hi = r_lo + 1;
// the series stop at the first N whose Q_N (or X_N) is at most 2^-56, and the rest is enclosed in
// [-Q_N, Q_N] (the rest's terms shrink by |x| <= 1/4 and carry 1/(n (n-1)) <= 1/2: the rest is below
// (2/3) Q_N; likewise for X_N). log(mu / m) (0 <= it < 1/m) is held in units of 2^-96 with its
// floor and ceiling; lambda (exact rational, below 1) in units of 2^-96, floor and ceiling;
// 1/(12 k) as floor((2^64 - 1) / (12 k)) and that plus one (12 k is not a power of two); r(k) below
// ceil(2^64 / (360 k'^3)) with k' = m - floor(m / 4) <= k (or one unit for k' >= 2^21), r(m)
// likewise. Every rounding is outward, so the true d lies in [lo, hi].
// Then a = exp(d) = 2^-h with h = -d log2(e): h's ends from -d's ends times floor / ceiling of
// 2^53 log2(e) (units 2^-117), and 2^-h by fixed_exp52_alpha (internal/fixed_exp52.h), whose value
// alpha is within E = kFixedExp52AlphaErrorUnits units of 2^-80 of 2^-h, and
// 2^-h_hi >= 2^-h_lo (1 - (h_hi - h_lo) ln 2) >= 2^-h_lo - (h_hi - h_lo) 2^-h_lo: a lies in
// [alpha(h_lo) - E - g, alpha(h_lo) + E] / 2^80 with g >= 2^80 (h_hi - h_lo) (alpha(h_lo) + E) / 2^80
// (rounded up; one evaluation of the exponential). Where -d >= 22 (a < 2^-31) the upper end is 2^-31 and the lower 0.
// The decision (poisson.cc): a uniform U in [u, u + 1) / 2^64 from its first 64 bits u is accepted
// when (u + 1) / 2^64 <= the lower end, rejected when u / 2^64 >= the upper end; otherwise (the
// interval, about 2^-55 wide, holds U's cell: rarely) the MPFR path decides with the same U. Both
// paths decide the same event U < a(k), so the law is the envelope rejection's exactly.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <optional>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>

namespace exactdp {
class PoissonParams;
}  // namespace exactdp

namespace exactdp::internal {

// The constants of one mu for the fixed-point enclosure (units as in the header comment).
struct PoissonFixedTerms {
  std::int64_t m = 0, t = 0;
  unsigned inverse_shift = 0;              // s: 2^s <= m < 2^(s+1)
  std::uint64_t inverse = 0;               // floor((2^(64+s) - 1) / m)
  uint128 log_mu_over_m[2] = {0, 0};       // floor and ceiling of 2^96 log(mu / m)
  uint128 rate[2] = {0, 0};                // floor and ceiling of 2^96 lambda
  std::uint64_t twelfth_m[2] = {0, 0};     // floor and ceiling of 2^64 / (12 m)
  std::uint64_t remainder_m = 0;           // ceiling of 2^64 / (360 m^3), at least 1
  std::uint64_t remainder_k = 0;           // the same at m - floor(m / 4), the least k of the range
};

// The terms for mu >= 64 with mode m, half-width t and rate lambda (poisson.cc's envelope).
[[nodiscard]] PoissonFixedTerms make_poisson_fixed_terms(const mpq_class& mu, const mpz_class& m, const mpz_class& t,
                                                         const mpq_class& lambda);

// Bounds lo <= a(m + j) <= hi on the acceptance, in units of 2^-80; std::nullopt outside the range.
struct AcceptanceBounds {
  uint128 lo = 0, hi = 0;
};
[[nodiscard]] std::optional<AcceptanceBounds> poisson_fixed_acceptance(const PoissonFixedTerms& terms,
                                                                       std::int64_t j) noexcept;

// sample_poisson with every acceptance decided on the MPFR path (the fixed-point one skipped): the
// same values from the same bits; for the tests.
void sample_poisson_mpfr_only(BitSource& bits, const PoissonParams& params, mpz_class& out);

}  // namespace exactdp::internal
