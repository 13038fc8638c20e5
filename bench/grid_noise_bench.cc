// Grid noise of float arrays (mechanisms/grid_noise/grid_noise.h), seeded chunked substreams,
// sigma = 1 and g = 2^-k (so sigma / g = 2^k):
//   BM_AddNoisePerCoordinate  2^20 doubles a call, as many calls as Google Benchmark needs, at
//                             sigma / g = 2^20 (sigma2 / g^2 = 2^40: the plain bucket sampler)
//                             on 1 and 2 threads: the per-coordinate cost;
//   BM_AddNoise10M            one call on 10^7 coordinates: time and memory (peak RSS of the
//                             process, and its growth during the call: x and y are touched
//                             before, so the growth is what add_noise itself maps), plus the
//                             hardened sampler at the automatic granularity 2^18 and at 2^20
//                             (sigma2 / g^2 = 2^36 and 2^40; its batch draw, samplers/
//                             hardened_discrete_gaussian.h sample_discrete_gaussian_n);
//   BM_AddNoiseOsCsprng       as BM_AddNoisePerCoordinate with the default source (no seed);
//   BM_HardenedDrawsOnly      the hardened cases' draws alone: the same sampler's sample_wide,
//                             2,048 a call (add_noise's hardened batch) on 10^7 coordinates from
//                             one seeded stream, no x and no y: grid noise minus this is the
//                             mapping's cost, both in the same run;
//   BM_AddNoiseInCache        2^13 doubles a call (x and y in the core's L2 cache), plain and
//                             hardened: the mapping's cost without 160 MB of memory traffic, which
//                             on a shared virtual machine moves BM_AddNoise10M by 2x within minutes.
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target grid_noise_bench
//   ./build-bench/bench/grid_noise_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// bench/grid_noise_numpy.py runs this program and numpy's Generator.normal in the same run and
// prints the ratios (BENCHMARKS.md).
// Counters: ns/coordinate = wall time per coordinate; cpu_ns/coordinate = CPU time of the whole
// process (every thread, getrusage) per coordinate: on a loaded machine the wall time of two
// threads shows the free cores, the CPU time what the work costs.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/laws/law.h>
#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using namespace exactdp;

using Report = double;

Seed bench_seed() {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<unsigned char>(i + 1);
  return s;
}

template <class Float>
std::vector<Float> inputs(std::size_t n) {
  std::vector<Float> x(n);
  // benchmark input data only
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<Float>(static_cast<long>(i % 20001) - 10000) / 4096;
  return x;
}

struct Usage {
  std::int64_t cpu_us = 0;     // user + system, all threads
  std::int64_t max_rss_kib = 0;
};

Usage usage() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  Usage u;
  u.cpu_us = (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1'000'000L + r.ru_utime.tv_usec + r.ru_stime.tv_usec;
  u.max_rss_kib = r.ru_maxrss;
  return u;
}

