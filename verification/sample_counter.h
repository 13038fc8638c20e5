// sample_counter.h — SampleCounter: streaming summary of integer samples for an audit against a
// ReferenceLaw, in memory that does not grow with the number of samples.
//
// Layout (fixed from the law before the first sample): centre c = law.center(), cell width
// w = max(1, floor(spread / 32)), and 2 * kHalfCells cells of w consecutive integers covering
// [c - kHalfCells w, c + kHalfCells w - 1] (w = 1 for spreads below 64: one cell per integer; at
// least 32 standard deviations either side otherwise). Values outside fall into two overflow
// counters (they belong to the pooled tail bins of every test). Beside the cells it keeps, exactly
// (GMP integers): n, sum (x - c), sum (x - c)^2, and for each tail threshold T the number of
// samples with |x - c| > T, and the number with x - c even. So 10^8 or 10^10 samples of any size cost O(kHalfCells) memory.
//
// What the cell layout cannot see: structure inside a cell when w > 1 (for example a sampler
// that never outputs odd numbers at sigma2 = 10^6); such laws are audited at their tests' bin
// resolution (docs/AUDIT.md). Not thread-safe.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <vector>

#include <exactdp/samplers/int128.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp::verification {

class SampleCounter {
 public:
  static constexpr long kHalfCells = 2048;

  // thresholds: the T of the tail-count tests (|x - c| > T), each >= 0.
  SampleCounter(const ReferenceLaw& law, std::vector<mpz_class> thresholds);

  void add(const mpz_class& x);
  void add(std::int64_t x);

  [[nodiscard]] unsigned long long n() const noexcept { return n_; }
  [[nodiscard]] const mpz_class& center() const noexcept { return center_; }
  [[nodiscard]] const mpz_class& width() const noexcept { return width_; }
  // Cell i (0 <= i < 2 kHalfCells) covers [c + (i - kHalfCells) w, c + (i - kHalfCells + 1) w - 1].
  [[nodiscard]] const std::vector<unsigned long long>& cells() const noexcept { return cells_; }
  [[nodiscard]] unsigned long long below() const noexcept { return below_; }  // x < first cell
  [[nodiscard]] unsigned long long above() const noexcept { return above_; }  // x > last cell
  [[nodiscard]] unsigned long long even() const noexcept { return even_; }  // #{x - c even}
  [[nodiscard]] mpz_class sum1() const;  // sum (x - c)
  [[nodiscard]] mpz_class sum2() const;  // sum (x - c)^2
  [[nodiscard]] const std::vector<mpz_class>& thresholds() const noexcept { return thresholds_; }
  [[nodiscard]] const std::vector<unsigned long long>& beyond() const noexcept { return beyond_; }

 private:
  void add_offset_slow(const mpz_class& d);
  void flush_fast_sums();  // moves the 128-bit sums into the GMP sums (every 2^32 samples)
  mpz_class center_, width_;
  std::vector<unsigned long long> cells_;
  unsigned long long below_ = 0, above_ = 0, n_ = 0, even_ = 0;
  std::vector<mpz_class> thresholds_;
  std::vector<unsigned long long> beyond_;
  mpz_class sum1_slow_, sum2_slow_;
  // Fast path (offsets |x - c| < 2^40 with c and w machine-sized): 128-bit accumulators.
  bool fast_ = false;
  std::int64_t c64_ = 0, w64_ = 1;
  std::vector<std::int64_t> thresholds64_;  // -1: threshold too large to be exceeded on the fast path
  int128 sum1_fast_ = 0;
  uint128 sum2_fast_ = 0;
  mpz_class scratch_;
};

}  // namespace exactdp::verification
