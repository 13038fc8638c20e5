// Grid noise of float arrays (mechanisms/grid_noise/grid_noise.h): per-coordinate cost of
// add_noise on 10^7 doubles, seeded chunked substreams, at sigma / g = 2^20 (plain sampler, one
// and two threads) and at sigma / g = 2^18 (the automatic granularity; the hardened sampler's
// range ends at sigma2 / g^2 = 10^12 < 2^40, so hardened runs only there), plus float arrays.
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target grid_noise_bench
//   ./build-bench/bench/grid_noise_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
// Counter ns/coordinate: wall time per coordinate (items_per_second is its inverse).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using namespace exactdp;

constexpr std::size_t kCoordinates = 10'000'000;

Seed bench_seed() {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<unsigned char>(i + 1);
  return s;
}

template <class Float>
std::vector<Float> inputs() {
  std::vector<Float> x(kCoordinates);
  // exactdp-allow-float: benchmark input data only
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<Float>(static_cast<long>(i % 20001) - 10000) / 4096;
  return x;
}

// Args: log2(sigma / g), threads, hardened (0/1).
template <class Float>
void BM_AddNoise(benchmark::State& state) {
  const long ratio_bits = state.range(0);
  const auto threads = static_cast<unsigned>(state.range(1));
  mechanisms::GridNoiseSpec spec;
  spec.value = 1;  // sigma = 1, g = 2^-ratio_bits
  spec.granularity_exponent = ratio_bits;
  if (state.range(2) != 0) spec.hardening = Hardening{};
  const mechanisms::GridNoise noise = mechanisms::GridNoise::make(spec);
  const std::vector<Float> x = inputs<Float>();
  std::vector<Float> y(x.size());
  const Seed seed = bench_seed();
  for (auto _ : state) {
    mechanisms::add_noise(noise, x, y, std::optional<Seed>(seed), threads);
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(kCoordinates));
  state.counters["ns/coordinate"] = benchmark::Counter(
      static_cast<double>(kCoordinates) * 1e-9,  // exactdp-allow-float: report only
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetLabel("sigma/g=2^" + std::to_string(ratio_bits) + " threads=" + std::to_string(threads) +
                 (state.range(2) != 0 ? " hardened" : ""));
}

BENCHMARK(BM_AddNoise<double>)
    ->Args({20, 1, 0})
    ->Args({20, 2, 0})
    ->Args({18, 1, 0})
    ->Args({18, 1, 1})
    ->Args({18, 2, 1})
    ->ArgNames({"log2_sigma_over_g", "threads", "hardened"})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_AddNoise<float>)
    ->Args({20, 1, 0})
    ->ArgNames({"log2_sigma_over_g", "threads", "hardened"})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
