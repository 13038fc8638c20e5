// private_mean.h — the private mean of n vectors in R^d (Cai–Wang–Zhang "The cost of privacy";
// Balle–Wang "analytic Gaussian", section 5), released EXACTLY on a fixed-point grid with the
// discrete Gaussian (CKS20), with a certified guarantee.
//
// Mechanism. Each row x (d rational coordinates) is clipped, then mapped onto the grid G Z
// (G > 0 rational, the granularity) by rounding every coordinate TOWARD ZERO:
//   kCoordinate: x_j -> clamp(x_j, -C, C), so every row lies in [-C, C]^d;
//   kL2:         x -> x * min(1, C / N) with N a rational upper bound of ||x||_2 (MPFR square
//                root rounded up), so ||x||_2 <= C;
// rounding toward zero never increases |x_j| nor ||x||_2, so the bounds survive it. The sum of
// the grid integers s = sum_i x_i / G is released as s + Z with Z_j independent discrete
// Gaussians N_Z(0, sigma2 / G^2) (samplers/discrete_gaussian.h: exact), and the mean as
// G (s + Z) / n, an exact rational vector. n is public (replace-one neighbours).
// Sensitivity: replacing one row moves s by at most Delta_2 in L2 norm, with
//   Delta_2^2 = 4 C^2 d / G^2 (kCoordinate) or 4 C^2 / G^2 (kL2), exact rationals.
// Guarantee: rho-zCDP with rho = Delta_2^2 / (2 sigma2_grid) = 2 C^2 d / sigma2 (resp. 2 C^2 /
// sigma2), EXACTLY (CKS20 Theorem 14: the multivariate discrete Gaussian has the Renyi
// divergences of the continuous one), and (epsilon, delta)-DP by the certified conversion of
// accounting/zcdp.h (CKS20 Corollary 13) when a delta is given.
// Calibration: calibrate_mean_sigma2 returns the noise variance sigma2 (data units) from the
// analytic Gaussian calibration (Balle–Wang, accounting/analytic_gaussian.h) or the classical
// Dwork–Roth sigma, for an L2 sensitivity bound of the MEAN rounded up to a rational. Those are
// the continuous mechanism's calibrations: the exact discrete release's own guarantee is the
// zCDP one above, reported beside it (never the continuous claim).
// Randomness and exactness: d discrete Gaussian draws; integer and rational arithmetic only
// (MPFR only to bound a square root, rounded up). Not constant-time.
// Errors: ParameterError naming clip, granularity, sigma2, rows (empty, ragged, or more than
// kMaxMeanRows x kMaxMeanDimension entries), epsilon or delta.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

inline constexpr std::size_t kMaxMeanEntries = 100'000'000;  // n * d

enum class ClipKind { kCoordinate, kL2 };

struct PrivateMeanOptions {
  ClipKind clip_kind = ClipKind::kCoordinate;
  mpq_class clip = 1;         // C > 0
  mpq_class granularity = 1;  // G > 0
  mpq_class sigma2 = 1;       // noise variance of the SUM, in data units squared, > 0
  std::optional<mpq_class> delta;  // for the (epsilon, delta) statement
};

struct PrivateMeanRelease {
  std::vector<mpz_class> noisy_grid_sum;  // s + Z
  std::vector<mpq_class> mean;            // G (s + Z) / n
  mpq_class sensitivity2_squared;         // Delta_2^2 of s (grid units)
  mpq_class sigma2_grid;                  // sigma2 / G^2
  mpq_class rho;                          // exact zCDP parameter
  std::optional<exactdp::Interval> epsilon;  // certified (use the upper end), at options.delta
};

// The clipped, grid-rounded sum s (integers) of the rows; validates rows and options.
[[nodiscard]] std::vector<mpz_class> clipped_grid_sum(const std::vector<std::vector<mpq_class>>& rows,
                                                      const PrivateMeanOptions& options);
// The release of a precomputed clipped grid sum s of n rows (what private_mean does after
// clipped_grid_sum); options.clip and clip_kind give the sensitivity.
[[nodiscard]] PrivateMeanRelease release_grid_sum(std::vector<mpz_class> s, std::size_t n,
                                                  const PrivateMeanOptions& options, BitSource& bits);
// The exact release.
[[nodiscard]] PrivateMeanRelease private_mean(const std::vector<std::vector<mpq_class>>& rows,
                                              const PrivateMeanOptions& options, BitSource& bits);

enum class MeanCalibration { kAnalytic, kClassical };
// sigma2 (variance of the noise on the SUM, data units) for (epsilon, delta) by the continuous
// Gaussian calibration chosen, with the L2 sensitivity of the sum, 2 C sqrt(d) (kCoordinate) or
// 2 C (kL2), rounded UP to a rational; the result is rounded up too. Classical needs epsilon < 1.
[[nodiscard]] mpq_class calibrate_mean_sigma2(MeanCalibration calibration, ClipKind clip_kind,
                                              const mpq_class& clip, std::size_t dimension,
                                              const mpq_class& epsilon, const mpq_class& delta);

}  // namespace exactdp::mechanisms
