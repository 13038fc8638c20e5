// Skellam benchmarks: ns and random bits per draw of sample_skellam (samplers/skellam.h) and of
// sample_poisson, against the discrete Gaussian at the same variance (sigma2 = 2 mu), seeded
// ChaCha20 source (docs/FEDERATED.md, "Cost").
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target skellam_bench
//   ./build-bench/bench/skellam_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include <exactdp/core/rational.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/poisson.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/skellam.h>

namespace {

using namespace exactdp;

// mu; the discrete Gaussian cases use sigma2 = 2 mu (the same variance).
const char* const kMu[] = {"1/3", "25", "1e6", "1e12"};
const char* const kSigma2[] = {"2/3", "50", "2e6", "2e12"};

template <class Params, class Sample>
void bench_law(benchmark::State& state, const char* name, const char* value, Sample sample) {
  state.SetLabel(std::string(name) + "=" + value);
  SeededBits bits(Seed{});
  const auto params = Params::make(parse_rational(name, value));
  mpz_class out;
  const std::uint64_t before = bits.bits_consumed();
  for (auto _ : state) {
    sample(bits, params, out);
    benchmark::DoNotOptimize(out);
  }
  state.counters["bits/sample"] =
      static_cast<double>(bits.bits_consumed() - before) / static_cast<double>(state.iterations());
}

void BM_Skellam(benchmark::State& state) {
  bench_law<SkellamParams>(state, "mu", kMu[state.range(0)],
                           [](auto& bits, const auto& params, mpz_class& out) { sample_skellam(bits, params, out); });
}
BENCHMARK(BM_Skellam)->DenseRange(0, 3)->ArgName("mu_index");

void BM_Poisson(benchmark::State& state) {
  bench_law<PoissonParams>(state, "mu", kMu[state.range(0)],
                           [](auto& bits, const auto& params, mpz_class& out) { sample_poisson(bits, params, out); });
}
BENCHMARK(BM_Poisson)->DenseRange(0, 3)->ArgName("mu_index");

void BM_DiscreteGaussianSameVariance(benchmark::State& state) {
  bench_law<DiscreteGaussianParams>(
      state, "sigma2", kSigma2[state.range(0)],
      [](auto& bits, const auto& params, mpz_class& out) { sample_discrete_gaussian(bits, params, out); });
}
BENCHMARK(BM_DiscreteGaussianSameVariance)->DenseRange(0, 3)->ArgName("mu_index");

}  // namespace
