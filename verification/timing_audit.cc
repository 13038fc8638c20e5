#include <exactdp/verification/timing_audit.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#else
#include <time.h>
#endif

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::verification {
namespace {

constexpr unsigned long long kPilotCalls = 1ULL << 16;

// One clock reading. On x86-64 the lfence before rdtsc waits for the instructions before it
// (the end of the timed call) and the one after keeps the timed call from starting early.
inline std::uint64_t read_clock() noexcept {
#if defined(__x86_64__)
  _mm_lfence();
  const std::uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
#else
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
#endif
}

struct Measurement {
  std::uint64_t time;  // cycles or ns
  std::uint64_t bits;  // bits drawn
  OutputClass cls;     // of the output
};

Measurement measure_one(TimedSampler& sampler, BitSource& bits) {
  const std::uint64_t b0 = bits.bits_consumed();
  const std::uint64_t t0 = read_clock();
  sampler.draw(bits);
  const std::uint64_t t1 = read_clock();
  const std::uint64_t b1 = bits.bits_consumed();
  return {t1 - t0, b1 - b0, sampler.last_class()};
}

// Welford's running mean and variance.
struct Moments {
  unsigned long long n = 0;
  double mean = 0, m2 = 0;
  void add(double x) {
    ++n;
    const double delta = x - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (x - mean);
  }
  [[nodiscard]] double variance() const { return n > 1 ? m2 / static_cast<double>(n - 1) : 0.0; }
};

// The time at or below which (1 - kCropFraction) of the pilot's calls lie.
std::uint64_t crop_threshold(std::vector<std::uint64_t> times) {
  if (times.empty()) return std::numeric_limits<std::uint64_t>::max();
  const auto k = static_cast<std::size_t>(std::floor((1.0 - kCropFraction) * static_cast<double>(times.size() - 1)));
  std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(k), times.end());
  return times[k];
}

WelchTest make_test(std::string name, std::string class_a, std::string class_b, std::string unit,
                    const Moments& a, const Moments& b) {
  WelchTest w;
  w.name = std::move(name);
  w.class_a = std::move(class_a);
  w.class_b = std::move(class_b);
  w.unit = std::move(unit);
  w.n_a = a.n;
  w.n_b = b.n;
  w.mean_a = a.mean;
  w.mean_b = b.mean;
  if (a.n < 2 || b.n < 2) {
    w.applicable = false;
    w.detail = "not run: a class has fewer than 2 calls";
    return w;
  }
  w.t = welch_t(static_cast<double>(a.n), a.mean, a.variance(), static_cast<double>(b.n), b.mean, b.variance());
  w.leak = !(std::fabs(w.t) < kTimingThreshold);  // NaN counts as a leak
  return w;
}

WelchTest constant_bits_test(std::string name, std::string class_a, std::string class_b, std::uint64_t bits) {
  WelchTest w;
  w.name = std::move(name);
  w.class_a = std::move(class_a);
  w.class_b = std::move(class_b);
  w.unit = "bits";
  w.constant = true;
  w.detail = "constant, " + std::to_string(bits) + " bits";
  return w;
}

}  // namespace

SigmaClasses::SigmaClasses(const mpq_class& sigma_squared) {
  mpq_class q = sigma_squared;
  q.canonicalize();  // den > 0
  if (sgn(q) <= 0) throw ParameterError::out_of_range("sigma2", to_string(q), "sigma2 > 0 (timing audit)");
  num_ = q.get_num();
  four_num_ = 4 * num_;
  den_ = q.get_den();
}

OutputClass SigmaClasses::of(const mpz_class& distance) const {
  // d^2 < sigma^2 = num / den  <=>  d^2 den < num (den > 0); B: d^2 den >= 4 num.
  mpz_mul(scratch_.get_mpz_t(), distance.get_mpz_t(), distance.get_mpz_t());
  mpz_mul(scratch_.get_mpz_t(), scratch_.get_mpz_t(), den_.get_mpz_t());
  if (mpz_cmp(scratch_.get_mpz_t(), num_.get_mpz_t()) < 0) return OutputClass::kA;
  if (mpz_cmp(scratch_.get_mpz_t(), four_num_.get_mpz_t()) >= 0) return OutputClass::kB;
  return OutputClass::kNeither;
}

OutputClass SigmaClasses::of(std::int64_t distance) const {
  mpz_set_si(d_.get_mpz_t(), static_cast<long>(distance));
  return of(d_);
}

const char* timing_clock_name() {
#if defined(__x86_64__)
  return "rdtsc (cycles)";
#else
  return "clock_gettime (ns)";
#endif
}

double welch_t(double n_a, double mean_a, double var_a, double n_b, double mean_b, double var_b) {
  const double se2 = var_a / n_a + var_b / n_b;
  const double diff = mean_b - mean_a;
  if (se2 <= 0) {
    if (diff == 0) return 0.0;
    return diff > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  }
  return diff / std::sqrt(se2);
}

