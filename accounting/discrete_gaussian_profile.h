// discrete_gaussian_profile.h — the exact privacy profile of the discrete Gaussian mechanism,
// certified, for any rational sigma2 (10^-6 ... 10^100 and beyond) and integer sensitivity.
//
// CKS20 Theorem 7: adding Z ~ N_Z(0, sigma2) (P[Z = x] proportional to f(x) = exp(-x^2/(2 sigma2))
// on the integers) to an integer query of sensitivity Delta is (eps, delta)-DP exactly for
//   delta(eps) = P[Z > eps sigma2/Delta - Delta/2] - e^eps P[Z > eps sigma2/Delta + Delta/2].
// With k1 = floor(eps sigma2/Delta - Delta/2) + 1 and k2 = k1 + Delta (exact integers), and
// S(k) = sum_{x >= k} f(x), N = sum_{x in Z} f(x), this is
//   delta = [ S(k1) - e^eps S(k2) ] / N = [ D - expm1(eps) S(k2) ] / N,
//   D = sum_{x = k1}^{k2 - 1} f(x)  (Delta terms; summed directly when Delta <= 4096),
// the second form avoiding the cancellation of S(k1) against e^eps S(k2) for eps <= 1. For
// eps > 1, e^eps S(k2) is summed with the exact exponents eps - y^2/(2 sigma2), so e^eps never
// overflows (eps = 10^400 with sigma2 = 10^-400 is fine).
//
// How the sums are certified (discrete_gaussian_profile.cc has the proofs):
//  - N: Poisson summation, N = sqrt(2 pi sigma2) (1 + 2 sum_{k>=1} exp(-2 pi^2 sigma2 k^2)), with
//    a geometric bound on the omitted terms (sigma2 >= 1/2); direct summation below.
//  - S(k), small sigma2 (< 4096) or deep tails (k >= sigma2/2): direct summation by the ratio
//    recurrence f(x+1) = f(x) exp(-(2x+1)/(2 sigma2)), plus the geometric tail bound
//    sum_{y > x} f(y) <= f(x+1) / (1 - exp(-(2x+3)/(2 sigma2))) (ratios decrease for x >= 0).
//  - S(k) otherwise: Euler–Maclaurin to order 2m with the remainder bounded by
//    |B_2m|/(2m)! * int_k^inf |f^(2m)|, the integral bounded exactly via Hermite polynomials.
//    For sigma2 = 10^100 a few terms give 10^-200 relative accuracy: no 10^50-term sums.
// Every piece is an outward-rounded interval; a piece that cannot reach the working precision
// (e.g. a result below MPFR's range, 2^(-2^62)) stays certified but wide, and the Ziv driver
// then reports tolerance_met = false instead of pretending.
//
// Errors: ParameterError for eps < 0, sigma2 <= 0, sensitivity not a positive integer.
// Thread-safety: pure functions (the Bernoulli-number table is built once, thread-safely).
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

// Which algorithm sums the Gaussian series. kAuto chooses per sum (see above); the others force
// one method everywhere (for cross-checking two independent algorithms in the tests).
enum class GaussianSumMethod { kAuto, kDirect, kEulerMaclaurin };

[[nodiscard]] Interval discrete_gaussian_delta_at(
    const mpq_class& epsilon, const mpq_class& sigma2, const mpz_class& sensitivity,
    mpfr_prec_t precision, GaussianSumMethod method = GaussianSumMethod::kAuto);

[[nodiscard]] Certified discrete_gaussian_delta(
    const mpq_class& epsilon, const mpq_class& sigma2, const mpz_class& sensitivity,
    const ZivOptions& options = {}, GaussianSumMethod method = GaussianSumMethod::kAuto);

// 1 - delta(eps), with relative accuracy however close delta is to 1: with the notation above,
//   1 - delta = [N - S(k1) + e^eps S(k2)] / N = [S(1 - k1) + e^eps S(k2)] / N
// (sum_{x < k1} f(x) = S(1 - k1) by symmetry), a sum of positive terms. Outward rounded,
// clamped to [0, 1]. Used by the calibration for targets above 1/2.
[[nodiscard]] Interval discrete_gaussian_delta_complement_at(
    const mpq_class& epsilon, const mpq_class& sigma2, const mpz_class& sensitivity,
    mpfr_prec_t precision, GaussianSumMethod method = GaussianSumMethod::kAuto);

// Cost limit. For sensitivity > 4096 the sum D of the Delta terms from k1 is S(k1) - S(k2), which
// cancels about log2(sigma / Delta) bits; past kMaxRangeCancellationBits (20,000: about 2 s, where
// 10^-100000-sized targets took minutes or failed at the 65,536-bit cap) the profile and the
// calibration are refused up front with a LimitError naming the sensitivity (and sigma2, or delta
// for the calibration), instead of running for minutes. Sensitivity <= 4096 sums D term by term
// and has no such limit.
inline constexpr long kMaxRangeCancellationBits = 20'000;
// log2(sqrt(sigma2) / sensitivity), roughly (within 2): the bits the range sum cancels.
[[nodiscard]] long range_sum_cancellation_bits(const mpq_class& sigma2, const mpz_class& sensitivity);
// Throws LimitError (naming `parameter`, then "sensitivity") when sensitivity > 4096 and the
// cancellation above exceeds kMaxRangeCancellationBits.
void check_range_sum_cost(const mpq_class& sigma2, const mpz_class& sensitivity,
                          const char* parameter);

// Validation shared with the calibration and the CLI (ParameterError naming the parameter).
void validate_discrete_gaussian(const mpq_class& epsilon, const mpq_class& sigma2,
                                const mpz_class& sensitivity);

// Delta / sqrt(sigma2), the limit L of eps / sqrt(-2 log delta(eps)) as eps grows (the tail of
// the discrete Gaussian profile is a Gaussian tail, CKS20 Theorem 7; gdp_bridge Theorem 3.3).
// sigma2 > 0, sensitivity >= 1 (ParameterError otherwise).
[[nodiscard]] Interval discrete_gaussian_tail_limit(const mpq_class& sigma2, const mpz_class& sensitivity,
                                                    mpfr_prec_t precision);

namespace internal {

// sum_{x >= k} exp(-x^2 / (2 sigma2)) for any integer k.
[[nodiscard]] Interval gaussian_tail_sum(const mpz_class& k, const mpq_class& sigma2,
                                         mpfr_prec_t precision, GaussianSumMethod method);
// e^log_scale * sum_{x >= k} exp(-x^2 / (2 sigma2)) for k >= 0, computed with the exact
// exponents log_scale - x^2/(2 sigma2) (no overflow of e^log_scale).
[[nodiscard]] Interval gaussian_tail_sum_scaled(const mpz_class& k, const mpq_class& sigma2,
                                                const mpq_class& log_scale,
                                                mpfr_prec_t precision, GaussianSumMethod method);
// sum_{a <= x <= b} exp(-x^2 / (2 sigma2)); 0 when b < a.
[[nodiscard]] Interval gaussian_range_sum(const mpz_class& a, const mpz_class& b,
                                          const mpq_class& sigma2, mpfr_prec_t precision,
                                          GaussianSumMethod method);
// sum_{x in Z} exp(-x^2 / (2 sigma2)): kAuto uses Poisson summation for sigma2 >= 1/2.
[[nodiscard]] Interval gaussian_normaliser(const mpq_class& sigma2, mpfr_prec_t precision,
                                           GaussianSumMethod method);
[[nodiscard]] Interval gaussian_normaliser_poisson(const mpq_class& sigma2,
                                                   mpfr_prec_t precision);

}  // namespace internal
}  // namespace exactdp::accounting
