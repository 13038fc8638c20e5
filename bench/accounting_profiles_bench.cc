// Profile and calibration benchmarks (BENCHMARKS.md): Gaussian delta at 128 bits, the analytic
// Gaussian calibration to relative width 2^-100 (target <= 2 ms), the discrete Gaussian delta at
// sigma2 = 10^100 (target <= 50 ms), and the discrete Gaussian calibration.
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target accounting_profiles_bench
//   ./build-bench/bench/accounting_profiles_bench --benchmark_repetitions=9
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/core/rational.h>

namespace {

using namespace exactdp;
using namespace exactdp::accounting;

mpq_class q(const char* s) { return parse_rational("bench", s); }

// One certified evaluation of the Gaussian (mu = 1) profile at 128 bits; eps = range(0).
void BM_GaussianDelta128(benchmark::State& state) {
  const mpq_class eps(state.range(0));
  for (auto _ : state) {
    Interval d = gdp_delta_at(eps, mpq_class(1), 128);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_GaussianDelta128)->Arg(1)->Arg(10)->Arg(1000000)->Unit(benchmark::kMicrosecond);

// The same through the Ziv driver to relative width 2^-100 (the default tolerance).
void BM_GaussianDeltaCertified(benchmark::State& state) {
  const mpq_class eps(state.range(0));
  for (auto _ : state) {
    Certified c = gdp_delta(eps, mpq_class(1));
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_GaussianDeltaCertified)->Arg(1)->Arg(1000000)->Unit(benchmark::kMicrosecond);

// Analytic Gaussian calibration, bracket relative width <= 2^-100. Target: <= 2 ms.
void BM_AnalyticGaussianCalibration(benchmark::State& state) {
  // The last one, 1 - 10^-29, is certified on 1 - delta (it took 50 s before session 2).
  static const char* deltas[] = {"1e-5", "1e-15", "1e-100", "0.99999999999999999999999999999"};
  const mpq_class delta = q(deltas[state.range(0)]);
  state.SetLabel(std::string("eps=1 delta=") + deltas[state.range(0)]);
  for (auto _ : state) {
    GaussianCalibration c = calibrate_gaussian(mpq_class(1), delta, mpq_class(1));
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_AnalyticGaussianCalibration)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

// Discrete Gaussian delta at sigma2 = 10^100, certified to 2^-100. Target: <= 50 ms.
// Arg 0: sensitivity 1, eps = 1e-50 (threshold at one standard deviation);
// Arg 1: sensitivity 10^50, eps = 1 (the continuous mu = 1 regime).
void BM_DiscreteGaussianDelta1e100(benchmark::State& state) {
  const mpq_class sigma2 = q("1e100");
  const mpq_class eps = state.range(0) == 0 ? q("1e-50") : q("1");
  const mpz_class sens = state.range(0) == 0 ? mpz_class(1) : mpz_class("1" + std::string(50, '0'));
  for (auto _ : state) {
    Certified c = discrete_gaussian_delta(eps, sigma2, sens);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_DiscreteGaussianDelta1e100)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Discrete Gaussian delta at moderate sigma2 (Euler–Maclaurin) and small sigma2 (direct sums).
void BM_DiscreteGaussianDelta(benchmark::State& state) {
  const mpq_class sigma2(state.range(0));
  for (auto _ : state) {
    Certified c = discrete_gaussian_delta(mpq_class(1, 2), sigma2, mpz_class(1));
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_DiscreteGaussianDelta)->Arg(2)->Arg(1000)->Arg(1000000)
    ->Unit(benchmark::kMicrosecond);

// Discrete Gaussian calibration (eps = 1, delta = 1e-5): 3 significant digits, bracket 2^-32.
void BM_DiscreteGaussianCalibration(benchmark::State& state) {
  for (auto _ : state) {
    DiscreteGaussianCalibration c = calibrate_discrete_gaussian(mpq_class(1), q("1e-5"), mpz_class(1));
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_DiscreteGaussianCalibration)->Unit(benchmark::kMillisecond);

}  // namespace
