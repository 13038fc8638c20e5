// Shared by samplers_bench.cc and skellam_bench.cc: single draws of an integer law from a seeded
// ChaCha20 source, with the random bits a draw consumed.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::bench {

// The bits a sample consumed since `before`, as the counter "bits/sample".
inline void report_bits_per_sample(benchmark::State& state, const SeededBits& bits, std::uint64_t before) {
  state.counters["bits/sample"] = static_cast<double>(bits.bits_consumed() - before) /
                                  static_cast<double>(state.iterations());
}

// Single draws sample(bits, params, out) of an integer law whose parameter `name` is the text
// `value` (labelled "name=value"), with the bits a sample consumed.
template <class Params, class Sample>
void bench_integer_law(benchmark::State& state, const char* name, const char* value, Sample sample) {
  state.SetLabel(std::string(name) + "=" + value);
  SeededBits bits(Seed{});
  const auto params = Params::make(parse_rational(name, value));
  mpz_class out;
  const std::uint64_t before = bits.bits_consumed();
  for (auto _ : state) {
    sample(bits, params, out);
    benchmark::DoNotOptimize(out);
  }
  report_bits_per_sample(state, bits, before);
}

}  // namespace exactdp::bench
