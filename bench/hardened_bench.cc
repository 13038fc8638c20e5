// Hardened (isochronous) sampler benchmarks: ns per sample and bits per sample (fixed), build
// time, and the plain samplers at the same sigma2 and scales in the same run. "WordScan" is the
// hardened Gaussian with its tables scanned word by word (internal/constant_time.h,
// draw_symmetric_table: the scan before the vectorised one of internal/hardened_scan.h; same
// law, same bits, same values), for the before/after ratio in one run; "Batch" is the batch
// draw (sample_discrete_gaussian_n, internal/hardened_batch.h; also same values and bits);
// "RejectionBatch" the rejection method's batch (internal/hardened_rejection.h).
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target hardened_bench
//   ./build-bench/bench/hardened_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//       --benchmark_enable_random_interleaving=true   (one command line)
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/fixed_exp52.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using namespace exactdp;

// ..., 2^64, then 2^36 and 2^40 (grid noise at sigma / g = 2^18 and 2^20)
const char* const kSigma2[] = {"1", "100", "1e6", "1e12", "18446744073709551616", "68719476736", "1099511627776"};
const char* const kScale[] = {"1", "10", "1e6", "1e9", "1125899906842624"};          // ..., 2^50
const unsigned kTauBits[] = {40, 64, 128};

template <class Params, class Draw>
void run_draws(benchmark::State& state, const Params& params, Draw draw) {
  SeededBits bits(Seed{});
  const std::uint64_t before = bits.bits_consumed();
  for (auto _ : state) benchmark::DoNotOptimize(draw(bits, params));
  state.counters["bits/sample"] = static_cast<double>(bits.bits_consumed() - before) /
                                  static_cast<double>(state.iterations());
}

// Args: sigma2 index, tau_bits index.
void BM_HardenedDiscreteGaussian(benchmark::State& state) {
  const char* s = kSigma2[state.range(0)];
  const unsigned tau_bits = kTauBits[state.range(1)];
  state.SetLabel(std::string("sigma2=") + s + " tau_bits=" + std::to_string(tau_bits));
  const auto params = HardenedDiscreteGaussianParams::make(parse_rational("sigma2", s), 0, {tau_bits});
  run_draws(state, params, [](BitSource& b, const auto& p) { return sample_discrete_gaussian(b, p); });
}
BENCHMARK(BM_HardenedDiscreteGaussian)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {1}})
    ->ArgsProduct({{1, 3}, {0, 2}})
    ->ArgNames({"sigma2_index", "tau_index"});

// The batch (sample_discrete_gaussian_n: same values and bits as single draws), 256 draws a
// call as grid noise makes them; the time is per draw (items), bits/sample per draw.
// 256 draws a call of sample_discrete_gaussian_n; ns/sample and bits/sample per draw.
void run_batches(benchmark::State& state, const HardenedDiscreteGaussianParams& params) {
  SeededBits bits(Seed{});
  std::int64_t out[256];
  for (auto _ : state) {
    sample_discrete_gaussian_n(bits, params, out, 256);
    benchmark::DoNotOptimize(out[255]);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 256);
  state.counters["ns/sample"] = benchmark::Counter(static_cast<double>(state.iterations()) * 256,
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bits/sample"] = static_cast<double>(bits.bits_consumed()) /
                                  (static_cast<double>(state.iterations()) * 256);
}

void BM_HardenedDiscreteGaussianBatch(benchmark::State& state) {
  const char* s = kSigma2[state.range(0)];
  const unsigned tau_bits = kTauBits[state.range(1)];
  state.SetLabel(std::string("sigma2=") + s + " tau_bits=" + std::to_string(tau_bits) + " (batch of 256)");
  run_batches(state, HardenedDiscreteGaussianParams::make(parse_rational("sigma2", s), 0, {tau_bits}));
}
BENCHMARK(BM_HardenedDiscreteGaussianBatch)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {1}})
    ->ArgsProduct({{1, 3}, {0, 2}})
    ->ArgNames({"sigma2_index", "tau_index"});

