// cmd_estimate_cost.h — the up-front limits of `exactdp estimate sparse-mean` (SECURITY.md,
// "Limits"): refused before a row is read, once the header gives d.
//
// Peeling draws d - r discrete Laplace noises in round r (report-noisy-max over the coordinates
// still in play) and one for the value: about s d - s^2 / 2 draws in all (measured ~1.1 us of CPU
// a draw at the default grid, 2026-11-26). With a delta, calibrating the advanced and KOV routes
// costs ~40 certified compositions of s rounds: measured 1.5 s at s = 700, 3.4 s at s = 2800,
// counted as 2000 draws a round (an upper bound on those). The sum is refused over 4 * 10^6
// draws (about 4.5 s of CPU: the margin of cli/draw_cost.h for a machine twice as slow), naming s
// (LimitError, exit 2). A small epsilon makes every draw and the calibration slower (the noise
// scale has as many bits as 1/epsilon: epsilon = 10^-300 took 2.4 times as long at s = 500,
// d = 1000; 10^-3000 took 3.4 s for one round, 10^-100000 55 s): epsilon is limited to 1024 bits
// of numerator plus denominator (~300 digits), and the work is scaled by 1 + bits / 512.
// Memory is O(d) (the column sums and names), d <= kMaxEstimateColumns.
// Reading the rows is linear in the input (~170 ns of CPU a value) and limited by
// --max-input-bytes only, like `release` and `aggregate`.
#pragma once

#include <gmpxx.h>

#include <cstddef>

namespace exactdp::cli {

// The most columns (coordinates) a row may have: the CSV reader's field limit.
inline constexpr unsigned long long kMaxEstimateColumns = 100'000;

// The most bits of numerator plus denominator in epsilon.
inline constexpr unsigned long kMaxEstimateEpsilonBits = 1024;

// LimitError naming epsilon when it has more than kMaxEstimateEpsilonBits bits.
void check_epsilon_size(const mpq_class& epsilon);

// What the work depends on.
struct SparseMeanShape {
  std::size_t s = 1;
  std::size_t d = 1;
  bool with_delta = false;          // the advanced and KOV routes are calibrated too
  unsigned long epsilon_bits = 1;   // of numerator plus denominator
};

// The estimated work of Peeling s of d coordinates (1 <= s <= d), in noise draws at the default
// scale (the routes' calibration included, counted as draws of the same cost).
[[nodiscard]] unsigned long long sparse_mean_work(const SparseMeanShape& shape);

// The most work served.
inline constexpr unsigned long long kMaxSparseMeanWork = 4'000'000;

// ParameterError naming s unless 1 <= s <= d; LimitError naming s when sparse_mean_work is over
// kMaxSparseMeanWork.
void check_sparse_mean_cost(const SparseMeanShape& shape);

// The bits of numerator plus denominator of q.
[[nodiscard]] unsigned long rational_bits(const mpq_class& q);

}  // namespace exactdp::cli
