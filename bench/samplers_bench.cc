// Sampler benchmarks: ns per sample and random bits per sample, seeded ChaCha20 source, with the
// ChaCha20 block unit and single int64 draws against the batch in the same run (BENCHMARKS.md,
// "Samplers"; random interleaving puts every case under the same load).
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target samplers_bench
//   ./build-bench/bench/samplers_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//       --benchmark_enable_random_interleaving=true   (one command line)
#include <benchmark/benchmark.h>
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/internal/chacha20.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

#include "bench/integer_law_bench.h"

namespace {

using namespace exactdp;
using exactdp::bench::bench_integer_law;
using exactdp::bench::report_bits_per_sample;

// The last two are the tiny extremes of the hostile-input test: each Laplace draw with Y != 0
// squares and compares numbers of ~330,000 bits (sigma2 = 10^-100000).
const char* const kSigma2[] = {"1", "100", "1e12", "1e100", "1e-10000", "1e-100000"};
const char* const kScale[] = {"1", "10", "1e6"};
const char* const kGamma[] = {"1/2", "3/2", "1e-5", "1e6"};

void BM_DiscreteGaussian(benchmark::State& state) {
  bench_integer_law<DiscreteGaussianParams>(state, "sigma2", kSigma2[state.range(0)],
                                            [](auto& bits, const auto& params, mpz_class& out) {
                                              sample_discrete_gaussian(bits, params, out);
                                            });
}
BENCHMARK(BM_DiscreteGaussian)->DenseRange(0, 5)->ArgName("sigma2_index");

// Single int64 draws against the batch (sample_n, n values a call) at sigma2 = 100 (exact table)
// and 10^12 (buckets): the same values from the same bits. per_sample = CPU ns per value.
const char* const kBatchSigma2[] = {"100", "1e12"};

void BM_DiscreteGaussianInt64(benchmark::State& state) {
  const char* s = kBatchSigma2[state.range(0)];
  state.SetLabel(std::string("sigma2=") + s + " single int64 calls");
  SeededBits bits(Seed{});
  const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", s));
  for (auto _ : state) benchmark::DoNotOptimize(sample_discrete_gaussian_int64(bits, params));
  state.counters["per_sample"] =
      benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DiscreteGaussianInt64)->DenseRange(0, 1)->ArgName("sigma2_index");

void BM_DiscreteGaussianBatch(benchmark::State& state) {
  const char* s = kBatchSigma2[state.range(0)];
  const auto n = static_cast<std::size_t>(state.range(1));
  state.SetLabel(std::string("sigma2=") + s + " sample_n, n=" + std::to_string(n));
  SeededBits bits(Seed{});
  const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", s));
  std::vector<std::int64_t> out(n);
  for (auto _ : state) {
    if (sample_n(bits, params, out.data(), n) != n) state.SkipWithError("a value outside int64");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.counters["per_sample"] = benchmark::Counter(
      static_cast<double>(n),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DiscreteGaussianBatch)->ArgsProduct({{0, 1}, {1000, 1000000}})->ArgNames({"sigma2_index", "n"});

void BM_DiscreteGaussianGmpPath(benchmark::State& state) {
  const char* s = kSigma2[state.range(0)];
  state.SetLabel(std::string("sigma2=") + s);
  SeededBits bits(Seed{});
  const auto params = DiscreteGaussianParams::make(parse_rational("sigma2", s));
  for (auto _ : state) benchmark::DoNotOptimize(sample_discrete_gaussian_gmp(bits, params));
}
BENCHMARK(BM_DiscreteGaussianGmpPath)->DenseRange(0, 5)->ArgName("sigma2_index");

void BM_DiscreteGaussianSystemBits(benchmark::State& state) {
  SystemBits bits;
  const auto params = DiscreteGaussianParams::make(100);
  state.SetLabel("sigma2=100, OS CSPRNG");
  mpz_class out;
  for (auto _ : state) {
    sample_discrete_gaussian(bits, params, out);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_DiscreteGaussianSystemBits);

void BM_DiscreteLaplace(benchmark::State& state) {
  bench_integer_law<DiscreteLaplaceParams>(state, "scale", kScale[state.range(0)],
                                           [](auto& bits, const auto& params, mpz_class& out) {
                                             sample_discrete_laplace(bits, params, out);
                                           });
}
BENCHMARK(BM_DiscreteLaplace)->DenseRange(0, 2)->ArgName("scale_index");

void BM_BernoulliExp(benchmark::State& state) {
  const char* g = kGamma[state.range(0)];
  state.SetLabel(std::string("gamma=") + g);
  SeededBits bits(Seed{});
  const auto params = BernoulliExpParams::make(parse_rational("gamma", g));
  const std::uint64_t before = bits.bits_consumed();
  for (auto _ : state) benchmark::DoNotOptimize(sample_bernoulli_exp(bits, params));
  report_bits_per_sample(state, bits, before);
}
BENCHMARK(BM_BernoulliExp)->DenseRange(0, 3)->ArgName("gamma_index");

// The unit of the "blocks" columns: 4 KiB of ChaCha20 keystream (libsodium crypto_stream_chacha20)
// per iteration, as one 4096-byte call (the bulk call bench/speed_bench and the peer harness
// time) or as eight 512-byte calls (the size of SeededBits' refills). ns/block = CPU / 64, shown
// as the per_block counter.
void BM_ChaCha20Block(benchmark::State& state) {
  if (sodium_init() < 0) state.SkipWithError("sodium_init failed");
  const auto call_bytes = static_cast<std::size_t>(state.range(0));
  state.SetLabel(std::to_string(call_bytes) + "-byte calls");
  static unsigned char buf[4096];
  unsigned char key[crypto_stream_chacha20_KEYBYTES] = {1};
  unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = {2};
  for (auto _ : state) {
    for (std::size_t done = 0; done < sizeof buf; done += call_bytes) {
      ++nonce[0];
      crypto_stream_chacha20(buf + done, call_bytes, nonce, key);
    }
    benchmark::DoNotOptimize(buf);
    benchmark::ClobberMemory();
  }
  state.counters["per_block"] = benchmark::Counter(
      64, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ChaCha20Block)->Arg(4096)->Arg(512)->ArgName("call_bytes");

// The same 4 KiB unit from the in-repository ChaCha20 (samplers/internal/chacha20.h), path 0
// scalar, 1 128-bit vectors (SSE2 or NEON), 2 AVX2, 3 AVX-512F, in 1024-byte calls (SeededBits'
// 16-block passes).
void BM_ChaCha20Path(benchmark::State& state) {
  const auto path = static_cast<internal::ChaCha20Path>(state.range(0));
  if (!internal::chacha20_path_available(path)) state.SkipWithError("path not available on this CPU");
  state.SetLabel(internal::chacha20_path_name(path));
  static unsigned char buf[4096];
  unsigned char key[32] = {1};
  unsigned char nonce[12] = {2};
  for (auto _ : state) {
    ++nonce[0];
    for (std::size_t done = 0; done < sizeof buf; done += 1024) {
      internal::chacha20_keystream(buf + done, 1024, nonce, static_cast<std::uint32_t>(done / 64), key, path);
    }
    benchmark::DoNotOptimize(buf);
    benchmark::ClobberMemory();
  }
  state.counters["per_block"] = benchmark::Counter(
      64, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ChaCha20Path)->DenseRange(0, 3)->ArgName("path");

// SeededBits' refill as it was before the in-repository ChaCha20: libsodium's
// crypto_stream_chacha20_ietf_xor_ic over a zeroed 512-byte buffer, one nonce (the baseline of
// BM_SeededBitsWords; the same bytes).
class LibsodiumRefillBits final : public BitSource {
 public:
  LibsodiumRefillBits() : BitSource(&storage_) {}

 protected:
  void refill(unsigned char* out, std::size_t n) override {
    std::memset(out, 0, n);
    crypto_stream_chacha20_ietf_xor_ic(out, out, n, nonce_, counter_, key_);
    counter_ += static_cast<std::uint32_t>(n / 64);
  }

 private:
  BitBufferState storage_{};
  unsigned char key_[32] = {};
  unsigned char nonce_[12] = {};
  std::uint32_t counter_ = 0;
};

// 4 KiB of a stream handed out as 64-bit words (Reader::words, what the hardened batch reads):
// 0 = the libsodium refill above, 1 = SeededBits, 2 = SystemBits (the default source: ChaCha20
// under a fresh OS key every 3 KiB). per_block = ns per 64 bytes.
void BM_SeededBitsWords(benchmark::State& state) {
  if (sodium_init() < 0) state.SkipWithError("sodium_init failed");
  LibsodiumRefillBits libsodium_bits;
  SeededBits seeded_bits(Seed{});
  SystemBits system_bits;
  BitSource* const sources[] = {&libsodium_bits, &seeded_bits, &system_bits};
  const char* const labels[] = {"libsodium refill", "SeededBits", "SystemBits"};
  BitSource& bits = *sources[state.range(0)];
  state.SetLabel(labels[state.range(0)]);
  std::uint64_t words[512];
  for (auto _ : state) {
    BitSource::Reader reader(bits);
    reader.words(words, 512);
    benchmark::DoNotOptimize(words);
  }
  state.counters["per_block"] = benchmark::Counter(
      64, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SeededBitsWords)->DenseRange(0, 2)->ArgName("source");

}  // namespace
