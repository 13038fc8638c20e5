// Selection benchmarks (mechanisms/selection/selection.h): draws per second for 10, 1000 and
// 10^5 candidates, seeded ChaCha20 source, epsilon = 1, sensitivity = 1.
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target selection_bench
//   ./build-bench/bench/selection_bench
// Score patterns: "close" u_i = (i mod 7) / 2 (every gap <= 1.5: the rejection sampler accepts
// often) and "spread" u_i = -i (gamma_i = i / 2: rejection needs about n / 2.5 attempts a draw,
// the case certified inversion is for).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using namespace exactdp;
using namespace exactdp::mechanisms;

std::vector<mpq_class> make_scores(long n, bool spread) {
  std::vector<mpq_class> u;
  for (long i = 0; i < n; ++i) u.emplace_back(spread ? mpq_class(-i) : mpq_class(i % 7, 2));
  return u;
}

enum Variant : int { kExpRejection, kExpInversion, kPermuteAndFlip, kNoisyMaxLaplace, kNoisyMaxExponential };

void BM_Select(benchmark::State& state) {
  const auto variant = static_cast<Variant>(state.range(0));
  const long n = state.range(1);
  const bool spread = state.range(2) != 0;
  SelectionOptions o;
  switch (variant) {
    case kExpRejection:
      o.mechanism = SelectionMechanism::kExponential;
      o.exponential_sampler = ExponentialSampler::kRejection;
      break;
    case kExpInversion:
      o.mechanism = SelectionMechanism::kExponential;
      o.exponential_sampler = ExponentialSampler::kInversion;
      break;
    case kPermuteAndFlip:
      o.mechanism = SelectionMechanism::kPermuteAndFlip;
      break;
    case kNoisyMaxLaplace:
      o.mechanism = SelectionMechanism::kReportNoisyMax;
      break;
    case kNoisyMaxExponential:
      o.mechanism = SelectionMechanism::kReportNoisyMax;
      o.noise = NoiseKind::kExponential;
      break;
  }
  const char* names[] = {"exponential/rejection", "exponential/inversion", "permute-and-flip",
                         "report-noisy-max/laplace", "report-noisy-max/exponential"};
  state.SetLabel(std::string(names[variant]) + (spread ? " spread" : " close"));
  Selection s = Selection::make(make_scores(n, spread), o);
  SeededBits bits(Seed{});
  for (auto _ : state) benchmark::DoNotOptimize(s.select(bits));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Select)
    ->ArgsProduct({{kExpRejection, kExpInversion, kPermuteAndFlip, kNoisyMaxLaplace, kNoisyMaxExponential},
                   {10, 1000, 100000},
                   {0, 1}})
    ->ArgNames({"variant", "n", "spread"})
    ->Unit(benchmark::kMicrosecond);

// Peeling: top 10 of 1000 close scores.
void BM_Top10(benchmark::State& state) {
  SelectionOptions o;
  o.mechanism = static_cast<SelectionMechanism>(state.range(0));
  state.SetLabel(to_string(o.mechanism));
  Selection s = Selection::make(make_scores(1000, false), o);
  SeededBits bits(Seed{});
  for (auto _ : state) benchmark::DoNotOptimize(s.select_top(bits, 10));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Top10)->DenseRange(0, 2)->ArgName("mechanism")->Unit(benchmark::kMicrosecond);

}  // namespace
