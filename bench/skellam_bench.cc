// Skellam benchmarks: ns and random bits per draw of sample_skellam (samplers/skellam.h) and of
// sample_poisson, against the discrete Gaussian at the same variance (sigma2 = 2 mu), seeded
// ChaCha20 source (docs/FEDERATED.md, "Cost").
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target skellam_bench
//   ./build-bench/bench/skellam_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/internal/poisson_fixed.h>
#include <exactdp/samplers/poisson.h>
#include <exactdp/samplers/skellam.h>

#include "bench/integer_law_bench.h"

namespace {

using namespace exactdp;
using exactdp::bench::bench_integer_law;

// mu; the discrete Gaussian cases use sigma2 = 2 mu (the same variance).
const char* const kMu[] = {"1/3", "25", "1e6", "1e12"};
const char* const kSigma2[] = {"2/3", "50", "2e6", "2e12"};
// Poisson alone: both of its paths (mu < 64: sum of small pieces; from 64 on: the envelope).
const char* const kPoissonMu[] = {"10", "1000", "1e6", "1e12"};

void BM_Skellam(benchmark::State& state) {
  bench_integer_law<SkellamParams>(state, "mu", kMu[state.range(0)],
                           [](auto& bits, const auto& params, mpz_class& out) { sample_skellam(bits, params, out); });
}
BENCHMARK(BM_Skellam)->DenseRange(0, 3)->ArgName("mu_index");

void BM_Poisson(benchmark::State& state) {
  bench_integer_law<PoissonParams>(state, "mu", kPoissonMu[state.range(0)],
                           [](auto& bits, const auto& params, mpz_class& out) { sample_poisson(bits, params, out); });
}
BENCHMARK(BM_Poisson)->DenseRange(0, 3)->ArgName("mu_index");

// The envelope route forced below 10^7 (where the table serves by default), with its fixed-point
// acceptance and with every acceptance decided on the MPFR path: the same values from the same bits.
struct EnvelopeParams {
  static PoissonParams make(const mpq_class& mu) { return internal::make_poisson_params(mu, nullptr); }
};
void BM_PoissonEnvelope(benchmark::State& state) {
  bench_integer_law<EnvelopeParams>(state, "mu", kPoissonMu[state.range(0)],
                           [](auto& bits, const auto& params, mpz_class& out) { sample_poisson(bits, params, out); });
}
BENCHMARK(BM_PoissonEnvelope)->DenseRange(1, 3)->ArgName("mu_index");

void BM_PoissonMpfrOnly(benchmark::State& state) {
  bench_integer_law<EnvelopeParams>(state, "mu", kPoissonMu[state.range(0)],
                           [](auto& bits, const auto& params, mpz_class& out) {
                             internal::sample_poisson_mpfr_only(bits, params, out);
                           });
}
BENCHMARK(BM_PoissonMpfrOnly)->DenseRange(1, 3)->ArgName("mu_index");

// The table's one-off build (PoissonParams::make) at mu = 1000, 10^6, 10^7.
void BM_PoissonTableBuild(benchmark::State& state) {
  const char* const mu[] = {"1000", "1e6", "1e7"};
  state.SetLabel(std::string("mu=") + mu[state.range(0)]);
  const mpq_class value = parse_rational("mu", mu[state.range(0)]);
  for (auto _ : state) benchmark::DoNotOptimize(PoissonParams::make(value));
}
BENCHMARK(BM_PoissonTableBuild)->DenseRange(0, 2)->ArgName("mu_index")->Unit(benchmark::kMillisecond);

void BM_DiscreteGaussianSameVariance(benchmark::State& state) {
  bench_integer_law<DiscreteGaussianParams>(
      state, "sigma2", kSigma2[state.range(0)],
      [](auto& bits, const auto& params, mpz_class& out) { sample_discrete_gaussian(bits, params, out); });
}
BENCHMARK(BM_DiscreteGaussianSameVariance)->DenseRange(0, 3)->ArgName("mu_index");

}  // namespace
