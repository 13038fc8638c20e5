// Composition and GDP-measurement benchmarks (BENCHMARKS.md): GDPT to tolerance 1e-3 (target <= 1 s),
// KOV optimal composition for k = 10^4 (and 10^6), zCDP and GDP conversions.
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target accounting_composition_bench
//   ./build-bench/bench/accounting_composition_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/rational.h>

namespace {

using namespace exactdp;
using namespace exactdp::accounting;

mpq_class q(const char* s) { return parse_rational("bench", s); }

mpq_class power_of_ten(long k) {  // 10^k, k of either sign
  mpz_class p;
  mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(k < 0 ? -k : k));
  return k < 0 ? mpq_class(mpz_class(1), p) : mpq_class(p);
}

// GDPT (Algorithm 1) of the Gaussian mechanism sigma = 1 (mu = 1) on [0, eps_max], tolerance
// 1e-3 in mu. Counters: grid points and binary searches.
void BM_GdptGaussian(benchmark::State& state) {
  GdptOptions o;
  o.eps_max = static_cast<long>(state.range(0));
  o.tolerance = mpq_class(1, 1000);
  const ProfileFunction profile = gdp_profile(mpq_class(1));
  GdptResult r;
  for (auto _ : state) {
    r = gdpt_measure(profile, o);
    benchmark::DoNotOptimize(r.mu);
  }
  state.counters["grid_points"] = static_cast<double>(r.grid_points);
  state.counters["binary_searches"] = static_cast<double>(r.binary_searches);
}
BENCHMARK(BM_GdptGaussian)->Arg(5)->Arg(10)->Unit(benchmark::kMillisecond);

// GDPT of the exact KOV profile of 50-fold 0.2-DP on [0, 10] (gdp_bridge's "GDP summary").
void BM_GdptKov50(benchmark::State& state) {
  GdptOptions o;
  o.eps_max = 10;
  o.tolerance = mpq_class(1, 1000);
  o.naive = state.range(0) != 0;
  const ProfileFunction profile = kov_profile(mpq_class(1, 5), 50);
  GdptResult r;
  for (auto _ : state) {
    r = gdpt_measure(profile, o);
    benchmark::DoNotOptimize(r.mu);
  }
  state.SetLabel(o.naive ? "naive (Algorithm 3)" : "shuffled (Algorithm 1)");
  state.counters["binary_searches"] = static_cast<double>(r.binary_searches);
}
BENCHMARK(BM_GdptKov50)->Arg(0)->Unit(benchmark::kMillisecond);

// KOV: the exact optimal epsilon at delta = 1e-6 to relative width 2^-100.
void BM_KovEpsilon(benchmark::State& state) {
  const unsigned long k = static_cast<unsigned long>(state.range(0));
  const mpq_class eps = k >= 1'000'000 ? mpq_class(1, 1000) : mpq_class(1, 100);
  for (auto _ : state) {
    Certified c = kov_epsilon(eps, k, q("1e-6"));
    benchmark::DoNotOptimize(c.value);
  }
}
BENCHMARK(BM_KovEpsilon)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_KovDelta(benchmark::State& state) {
  for (auto _ : state) {
    Certified c = kov_delta(mpq_class(1, 100), 10'000, q("5"));
    benchmark::DoNotOptimize(c.value);
  }
}
BENCHMARK(BM_KovDelta)->Unit(benchmark::kMillisecond);

void BM_ZcdpEpsilon(benchmark::State& state) {
  for (auto _ : state) {
    auto c = zcdp_epsilon(q("0.5"), q("1e-6"));
    benchmark::DoNotOptimize(c.bound.value);
  }
}
BENCHMARK(BM_ZcdpEpsilon)->Unit(benchmark::kMicrosecond);

void BM_GdpEpsilon(benchmark::State& state) {
  for (auto _ : state) {
    Certified c = gdp_epsilon(q("1"), q("1e-6"));
    benchmark::DoNotOptimize(c.value);
  }
}
BENCHMARK(BM_GdpEpsilon)->Unit(benchmark::kMillisecond);

void BM_GdpMuFor(benchmark::State& state) {
  for (auto _ : state) {
    Certified c = gdp_mu_for(q("1"), q("1e-5"));
    benchmark::DoNotOptimize(c.value);
  }
}
BENCHMARK(BM_GdpMuFor)->Unit(benchmark::kMillisecond);

// Finding 9 (docs/FUZZING.md): eps = 0 puts mu* ~ 2.5 delta; the bracket search on the
// exponent reaches 10^-3000 / 10^-100000 in ~40 evaluations (before: no answer in 2 minutes).
void BM_GdpMuForTinyDeltaAtEpsilonZero(benchmark::State& state) {
  const mpq_class delta = power_of_ten(-state.range(0));
  for (auto _ : state) {
    Certified c = gdp_mu_for(mpq_class(0), delta);
    benchmark::DoNotOptimize(c.value);
  }
}
BENCHMARK(BM_GdpMuForTinyDeltaAtEpsilonZero)->Arg(3000)->Arg(100000)->Unit(benchmark::kMillisecond);

// Finding 9, second half: mu = 1 and delta = delta_1(0) - 10^-n (n digits agree with
// delta_1(0) = 0.3829...), so eps* ~ 3.24 10^-n and a direct comparison needs ~3.3 n bits.
void BM_GdpEpsilonNearDeltaAtZero(benchmark::State& state) {
  const long n = state.range(0);
  Real d0(static_cast<mpfr_prec_t>(4 * n + 64));
  mpfr_set_ui(d0.get(), 8, MPFR_RNDN);
  mpfr_rec_sqrt(d0.get(), d0.get(), MPFR_RNDD);
  mpfr_erf(d0.get(), d0.get(), MPFR_RNDD);
  const mpq_class delta = to_mpq(d0.get()) - power_of_ten(-n);
  for (auto _ : state) {
    Certified c = gdp_epsilon(mpq_class(1), delta);
    benchmark::DoNotOptimize(c.value);
  }
}
BENCHMARK(BM_GdpEpsilonNearDeltaAtZero)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond);

}  // namespace