// The rejection method's batch (Hardening::method = kRejection; docs/HARDENED.md "The rejection
// method"), 256 draws a call, at the sigma2 of grid noise and beyond (indices 2 .. 6 of kSigma2,
// 10^6 .. 2^64 are inside its range 2^10 <= sigma2 < 2^56 except 2^64).
// The rejection method's sampler at kSigma2[index], tau_bits 64.
HardenedDiscreteGaussianParams rejection_params(std::int64_t index) {
  Hardening h;
  h.method = HardenedMethod::kRejection;
  return HardenedDiscreteGaussianParams::make(parse_rational("sigma2", kSigma2[index]), 0, h);
}

void BM_HardenedDiscreteGaussianRejectionBatch(benchmark::State& state) {
  state.SetLabel(std::string("sigma2=") + kSigma2[state.range(0)] + " tau_bits=64 rejection (batch of 256)");
  run_batches(state, rejection_params(state.range(0)));
}
BENCHMARK(BM_HardenedDiscreteGaussianRejectionBatch)->DenseRange(2, 6)->ArgName("sigma2_index");

// The same batch on the paths of a CPU without AVX-512 IFMA, forced on this one (the same values
// and bits). Arg path: 0 = this CPU's paths; 1 = an AVX2 CPU's (the AVX2 group, the AVX2
// exponential); 2 = the portable group (scan, select and exponential each on their own: what AVX2
// CPUs ran before the AVX2 group, and what CPUs without AVX2 run); 3 and 4 = 1 and 2 with the
// exponential replaced by a constant alpha of about 0.85 (wrong values, about the same
// acceptance): the time of every other step; 5 = 1 with the portable exponential (four scalar
// chains of 64-bit products: what AVX2 CPUs ran before the AVX2 exponential).
void constant_alpha(const internal::FixedExp52&, const uint128*, uint128* alpha) {
  for (std::size_t s = 0; s < internal::kFixedExp52Group; ++s) alpha[s] = uint128{0xD999} << 64;
}