// Sets ns/coordinate (wall) and cpu_ns/coordinate (CPU between before and after) for n coordinates
// an iteration.
void set_per_coordinate(benchmark::State& state, std::size_t n, const Usage& before, const Usage& after) {
  const auto coordinates = static_cast<Report>(state.iterations()) * static_cast<Report>(n);
  state.counters["ns/coordinate"] = benchmark::Counter(
      static_cast<Report>(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["cpu_ns/coordinate"] = static_cast<Report>(after.cpu_us - before.cpu_us) * 1e3 / coordinates;
}

mechanisms::GridNoise grid_noise(long ratio_bits, bool hardened) {
  mechanisms::GridNoiseSpec spec;
  spec.value = 1;  // sigma = 1, g = 2^-ratio_bits
  spec.granularity_exponent = ratio_bits;
  if (hardened) spec.hardening = Hardening{};
  return mechanisms::GridNoise::make(spec);
}

// Runs add_noise on n coordinates per iteration and sets the counters.
template <class Float>
void run(benchmark::State& state, std::size_t n, long ratio_bits, unsigned threads, bool hardened,
         bool seeded = true) {
  const mechanisms::GridNoise noise = grid_noise(ratio_bits, hardened);
  const std::vector<Float> x = inputs<Float>(n);
  std::vector<Float> y(x.size(), Float{1});  // touched: its pages count before the call
  const Seed seed = bench_seed();
  const Usage before = usage();
  for (auto _ : state) {
    mechanisms::add_noise(noise, x, y, seeded ? std::optional<Seed>(seed) : std::nullopt, threads);
    benchmark::DoNotOptimize(y.data());
  }
  const Usage after = usage();
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
  set_per_coordinate(state, n, before, after);
  state.counters["peak_rss_MiB"] = static_cast<Report>(after.max_rss_kib) / 1024;
  state.counters["rss_growth_MiB"] = static_cast<Report>(after.max_rss_kib - before.max_rss_kib) / 1024;
  state.SetLabel("sigma/g=2^" + std::to_string(ratio_bits) + " threads=" + std::to_string(threads) +
                 (hardened ? " hardened" : "") + (seeded ? "" : " os-csprng") + " n=" + std::to_string(n));
}

// The default source (no seed: one SystemBits a thread), 2^20 doubles, sigma / g = 2^20. Args: threads.
void BM_AddNoiseOsCsprng(benchmark::State& state) {
  run<double>(state, std::size_t{1} << 20, 20, static_cast<unsigned>(state.range(0)), false, false);
}
BENCHMARK(BM_AddNoiseOsCsprng)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->UseRealTime();

// Args: threads.
void BM_AddNoisePerCoordinate(benchmark::State& state) {
  run<double>(state, std::size_t{1} << 20, 20, static_cast<unsigned>(state.range(0)), false);
}

// Args: log2(sigma / g), threads, hardened (0/1).
template <class Float>
void BM_AddNoise10M(benchmark::State& state) {
  run<Float>(state, 10'000'000, state.range(0), static_cast<unsigned>(state.range(1)), state.range(2) != 0);
}

// Args: log2(sigma / g). The hardened sampler's draws of BM_AddNoise10M's hardened cases.
void BM_HardenedDrawsOnly(benchmark::State& state) {
  const long ratio_bits = state.range(0);
  const mechanisms::GridNoise noise = grid_noise(ratio_bits, true);
  constexpr std::size_t kDraws = 10'000'000;
  constexpr std::size_t kCall = 2048;  // grid_noise_apply.cc's kHardenedBatch
  std::vector<std::int64_t> out(kCall);
  std::vector<WideValue> wide;
  const Usage before = usage();
  for (auto _ : state) {
    SeededBits bits(bench_seed());
    for (std::size_t done = 0; done < kDraws; done += kCall) {
      wide.clear();
      noise.sampler().sample_wide(bits, out.data(), std::min(kCall, kDraws - done), wide);
      benchmark::DoNotOptimize(out.data());
    }
  }
  set_per_coordinate(state, kDraws, before, usage());
  state.SetLabel("sigma/g=2^" + std::to_string(ratio_bits) + " hardened draws only, 2048 a call");
}
BENCHMARK(BM_HardenedDrawsOnly)
    ->Arg(18)
    ->Arg(20)
    ->ArgName("log2_sigma_over_g")
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Args: log2(sigma / g), hardened (0/1). 2^13 doubles a call: x and y (128 KiB) stay in the
// core's L2 cache.
void BM_AddNoiseInCache(benchmark::State& state) {
  run<double>(state, std::size_t{1} << 13, state.range(0), 1, state.range(1) != 0);
}
BENCHMARK(BM_AddNoiseInCache)
    ->Args({18, 0})
    ->Args({18, 1})
    ->Args({20, 1})
    ->ArgNames({"log2_sigma_over_g", "hardened"})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

BENCHMARK(BM_AddNoisePerCoordinate)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AddNoise10M<double>)
    ->Args({20, 1, 0})
    ->Args({20, 2, 0})
    ->Args({18, 1, 0})
    ->Args({18, 1, 1})
    ->Args({18, 2, 1})
    ->Args({20, 1, 1})
    ->ArgNames({"log2_sigma_over_g", "threads", "hardened"})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_AddNoise10M<float>)
    ->Args({20, 1, 0})
    ->ArgNames({"log2_sigma_over_g", "threads", "hardened"})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
