// RDP accounting benchmarks (BENCHMARKS.md): DP-SGD epsilon at delta = 1e-5 by the certified RDP route
// (q = 0.01, sigma in {0.8, 1.1, 2}, steps in {10^3, 10^4, 10^5}) and the DP-SGD calibration.
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target accounting_rdp_bench
//   ./build-bench/bench/accounting_rdp_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/core/rational.h>

namespace {

using namespace exactdp;
using namespace exactdp::accounting;

// sigma = range(0)/10, steps = range(1). Counter: the certified upper epsilon (report only).
void BM_RdpDpSgdEpsilon(benchmark::State& state) {
  const mpq_class sigma(state.range(0), 10);
  const RdpComposition events = {
      {RdpEvent::poisson_gaussian(sigma, mpq_class(1, 100)), static_cast<unsigned long>(state.range(1))}};
  RdpAnswer a;
  for (auto _ : state) {
    a = rdp_epsilon(events, parse_rational("delta", "1e-5"));
    benchmark::DoNotOptimize(a.order);
  }
  state.counters["epsilon_upper"] = mpfr_get_d(a.value.value.upper(), MPFR_RNDU);
  state.counters["order"] = a.order.get_d();
}
BENCHMARK(BM_RdpDpSgdEpsilon)
    ->ArgsProduct({{8, 11, 20}, {1000, 10000, 100000}})
    ->Unit(benchmark::kMillisecond);

void BM_CalibrateDpSgd(benchmark::State& state) {
  DpSgdCalibration c;
  for (auto _ : state) {
    c = calibrate_dp_sgd(mpq_class(1, 100), 1000, mpq_class(2), parse_rational("delta", "1e-5"));
    benchmark::DoNotOptimize(c.sigma_upper);
  }
}
BENCHMARK(BM_CalibrateDpSgd)->Unit(benchmark::kMillisecond);

}  // namespace
