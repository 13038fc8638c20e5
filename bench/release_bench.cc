// release_bench — rows per second of `exactdp release`'s library passes on a generated
// 10^6-row table (region,age_band,count,sum_visits,note; the note is quoted with a comma every
// 10th row): scan alone (pass 1: parse and validate), and the whole release (scan, calibrate,
// write with noise) for discrete Gaussian and discrete Laplace on two columns. Input from
// memory, output discarded, seeded ChaCha20 bits. items_per_second = rows per second.
#include <benchmark/benchmark.h>

#include <ostream>
#include <streambuf>
#include <string>

#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/mechanisms/release/release_table.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using namespace exactdp;
using namespace exactdp::mechanisms;

constexpr std::size_t kRows = 1'000'000;

const std::string& table() {
  static const std::string text = [] {
    std::string t = "region,age_band,count,sum_visits,note\n";
    const char* const regions[] = {"North", "South", "\"East, coastal\"", "West"};
    const char* const bands[] = {"18-29", "30-44", "45-64", "65+"};
    for (std::size_t i = 0; i < kRows; ++i) {
      t += regions[i % 4];
      t += ',';
      t += bands[(i / 4) % 4];
      t += ',' + std::to_string(100 + i % 5000) + ',' + std::to_string(300 + (i * 7) % 20000) + ',';
      if (i % 10 == 0) t += "\"wave 2, late\"";
      t += '\n';
    }
    return t;
  }();
  return text;
}

class MemoryReader final : public ByteReader {
 public:
  explicit MemoryReader(const std::string& s) : s_(s) {}
  std::size_t read(char* out, std::size_t n) override {
    const std::size_t k = std::min(n, s_.size() - pos_);
    s_.copy(out, k, pos_);
    pos_ += k;
    return k;
  }
  void rewind() { pos_ = 0; }

 private:
  const std::string& s_;
  std::size_t pos_ = 0;
};

class NullBuffer final : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

void BM_ReleaseScanOnly(benchmark::State& state) {
  const std::string& t = table();
  for (auto _ : state) {
    MemoryReader in(t);
    benchmark::DoNotOptimize(scan_table(in, {"count", "sum_visits"}));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kRows));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * t.size()));
}
BENCHMARK(BM_ReleaseScanOnly)->Unit(benchmark::kMillisecond)->Iterations(3);

void release(benchmark::State& state, const std::string& mechanism) {
  const std::string& t = table();
  ReleaseBudget budget;
  budget.mechanism = mechanism;
  budget.epsilon = 1;
  budget.delta = mpq_class(1, 1'000'000);
  ContributionModel model;
  model.columns = 2;
  SeededBits bits(Seed{});
  NullBuffer sink;
  std::ostream out(&sink);
  for (auto _ : state) {
    MemoryReader in(t);
    const TableScan scan = scan_table(in, {"count", "sum_visits"});
    const ReleaseCalibration c = calibrate_release(budget, model, scan.rows);
    in.rewind();
    write_release(in, out, scan, c, bits);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kRows));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * t.size()));
}

void BM_ReleaseDiscreteGaussian(benchmark::State& state) { release(state, "discrete-gaussian"); }
BENCHMARK(BM_ReleaseDiscreteGaussian)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_ReleaseDiscreteLaplace(benchmark::State& state) { release(state, "discrete-laplace"); }
BENCHMARK(BM_ReleaseDiscreteLaplace)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
