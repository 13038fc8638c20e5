// timing_audit.h — a timing-leak test of a sampler: does its running time, or the number of
// random bits it reads, depend on the value it outputs? The method is dudect (Reparaz, Balasch
// and Verbauwhede, "Dude, is my code constant time?", DATE 2017), with the classes taken from the
// secret itself: the noise. Entry point of `exactdp audit-timing` (docs/TIMING_AUDIT.md).
//
// Method:
//  - Warm-up: min(calls, 10^4) untimed calls (caches, branch predictors, page faults).
//  - `calls` timed calls, one measurement per call: cycles (x86-64: rdtsc fenced by lfence on both
//    sides) or nanoseconds (elsewhere: clock_gettime(CLOCK_MONOTONIC)), and the bits drawn
//    (bits_consumed() before and after). The clock stops before the output is looked at.
//  - Classes are assigned AFTER each call from its output d = |x - mean|: A when d < sigma,
//    B when d >= 2 sigma (the rest is in neither class; SigmaClasses, exact). So the classes are interleaved as the
//    sampler's own randomness interleaves them; drift of the machine (other processes, frequency)
//    hits both alike. Secondly, classes by bits drawn: at most the median vs above it.
//  - Cropping (dudect): calls slower than the 95th percentile of all calls' times are dropped
//    from the time tests (interrupts, preemption, the bit source's refills). One threshold for
//    all classes, so that under the null every class keeps the same truncated law. The
//    percentile, and the median of the bits drawn, come from a pilot: the first
//    min(calls, 2^16) timed calls (which are then counted like the others), so memory stays
//    constant however many calls are made.
//  - Welch's t between the classes, three times: time by output class, time by bit class, bits
//    drawn by output class. A sampler that reads the same number of bits on every call has no
//    bit classes; that test reports "constant, N bits" and holds.
//  - Verdict: every |t| < 5 holds; any |t| >= 5 is a leak; a test that could not run (a class
//    with fewer than 2 calls) makes the audit inconclusive, never "holds". Under the null hypothesis (time and
//    bits independent of the output) each t is asymptotically standard normal, so one test
//    raises a false alarm with probability 2 (1 - Phi(5)) = 5.73e-7 (kFalseAlarmPerTest), the
//    three together with at most 1.72e-6.
// Cost: the sampler's own time per call plus about 60 cycles of measurement; memory O(2^16).
// The statistics are in double precision: this is a test's statistic, not a sampling path.
// What it does NOT prove: a test can only fail to find a leak; it measures this machine's
// timing at this load. The valgrind test (tests/constant_time/) checks the compiled code for
// secret-dependent branches and addresses instead.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <string>

#include <exactdp/samplers/bit_source.h>

namespace exactdp::verification {

// The class of one output, assigned after the clock has stopped.
enum class OutputClass { kA, kB, kNeither };

// Exact classes by the distance d = x - mean in units of sigma: A when |d| < sigma, B when
// |d| >= 2 sigma, neither in between. sigma is given by its square, a positive rational (sigma2
// for the discrete Gaussian, scale^2 for the discrete Laplace), and the comparisons are integer
// ones (d^2 den < num), so every parameter, however large or small, gives exact classes.
class SigmaClasses {
 public:
  // std::invalid_argument unless sigma_squared > 0.
  explicit SigmaClasses(const mpq_class& sigma_squared);
  [[nodiscard]] OutputClass of(const mpz_class& distance) const;
  [[nodiscard]] OutputClass of(std::int64_t distance) const;

 private:
  mpz_class num_, four_num_, den_;
  mutable mpz_class d_, scratch_;
};

// What the audit times: draw() is called between the two clock readings; last_class() is read
// after the clock has stopped.
class TimedSampler {
 public:
  TimedSampler() = default;
  TimedSampler(const TimedSampler&) = delete;
  TimedSampler& operator=(const TimedSampler&) = delete;
  virtual ~TimedSampler() = default;

  // One draw; keeps the output for last_class().
  virtual void draw(BitSource& bits) = 0;
  // The class of the last draw's output (usually SigmaClasses::of(x - mean)).
  [[nodiscard]] virtual OutputClass last_class() const = 0;
};

inline constexpr unsigned long long kMinTimingCalls = 1'000;
inline constexpr unsigned long long kMaxTimingCalls = 1'000'000'000;
inline constexpr unsigned long long kDefaultTimingCalls = 1'000'000;
inline constexpr double kTimingThreshold = 5.0;            // |t| >= 5 is a leak
inline constexpr double kFalseAlarmPerTest = 5.733031e-7;  // 2 (1 - Phi(5)), one t-test
inline constexpr double kCropFraction = 0.05;              // slowest 5 % of the calls dropped

// Untimed calls before the timed ones (fewer when calls is smaller): min(calls, this).
inline constexpr unsigned long long kTimingWarmupCalls = 10'000;

struct TimingAuditOptions {
  unsigned long long calls = kDefaultTimingCalls;  // kMinTimingCalls..kMaxTimingCalls
};

// One Welch t-test between two classes of calls.
struct WelchTest {
  std::string name;          // "time by output class" ...
  std::string class_a;       // "|x - mean| < sigma" ...
  std::string class_b;
  std::string unit;          // "cycles", "ns" or "bits"
  unsigned long long n_a = 0, n_b = 0;  // calls in each class (after cropping)
  double mean_a = 0, mean_b = 0;        // mean of the measured quantity in each class
  double t = 0;              // Welch's t (mean_b - mean_a) / sqrt(var_a / n_a + var_b / n_b)
  bool applicable = true;    // false: a class had fewer than 2 calls (then leak is false)
  bool constant = false;     // the bits drawn were the same on every call (t = 0, holds)
  std::string detail;        // "constant, 81 bits" / why not applicable
  bool leak = false;         // applicable and |t| >= kTimingThreshold
};

struct TimingAuditReport {
  unsigned long long calls = 0;
  unsigned long long warmup = 0;
  unsigned long long pilot = 0;
  std::string clock;  // "rdtsc (cycles)" or "clock_gettime (ns)"
  std::uint64_t bits_min = 0, bits_max = 0, bits_median = 0;  // bits drawn per call
  std::uint64_t crop_time = 0;  // time tests keep the calls with time <= crop_time
  WelchTest time_by_output;  // time, class A vs class B
  WelchTest time_by_bits;    // time, bits <= median vs bits > median
  WelchTest bits_by_output;  // bits drawn, class A vs class B (not cropped)
  bool leak = false;         // any test leaks
  bool conclusive = false;   // every test ran (applicable); holds = conclusive && !leak
};

// Runs the audit (see the top of this file). Throws std::invalid_argument when calls is outside
// kMinTimingCalls..kMaxTimingCalls. Draws warmup + calls samples.
[[nodiscard]] TimingAuditReport run_timing_audit(TimedSampler& sampler, BitSource& bits,
                                                 const TimingAuditOptions& options);

// Welch's t of two samples given their sizes, means and (unbiased) variances; +-infinity when both
// variances are 0 and the means differ, 0 when they are equal. Requires n_a, n_b >= 2.
[[nodiscard]] double welch_t(double n_a, double mean_a, double var_a, double n_b, double mean_b,
                             double var_b);

// The clock the audit reads: "rdtsc (cycles)" on x86-64, else "clock_gettime (ns)".
[[nodiscard]] const char* timing_clock_name();

}  // namespace exactdp::verification
