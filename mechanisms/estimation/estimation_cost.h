// estimation_cost.h — the up-front work limits of the estimators (SECURITY.md, "Limits"), checked
// by the library before any heavy work, so the command line, the C interface and Python refuse the
// same inputs with the same LimitError.
//
// Peeling (peeling.h, and so sparse_mean.h and every iteration of dp_lasso.h) draws d - r discrete
// Laplace noises in round r (report-noisy-max over the coordinates still in play) and one for the
// value: about s d - s^2 / 2 draws in all (measured ~1.1 us of CPU a draw at the default grid).
// With a delta, calibrating the advanced and KOV routes costs ~40 certified compositions of s
// rounds: measured 1.5 s at s = 700, 3.4 s at s = 2800, counted as 2000 draws a round (an upper
// bound on those). A small epsilon makes every draw and the calibration slower (the noise scale
// has as many bits as 1/epsilon: epsilon = 10^-300 took 2.4 times as long at s = 500, d = 1000;
// 10^-3000 took 3.4 s for one round, 10^-100000 55 s): epsilon is limited to 1024 bits of
// numerator plus denominator (~300 digits), and the work is scaled by 1 + bits / 512. The sum over
// all peelings of a call is refused over 4 * 10^6 draws (about 4.5 s of CPU, half the 10-second
// rule for a machine twice as slow), naming the sparsity.
//
// Noisy OLS (noisy_ols.h): the sums A = X^T X, b = X^T y take n p (p + 1) / 2 int128 multiply-adds
// (~1 ns each), limited to 2 * 10^9; the exact solve is fraction-free (Bareiss) elimination of the
// p x p integer system, whose entries grow to about p B bits (B = the bits of an entry of A): about
// p^3 / 3 products of numbers of up to p B bits, counted as p^3 L^1.5 / 3 limb products, L = p B / 64
// (about GMP's Toom range), limited to 8 * 10^8: measured 2.4 s for p = 100, n = 400, B = 75 bits
// (3.9 * 10^8 counted; the positive-definiteness check and the solve), so about 5 s at the limit
// (p about 120 at the default grid; docs/ESTIMATION.md, "Limits"). Both are refused naming x (the
// design's columns or rows) before the data are read. The positive-definiteness check is the same
// elimination without b, so a rejected design costs no more than an accepted one (1 s at p = 100).
// Errors: LimitError (a ParameterError) naming epsilon, sparsity (or the caller's name of it) or x.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>

namespace exactdp::mechanisms {

// The most bits of numerator plus denominator in epsilon.
inline constexpr unsigned long kMaxEstimateEpsilonBits = 1024;

// The bits of numerator plus denominator of q.
[[nodiscard]] unsigned long numerator_denominator_bits(const mpq_class& q);

// LimitError naming epsilon when it has more than kMaxEstimateEpsilonBits bits.
void check_epsilon_size(const mpq_class& epsilon);

// What the work of the peelings of one call depends on.
struct PeelingShape {
  std::size_t s = 1;
  std::size_t d = 1;
  bool with_delta = false;          // the advanced and KOV routes are calibrated too
  unsigned long epsilon_bits = 1;   // of numerator plus denominator
  std::size_t peelings = 1;         // dp_lasso: one per iteration
};

// The estimated work of the peelings (1 <= s <= d <= 10^5 each), in noise draws at the default
// scale (the routes' calibration included, counted as draws of the same cost); saturates.
[[nodiscard]] unsigned long long peeling_work(const PeelingShape& shape);

// The most work served.
inline constexpr unsigned long long kMaxPeelingWork = 4'000'000;

// ParameterError naming `name` unless 1 <= s <= d; LimitError naming epsilon when it is too long,
// or naming `name` when peeling_work is over kMaxPeelingWork.
void check_peeling_cost(const PeelingShape& shape, const char* name = "sparsity");

// What the work of noisy OLS depends on: n rows of p columns, entries of A of `entry_bits` bits.
struct OlsShape {
  std::size_t n = 1;
  std::size_t p = 1;
  unsigned long entry_bits = 1;
};

// Estimated limb products of the exact solve (saturates), and int128 multiply-adds of the sums.
[[nodiscard]] unsigned long long ols_solve_work(const OlsShape& shape);
[[nodiscard]] unsigned long long ols_sum_work(const OlsShape& shape);

inline constexpr unsigned long long kMaxOlsSolveWork = 800'000'000ULL;
inline constexpr unsigned long long kMaxOlsSumWork = 2'000'000'000ULL;

// LimitError naming x when either work is over its limit.
void check_ols_cost(const OlsShape& shape);

}  // namespace exactdp::mechanisms