void BM_HardenedRejectionBatchPaths(benchmark::State& state) {
  internal::HardenedRejectionPlan plan = internal::make_rejection_plan(parse_rational("sigma2", kSigma2[state.range(0)]));
  const std::int64_t path = state.range(1);
  if (path >= 1) {
    plan.group = path % 2 == 1 ? internal::rejection_group_avx2() : nullptr;
    const internal::FixedExp52GroupFn portable = internal::fixed_exp52_group_portable;
    const internal::FixedExp52GroupFn avx2 = internal::fixed_exp52_group_avx2();  // nullptr without AVX2
    const internal::FixedExp52GroupFn kExp[] = {nullptr, avx2 != nullptr ? avx2 : portable, portable,
                                                constant_alpha, constant_alpha, portable};
    plan.exp.group = kExp[path];
  }
  const char* const kPath[] = {" this CPU", " AVX2 group", " portable group", " AVX2 group, no exponential",
                               " portable group, no exponential", " AVX2 group, portable exponential"};
  state.SetLabel(std::string("sigma2=") + kSigma2[state.range(0)] + kPath[path]);
  SeededBits bits(Seed{});
  std::int64_t out[256];
  for (auto _ : state) {
    internal::draw_hardened_rejection_n(bits, plan, 0, out, 256);
    benchmark::DoNotOptimize(out[255]);
  }
  state.counters["ns/sample"] = benchmark::Counter(static_cast<double>(state.iterations()) * 256,
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_HardenedRejectionBatchPaths)
    ->ArgsProduct({{5, 6}, {0, 1, 2, 3, 4, 5}})
    ->ArgNames({"sigma2_index", "path"});

// The exponential alone: FixedExp52 groups of kFixedExp52Group random H (h < 32), ns a value.
// Arg impl: 0 = the portable group (four scalar chains of 64-bit products), 1 = the AVX2 group,
// 2 = the group make_fixed_exp52 picks on this CPU (under EXACTDP_CPU_LEVEL), 3 = the AVX-512F group
// (the AVX2 group's digits, eight values a vector: CPUs with AVX-512F and no IFMA).
void BM_FixedExp52Group(benchmark::State& state) {
  const internal::FixedExp52 t = internal::make_fixed_exp52();
  const internal::FixedExp52GroupFn kImpl[] = {internal::fixed_exp52_group_portable, internal::fixed_exp52_group_avx2(),
                                               t.group, internal::fixed_exp52_group_avx512()};
  const internal::FixedExp52GroupFn group = kImpl[state.range(0)];
  if (group == nullptr) {
    state.SkipWithError("this CPU (or EXACTDP_CPU_LEVEL) has no such path");
    return;
  }
  constexpr std::size_t kGroups = 64;  // 2048 inputs: in cache, not one repeated group
  std::vector<uint128> h(kGroups * internal::kFixedExp52Group), alpha(h.size());
  std::uint64_t x = 88172645463325252u;
  for (uint128& v : h) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const std::uint64_t high = x;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    v = ((uint128{high} << 64) | x) >> 6;
  }
  for (auto _ : state) {
    for (std::size_t g = 0; g < h.size(); g += internal::kFixedExp52Group) group(t, &h[g], &alpha[g]);
    benchmark::DoNotOptimize(alpha.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * h.size()));
  state.counters["ns/value"] = benchmark::Counter(static_cast<double>(state.iterations() * h.size()),
                                                  benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_FixedExp52Group)->DenseRange(0, 3)->ArgName("impl");

// The randomness alone of the rejection batch above: the same number of 64-bit words (its bits a
// draw, measured on 2^16 draws first) read from the same seeded ChaCha20 source through a
// BitSource::Reader, and nothing computed. The floor that any method reading this many bits has.
void BM_HardenedRejectionRandomnessOnly(benchmark::State& state) {
  const char* s = kSigma2[state.range(0)];
  const auto params = rejection_params(state.range(0));
  SeededBits probe(Seed{});
  std::int64_t out[256];
  for (int i = 0; i < 256; ++i) sample_discrete_gaussian_n(probe, params, out, 256);
  const std::size_t words = (probe.bits_consumed() / 256 + 63) / 64;  // a batch of 256 draws
  state.SetLabel(std::string("sigma2=") + s + " " + std::to_string(words) + " words a batch of 256");
  SeededBits bits(Seed{});
  std::vector<std::uint64_t> w(words);
  for (auto _ : state) {
    BitSource::Reader reader(bits);
    reader.words(w.data(), words);
    benchmark::DoNotOptimize(w.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 256);
  state.counters["ns/sample"] = benchmark::Counter(static_cast<double>(state.iterations()) * 256,
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_HardenedRejectionRandomnessOnly)->DenseRange(5, 6)->ArgName("sigma2_index");

// The same draw with the word-by-word scan (the previous per-sample code).
template <unsigned L>
std::int64_t word_scan_draw(BitSource& bits, const internal::HardenedGaussianPlan& plan, std::int64_t mean) {
  const unsigned top = plan.width.top_bits;
  std::int64_t x = 0;
  std::int64_t weight = 1;
  for (unsigned j = 0; j < plan.levels; ++j) {
    x += weight * internal::draw_symmetric_table<L>(bits, plan.fine.words.data(), plan.fine.entries, top);
    weight *= plan.m;
  }
  x += weight * internal::draw_symmetric_table<L>(bits, plan.base.words.data(), plan.base.entries, top);
  return x + mean;
}

void BM_HardenedDiscreteGaussianWordScan(benchmark::State& state) {
  const char* s = kSigma2[state.range(0)];
  const unsigned tau_bits = kTauBits[state.range(1)];
  state.SetLabel(std::string("sigma2=") + s + " tau_bits=" + std::to_string(tau_bits) + " (word scan, before)");
  const auto params = HardenedDiscreteGaussianParams::make(parse_rational("sigma2", s), 0, {tau_bits});
  run_draws(state, params, [](BitSource& b, const auto& p) {
    return internal::with_limbs(p.plan().width.limbs,
                                [&](auto limbs) { return word_scan_draw<limbs()>(b, p.plan(), p.mean()); });
  });
}
BENCHMARK(BM_HardenedDiscreteGaussianWordScan)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {1}})
    ->ArgsProduct({{1, 3}, {0, 2}})
    ->ArgNames({"sigma2_index", "tau_index"});

void BM_HardenedDiscreteLaplace(benchmark::State& state) {
  const char* s = kScale[state.range(0)];
  const unsigned tau_bits = kTauBits[state.range(1)];
  state.SetLabel(std::string("scale=") + s + " tau_bits=" + std::to_string(tau_bits));
  const auto params = HardenedDiscreteLaplaceParams::make(parse_rational("scale", s), 0, {tau_bits});
  run_draws(state, params, [](BitSource& b, const auto& p) { return sample_discrete_laplace(b, p); });
}
BENCHMARK(BM_HardenedDiscreteLaplace)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {1}})
    ->ArgsProduct({{1, 3}, {0, 2}})
    ->ArgNames({"scale_index", "tau_index"});