namespace {

// The median of the bits drawn and the crop threshold, both from the pilot calls.
struct PilotStatistics {
  std::uint64_t median_bits = 0;
  std::uint64_t crop = 0;
};

PilotStatistics pilot_statistics(const std::vector<Measurement>& pilot) {
  std::vector<std::uint64_t> pilot_bits;
  pilot_bits.reserve(pilot.size());
  for (const auto& m : pilot) pilot_bits.push_back(m.bits);
  const std::size_t mid = (pilot_bits.size() - 1) / 2;
  std::nth_element(pilot_bits.begin(), pilot_bits.begin() + static_cast<std::ptrdiff_t>(mid), pilot_bits.end());
  // One crop threshold for all classes (dudect): under the null every class is then cut at the
  // same time and keeps the same truncated law. (A threshold per class would not: a class's own
  // percentile, estimated from few calls, lands on a different step of the discrete cycle counts
  // and biases that class's cropped mean by a cycle or two, enough for |t| > 5 at 10^5 calls.)
  std::vector<std::uint64_t> pilot_times;
  pilot_times.reserve(pilot.size());
  for (const auto& m : pilot) pilot_times.push_back(m.time);
  return {pilot_bits[mid], crop_threshold(std::move(pilot_times))};
}

// The running moments of the three tests, call by call.
struct ClassMoments {
  PilotStatistics pilot;
  Moments time_a, time_b, time_low, time_high, bits_a, bits_b;
  std::uint64_t bits_min = std::numeric_limits<std::uint64_t>::max(), bits_max = 0;

  void add(const Measurement& m) {
    bits_min = std::min(bits_min, m.bits);
    bits_max = std::max(bits_max, m.bits);
    const auto time = static_cast<double>(m.time);
    const auto drawn = static_cast<double>(m.bits);
    const bool kept = m.time <= pilot.crop;
    switch (m.cls) {
      case OutputClass::kA:
        if (kept) time_a.add(time);
        bits_a.add(drawn);
        break;
      case OutputClass::kB:
        if (kept) time_b.add(time);
        bits_b.add(drawn);
        break;
      case OutputClass::kNeither:
        break;
    }
    if (kept) (m.bits <= pilot.median_bits ? time_low : time_high).add(time);
  }
};

// The three Welch tests and the verdict from the accumulated moments.
void finish_report(const ClassMoments& c, TimingAuditReport& report) {
  const std::string unit = report.clock.find("cycles") != std::string::npos ? "cycles" : "ns";
  const std::string a = "|x - mean| < sigma";
  const std::string b = "|x - mean| >= 2 sigma";
  report.crop_time = c.pilot.crop;
  report.bits_min = c.bits_min;
  report.bits_max = c.bits_max;
  report.bits_median = c.pilot.median_bits;
  report.time_by_output = make_test("time by output class", a, b, unit, c.time_a, c.time_b);
  const std::string low = "bits <= " + std::to_string(c.pilot.median_bits) + " (median)";
  const std::string high = "bits > " + std::to_string(c.pilot.median_bits);
  if (c.bits_min == c.bits_max) {
    report.time_by_bits = constant_bits_test("time by bits drawn", low, high, c.bits_min);
    report.time_by_bits.unit = unit;
    report.bits_by_output = constant_bits_test("bits drawn by output class", a, b, c.bits_min);
  } else {
    report.time_by_bits = make_test("time by bits drawn", low, high, unit, c.time_low, c.time_high);
    report.bits_by_output = make_test("bits drawn by output class", a, b, "bits", c.bits_a, c.bits_b);
  }
  report.leak = report.time_by_output.leak || report.time_by_bits.leak || report.bits_by_output.leak;
  report.conclusive =
      report.time_by_output.applicable && report.time_by_bits.applicable && report.bits_by_output.applicable;
}

}  // namespace

TimingAuditReport run_timing_audit(TimedSampler& sampler, BitSource& bits, const TimingAuditOptions& options) {
  if (options.calls < kMinTimingCalls || options.calls > kMaxTimingCalls) {
    throw ParameterError::out_of_range("calls", std::to_string(options.calls), "1000 <= calls <= 1000000000");
  }
  TimingAuditReport report;
  report.calls = options.calls;
  report.clock = timing_clock_name();
  report.warmup = std::min(options.calls, kTimingWarmupCalls);
  report.pilot = std::min(options.calls, kPilotCalls);

  for (unsigned long long i = 0; i < report.warmup; ++i) (void)measure_one(sampler, bits);
  // Pilot: measured and kept, to fix the crop threshold and the median of the bits drawn; then
  // counted like every other call (memory stays bounded by the pilot).
  std::vector<Measurement> pilot;
  pilot.reserve(report.pilot);
  for (unsigned long long i = 0; i < report.pilot; ++i) pilot.push_back(measure_one(sampler, bits));
  ClassMoments moments;
  moments.pilot = pilot_statistics(pilot);
  for (const auto& m : pilot) moments.add(m);
  pilot.clear();
  pilot.shrink_to_fit();
  for (unsigned long long i = report.pilot; i < options.calls; ++i) moments.add(measure_one(sampler, bits));
  finish_report(moments, report);
  return report;
}

}  // namespace exactdp::verification
