// mean_comparison.h — the experiment of examples/private_mean (also run by
// tests/mechanisms/private_mean_test.cc): the private mean of n vectors in {-1, +1}^d whose true
// mean is s-sparse, released with the exact discrete Gaussian mechanism
// (mechanisms/private_mean/private_mean.h) at the classical (Dwork–Roth) and the analytic
// (Balle–Wang) calibrations, then denoised (James–Stein, soft thresholding at Donoho's universal
// threshold; mechanisms/private_mean/denoise.h). Errors are ||released - sample mean||_2^2
// (the privacy error alone), averaged over `repetitions` fresh noise draws on one data set.
// Data: x_ij = +1 with probability (1 + mu_j) / 2, else -1 (exact Bernoulli draws), mu_j = signal
// for j < sparsity, else 0; generated from a fixed seed, so the data set is reproducible.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <vector>

#include <exactdp/mechanisms/private_mean/denoise.h>
#include <exactdp/mechanisms/private_mean/private_mean.h>
#include <exactdp/samplers/bernoulli.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::examples {

struct MeanComparisonConfig {
  std::size_t n = 10'000;
  std::size_t d = 100;
  std::size_t sparsity = 5;
  mpq_class signal{1, 2};
  mpq_class epsilon{1, 10};
  mpq_class delta{1, 100'000};
  unsigned repetitions = 20;
};

struct MeanComparison {
  mpq_class sigma2_classical, sigma2_analytic;  // noise variance of the sum
  mpq_class rho_classical, rho_analytic;        // exact zCDP of the discrete release
  mpq_class error_classical = 0, error_analytic = 0, error_james_stein = 0, error_soft = 0;
  mpq_class sample_mean_norm2 = 0;              // ||sample mean||^2
};

inline MeanComparison run_mean_comparison(const MeanComparisonConfig& c, BitSource& data_bits,
                                          BitSource& noise_bits) {
  using namespace mechanisms;
  // The data set, summed on the fly (rows of +-1 need no clipping with C = 1, grid 1).
  std::vector<mpz_class> sum(c.d, mpz_class(0));
  std::vector<BernoulliParams> coins;
  for (std::size_t j = 0; j < c.d; ++j) {
    coins.push_back(BernoulliParams::make(j < c.sparsity ? mpq_class((1 + c.signal) / 2) : mpq_class(1, 2)));
  }
  for (std::size_t i = 0; i < c.n; ++i) {
    for (std::size_t j = 0; j < c.d; ++j) sum[j] += sample_bernoulli(data_bits, coins[j]) ? 1 : -1;
  }
  const mpq_class n(static_cast<unsigned long>(c.n));
  std::vector<mpq_class> sample_mean;
  for (const auto& s : sum) sample_mean.emplace_back(mpq_class(s) / n);
  MeanComparison r;
  for (const auto& m : sample_mean) r.sample_mean_norm2 += m * m;
  r.sigma2_classical = calibrate_mean_sigma2(MeanCalibration::kClassical, ClipKind::kCoordinate, 1, c.d, c.epsilon, c.delta);
  r.sigma2_analytic = calibrate_mean_sigma2(MeanCalibration::kAnalytic, ClipKind::kCoordinate, 1, c.d, c.epsilon, c.delta);
  PrivateMeanOptions o;
  o.clip = 1;
  o.granularity = 1;
  // Post-processing constants: per-coordinate noise variance of the MEAN, and the threshold.
  const mpq_class s2_mean = r.sigma2_analytic / (n * n);
  const mpq_class threshold = universal_threshold(s2_mean, c.d);
  for (unsigned rep = 0; rep < c.repetitions; ++rep) {
    o.sigma2 = r.sigma2_classical;
    const auto classical = release_grid_sum(sum, c.n, o, noise_bits);
    r.rho_classical = classical.rho;
    r.error_classical += squared_distance(classical.mean, sample_mean);
    o.sigma2 = r.sigma2_analytic;
    const auto analytic = release_grid_sum(sum, c.n, o, noise_bits);
    r.rho_analytic = analytic.rho;
    r.error_analytic += squared_distance(analytic.mean, sample_mean);
    r.error_james_stein += squared_distance(james_stein(analytic.mean, s2_mean), sample_mean);
    r.error_soft += squared_distance(soft_threshold(analytic.mean, threshold), sample_mean);
  }
  const mpq_class reps(c.repetitions);
  r.error_classical /= reps;
  r.error_analytic /= reps;
  r.error_james_stein /= reps;
  r.error_soft /= reps;
  return r;
}

}  // namespace exactdp::examples
