// private_mean — reproduces the claims of analytic_gaussian.txt (Balle–Wang 2018, section 5) on a
// bundled, reproducible data set: analytic calibration beats the classical Gaussian mechanism,
// and denoising the released mean (James–Stein, soft thresholding) reduces the error further.
// n = 10^4 vectors in {-1, +1}^100 with a 5-sparse true mean, epsilon = 0.1, delta = 10^-5,
// 20 noise repetitions. The noise is the exact discrete Gaussian; the data come from a fixed seed.
//   ./build/examples/private_mean
#include <cmath>
#include <cstdio>

#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>
#include "examples/private_mean/mean_comparison.h"

int main() {
  using namespace exactdp;
  examples::MeanComparisonConfig c;
  Seed data_seed{};
  data_seed[0] = 14;  // the bundled data set: always the same
  SeededBits data_bits(data_seed);
  SystemBits noise_bits;  // fresh noise each run (the claims hold for every run; see the test)
  const auto r = examples::run_mean_comparison(c, data_bits, noise_bits);
  // Display only: doubles for printing, never for sampling.
  const double classical = r.error_classical.get_d(), analytic = r.error_analytic.get_d();
  const double js = r.error_james_stein.get_d(), soft = r.error_soft.get_d();
  std::printf("private mean: n = %zu, d = %zu, %zu-sparse mean (signal %.2f), epsilon = %.2f, delta = %.0e\n",
              c.n, c.d, c.sparsity, c.signal.get_d(), c.epsilon.get_d(), c.delta.get_d());
  std::printf("noise sd on the sum: classical %.1f, analytic %.1f (ratio %.3f)\n",
              std::sqrt(r.sigma2_classical.get_d()), std::sqrt(r.sigma2_analytic.get_d()),
              std::sqrt(r.sigma2_classical.get_d() / r.sigma2_analytic.get_d()));
  std::printf("exact discrete release: rho-zCDP with rho = %.3g (classical), %.3g (analytic), exact\n",
              r.rho_classical.get_d(), r.rho_analytic.get_d());
  std::printf("mean squared L2 error vs the sample mean (||sample mean||^2 = %.3f), %u repetitions:\n",
              r.sample_mean_norm2.get_d(), c.repetitions);
  std::printf("  classical Gaussian (Dwork-Roth sigma)   %.4f\n", classical);
  std::printf("  analytic Gaussian (Balle-Wang)          %.4f   (%.0f %% less than classical)\n",
              analytic, 100 * (1 - analytic / classical));
  std::printf("  analytic + James-Stein                  %.4f   (%.0f %% less than analytic)\n",
              js, 100 * (1 - js / analytic));
  std::printf("  analytic + soft thresholding            %.4f   (%.0f %% less than analytic)\n",
              soft, 100 * (1 - soft / analytic));
  // Cai-Wang-Zhang (cost of privacy), s-sparse mean in d dimensions: the minimax risk is of order
  // s log d / n + s^2 log^2 d log(1/delta) / (n^2 epsilon^2) (constants omitted), reached by
  // their Peeling-based algorithm. A dense release of rows in [-1, 1]^d (L2 sensitivity of the
  // mean 2 sqrt(d) / n) pays d^2 log(1/delta) / (n eps)^2 in privacy error; denoising a dense
  // release (post-processing) moves towards, but does not reach, the sparse rate.
  const double n = static_cast<double>(c.n), d = static_cast<double>(c.d), s = static_cast<double>(c.sparsity);
  const double eps = c.epsilon.get_d(), l = std::log(1 / c.delta.get_d());
  std::printf("orders of magnitude (Cai-Wang-Zhang, constants omitted): sparse privacy term "
              "s^2 log^2(d) log(1/delta)/(n eps)^2 = %.4f, dense d^2 log(1/delta)/(n eps)^2 = %.4f, "
              "statistical s log(d)/n = %.4f\n",
              s * s * std::log(d) * std::log(d) * l / (n * n * eps * eps), d * d * l / (n * n * eps * eps),
              s * std::log(d) / n);
  return 0;
}
