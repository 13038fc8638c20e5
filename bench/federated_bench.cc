// The federated client's encoding (mechanisms/federated/client_encode.h) against the plain grid
// noise of the same float array (mechanisms/grid_noise/grid_noise.h), one thread, seeded ChaCha20:
//   BM_FederatedEncode/<shares>    d = 10^6 floats (padded to D = 2^20): the lattice map and
//                                  clipping, the Hadamard rotation, the conditional rounding, the
//                                  client's noise share and the reduction mod 2^24; n = 100
//                                  clients, c = 1, shares of the same variance 1/100 per client:
//                                  discrete Gaussian sigma2 = 1/100 (automatic granularity 2^-9)
//                                  plain (0) and hardened (1), Skellam mu = 1/200 (2; the Poisson
//                                  table route, its table built once in the plan);
//   BM_GridNoise/<hardened>        add_noise on the same 10^6 floats, sigma2 = 1/100, one thread
//                                  (the same BitSource overload): the reference of the ratio.
// Report CPU time per call; the ratio encode / grid noise is what docs/FEDERATED.md states.
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target federated_bench
//   ./build-bench/bench/federated_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <exactdp/mechanisms/federated/client_encode.h>
#include <exactdp/mechanisms/federated/federated_plan.h>
#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using namespace exactdp;

constexpr std::size_t kDimension = 1'000'000;

Seed bench_seed(unsigned char salt) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<unsigned char>(i + salt);
  return s;
}

std::vector<float> inputs() {
  std::vector<float> x(kDimension);
  // benchmark input data only: |x_i| <= 2^-12, norm about 1/8 (no clipping; clipping costs one pass)
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<long>(i % 2001) - 1000) / 4096000;
  return x;
}

void BM_FederatedEncode(benchmark::State& state) {
  mechanisms::FederatedSpec spec;
  spec.dimension = kDimension;
  spec.clip = 1;
  spec.bits = 24;
  spec.clients = 100;
  spec.noise_value = mpq_class(1, 100);
  spec.rotation_seed = bench_seed(1);
  if (state.range(0) == 1) spec.hardening = Hardening{};
  if (state.range(0) == 2) {
    spec.noise = mechanisms::kClientSkellam;
    spec.noise_value = mpq_class(1, 200);  // variance 2 mu = 1/100
  }
  const mechanisms::FederatedPlan plan = mechanisms::FederatedPlan::make(spec);
  const std::vector<float> x = inputs();
  std::vector<std::uint64_t> out(plan.padded_dimension());
  SeededBits bits(bench_seed(2));
  for (auto _ : state) {
    const mechanisms::EncodeReport r = mechanisms::encode_client<float>(plan, x, out, bits);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["ns/coordinate"] =
      benchmark::Counter(static_cast<double>(kDimension), benchmark::Counter::kIsIterationInvariantRate |
                                                             benchmark::Counter::kInvert);
}
BENCHMARK(BM_FederatedEncode)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_GridNoise(benchmark::State& state) {
  mechanisms::GridNoiseSpec spec;
  spec.parameter = "sigma2";
  spec.value = mpq_class(1, 100);
  if (state.range(0) != 0) spec.hardening = Hardening{};
  const mechanisms::GridNoise noise = mechanisms::GridNoise::make(spec);
  const std::vector<float> x = inputs();
  std::vector<float> y(kDimension);
  SeededBits bits(bench_seed(3));
  for (auto _ : state) {
    mechanisms::add_noise(noise, x, y, bits);
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["ns/coordinate"] =
      benchmark::Counter(static_cast<double>(kDimension), benchmark::Counter::kIsIterationInvariantRate |
                                                             benchmark::Counter::kInvert);
}
BENCHMARK(BM_GridNoise)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