// The plain samplers at the same parameters, same run (the "vs plain" ratios of BENCHMARKS.md).
void BM_PlainDiscreteGaussian(benchmark::State& state) {
  const char* s = kSigma2[state.range(0)];
  state.SetLabel(std::string("sigma2=") + s + " (plain, for the ratio)");
  const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", s));
  mpz_class out;
  run_draws(state, params, [&](BitSource& b, const auto& p) {
    sample_discrete_gaussian(b, p, out);
    return out.get_mpz_t()->_mp_size;
  });
}
BENCHMARK(BM_PlainDiscreteGaussian)->DenseRange(0, 6)->ArgName("sigma2_index");

void BM_PlainDiscreteLaplace(benchmark::State& state) {
  const char* s = kScale[state.range(0)];
  state.SetLabel(std::string("scale=") + s + " (plain, for the ratio)");
  const auto params = DiscreteLaplaceParams::make(parse_rational("scale", s));
  mpz_class out;
  run_draws(state, params, [&](BitSource& b, const auto& p) {
    sample_discrete_laplace(b, p, out);
    return out.get_mpz_t()->_mp_size;
  });
}
BENCHMARK(BM_PlainDiscreteLaplace)->DenseRange(0, 4)->ArgName("scale_index");

// Building the tables and certifying tau (the target: 50 ms for any supported parameter).
void BM_HardenedBuildGaussian(benchmark::State& state) {
  const char* s = kSigma2[state.range(0)];
  const unsigned tau_bits = kTauBits[state.range(1)];
  state.SetLabel(std::string("sigma2=") + s + " tau_bits=" + std::to_string(tau_bits));
  const mpq_class sigma2 = parse_rational("sigma2", s);
  for (auto _ : state) benchmark::DoNotOptimize(HardenedDiscreteGaussianParams::make(sigma2, 0, {tau_bits}));
}
BENCHMARK(BM_HardenedBuildGaussian)
    ->ArgsProduct({{1, 3, 4}, {1, 2}})
    ->Args({0, 2})  // sigma2 = 1 at 2^-128
    ->ArgNames({"sigma2_index", "tau_index"})
    ->Unit(benchmark::kMillisecond);

void BM_HardenedBuildGaussianWorst(benchmark::State& state) {
  // The largest direct table: sigma2 = 3 s at tau_bits = 128 (s = 116 there).
  state.SetLabel("sigma2=348 tau_bits=128 (largest direct table)");
  for (auto _ : state) benchmark::DoNotOptimize(HardenedDiscreteGaussianParams::make(348, 0, {128}));
}
BENCHMARK(BM_HardenedBuildGaussianWorst)->Unit(benchmark::kMillisecond);

void BM_HardenedBuildLaplace(benchmark::State& state) {
  const char* s = kScale[state.range(0)];
  state.SetLabel(std::string("scale=") + s + " tau_bits=128");
  const mpq_class scale = parse_rational("scale", s);
  for (auto _ : state) benchmark::DoNotOptimize(HardenedDiscreteLaplaceParams::make(scale, 0, {128}));
}
BENCHMARK(BM_HardenedBuildLaplace)->DenseRange(0, 4)->ArgName("scale_index")->Unit(benchmark::kMillisecond);

}  // namespace
