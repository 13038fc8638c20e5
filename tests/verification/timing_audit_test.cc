// timing_audit_test.cc — the dudect timing audit (verification/timing_audit.h): Welch's t, the
// bit-use tests on scripted samplers (deterministic), and the two checks on the real samplers
// that docs/TIMING_AUDIT.md reports: the audit sees the plain samplers leak (power) and the
// hardened ones not.
//
// Calls: 10^5 per audit (about 0.05 s each here, at most 0.11 s under ASan+UBSan). There the
// plain samplers' time-by-output t was 49..53 (discrete Gaussian sigma2 = 100) and 88..101
// (discrete Laplace scale = 10), the hardened ones' |t| at most 3.0, in 30 runs each
// (docs/TIMING_AUDIT.md). No assertion on a time itself, only on t.
// False alarms: a hardened test fails under the null with probability about 5.7e-7 per t-test;
// the power tests need t >= 10 where about 50 is typical (t grows like sqrt(calls)).
#include <exactdp/verification/timing_audit.h>

#include <gtest/gtest.h>
#include <gmpxx.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::verification {
namespace {

constexpr unsigned long long kCalls = 100'000;

Seed test_seed(unsigned char salt) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<unsigned char>(i * 29 + salt);
  return s;
}

std::string describe(const TimingAuditReport& r) {
  std::string out;
  for (const WelchTest* w : {&r.time_by_output, &r.time_by_bits, &r.bits_by_output}) {
    out += w->name + ": t = " + std::to_string(w->t) + " (n " + std::to_string(w->n_a) + " / " +
           std::to_string(w->n_b) + ", means " + std::to_string(w->mean_a) + " / " + std::to_string(w->mean_b) +
           " " + w->unit + ") " + w->detail + "\n";
  }
  return out;
}

// The plain (exact, variable-time) samplers, output through GMP as `exactdp sample` does.
// CKS20 Algorithm 3 alone (sample_discrete_gaussian_cks20), whatever sigma2.
struct Cks20Params {
  DiscreteGaussianParams params;
};

template <class Params>
class PlainTimed final : public TimedSampler {
 public:
  PlainTimed(Params params, const mpq_class& sigma_squared) : params_(std::move(params)), classes_(sigma_squared) {}
  void draw(BitSource& bits) override { sample(bits, params_, value_); }
  [[nodiscard]] OutputClass last_class() const override { return classes_.of(value_); }

 private:
  static void sample(BitSource& bits, const DiscreteGaussianParams& p, mpz_class& out) {
    sample_discrete_gaussian(bits, p, out);
  }
  static void sample(BitSource& bits, const DiscreteLaplaceParams& p, mpz_class& out) {
    sample_discrete_laplace(bits, p, out);
  }
  static void sample(BitSource& bits, const Cks20Params& p, mpz_class& out) {
    out = sample_discrete_gaussian_cks20(bits, p.params);
  }
  Params params_;
  SigmaClasses classes_;
  mpz_class value_;
};

template <class Params>
class HardenedTimed final : public TimedSampler {
 public:
  HardenedTimed(Params params, const mpq_class& sigma_squared) : params_(std::move(params)), classes_(sigma_squared) {}
  void draw(BitSource& bits) override {
    if constexpr (std::is_same_v<Params, HardenedDiscreteGaussianParams>) {
      value_ = sample_discrete_gaussian(bits, params_);
    } else {
      value_ = sample_discrete_laplace(bits, params_);
    }
  }
  [[nodiscard]] OutputClass last_class() const override { return classes_.of(value_); }

 private:
  Params params_;
  SigmaClasses classes_;
  std::int64_t value_ = 0;
};

// Scripted: x uniform in 0..15 from 4 bits, classes with sigma = 3 (A: x < 3, B: x >= 6); when
// `leaky`, x >= 8 reads 16 more bits.
class ScriptedTimed final : public TimedSampler {
 public:
  explicit ScriptedTimed(bool leaky) : leaky_(leaky) {}
  void draw(BitSource& bits) override {
    x_ = bits.bits(4);
    if (leaky_ && x_ >= 8) (void)bits.bits(16);
  }
  [[nodiscard]] OutputClass last_class() const override { return classes_.of(static_cast<std::int64_t>(x_)); }

 private:
  bool leaky_;
  SigmaClasses classes_{mpq_class(9)};
  std::uint64_t x_ = 0;
};

TEST(SigmaClasses, ExactBoundaries) {
  const SigmaClasses gauss(mpq_class(100));  // sigma = 10
  EXPECT_EQ(gauss.of(std::int64_t{0}), OutputClass::kA);
  EXPECT_EQ(gauss.of(std::int64_t{-9}), OutputClass::kA);
  EXPECT_EQ(gauss.of(std::int64_t{10}), OutputClass::kNeither);
  EXPECT_EQ(gauss.of(std::int64_t{-19}), OutputClass::kNeither);
  EXPECT_EQ(gauss.of(std::int64_t{20}), OutputClass::kB);
  EXPECT_EQ(gauss.of(std::int64_t{-20}), OutputClass::kB);
  const SigmaClasses irrational(mpq_class(2));  // sigma = sqrt(2): 1 is A, 2 neither, 3 B (9 >= 8)
  EXPECT_EQ(irrational.of(std::int64_t{1}), OutputClass::kA);
  EXPECT_EQ(irrational.of(std::int64_t{2}), OutputClass::kNeither);
  EXPECT_EQ(irrational.of(std::int64_t{3}), OutputClass::kB);
  const SigmaClasses tiny(mpq_class(1, 100));  // sigma = 1/10: only 0 is A, everything else B
  EXPECT_EQ(tiny.of(std::int64_t{0}), OutputClass::kA);
  EXPECT_EQ(tiny.of(std::int64_t{1}), OutputClass::kB);
  mpz_class ten_to_200;
  mpz_ui_pow_ui(ten_to_200.get_mpz_t(), 10, 200);
  const SigmaClasses huge(mpq_class(ten_to_200 * ten_to_200));  // sigma = 10^200, beyond a double's square
  EXPECT_EQ(huge.of(ten_to_200 - 1), OutputClass::kA);
  EXPECT_EQ(huge.of(ten_to_200), OutputClass::kNeither);
  EXPECT_EQ(huge.of(mpz_class(-2 * ten_to_200)), OutputClass::kB);
  EXPECT_THROW(SigmaClasses(mpq_class(0)), std::invalid_argument);
  EXPECT_THROW(SigmaClasses(mpq_class(-1)), std::invalid_argument);
}

TEST(WelchT, KnownValues) {
  // (3 - 1) / sqrt(4 / 100 + 9 / 100) = 2 / sqrt(0.13)
  EXPECT_NEAR(welch_t(100, 1, 4, 100, 3, 9), 2 / std::sqrt(0.13), 1e-12);
  EXPECT_NEAR(welch_t(100, 3, 4, 100, 1, 9), -2 / std::sqrt(0.13), 1e-12);
  EXPECT_EQ(welch_t(10, 5, 0, 20, 5, 0), 0.0);
  EXPECT_EQ(welch_t(10, 5, 0, 20, 6, 0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(welch_t(10, 6, 0, 20, 5, 0), -std::numeric_limits<double>::infinity());
}

TEST(TimingAudit, RejectsCallsOutOfRange) {
  SeededBits bits(test_seed(1));
  ScriptedTimed s(false);
  EXPECT_THROW((void)run_timing_audit(s, bits, {kMinTimingCalls - 1}), std::invalid_argument);
  EXPECT_THROW((void)run_timing_audit(s, bits, {kMaxTimingCalls + 1}), std::invalid_argument);
}

TEST(TimingAudit, ConstantBitsAreReportedAsConstant) {
  SeededBits bits(test_seed(2));
  ScriptedTimed s(false);
  const TimingAuditReport r = run_timing_audit(s, bits, {20'000});  // A: x < 3, B: x >= 6
  EXPECT_EQ(r.calls, 20'000u);
  EXPECT_EQ(r.bits_min, 4u);
  EXPECT_EQ(r.bits_max, 4u);
  EXPECT_TRUE(r.bits_by_output.constant);
  EXPECT_TRUE(r.time_by_bits.constant);
  EXPECT_EQ(r.bits_by_output.detail, "constant, 4 bits");
  EXPECT_FALSE(r.bits_by_output.leak);
  EXPECT_TRUE(r.time_by_output.applicable);
  // Classes: P[A] = 3/16, P[B] = 10/16, before cropping about 5 % of each.
  EXPECT_GT(r.time_by_output.n_a, 20'000u * 3 / 16 * 85 / 100);
  EXPECT_GT(r.time_by_output.n_b, 20'000u * 10 / 16 * 85 / 100);
}

TEST(TimingAudit, BitUseThatDependsOnTheOutputIsALeak) {
  SeededBits bits(test_seed(3));
  ScriptedTimed s(true);
  const TimingAuditReport r = run_timing_audit(s, bits, {kMinTimingCalls});
  EXPECT_EQ(r.bits_min, 4u);
  EXPECT_EQ(r.bits_max, 20u);
  EXPECT_FALSE(r.bits_by_output.constant);
  EXPECT_EQ(r.bits_by_output.mean_a, 4.0);
  EXPECT_NEAR(r.bits_by_output.mean_b, 4.0 + 16.0 * 8 / 10, 2.0);  // B = {6..15}: 8 of 10 read 16 more
  EXPECT_TRUE(r.bits_by_output.leak) << describe(r);
  EXPECT_TRUE(r.leak);
}

// Power of the audit: the plain samplers' running time (and bit use) reveals the noise.
template <class Params>
TimingAuditReport plain_audit(const Params& params, const mpq_class& sigma2, unsigned char seed) {
  SeededBits bits(test_seed(seed));
  PlainTimed<Params> s(params, sigma2);
  return run_timing_audit(s, bits, {kCalls});
}

template <class Params>
void expect_plain_leak(const Params& params, const mpq_class& sigma2, unsigned char seed) {
  const TimingAuditReport r = plain_audit(params, sigma2, seed);
  EXPECT_TRUE(r.leak);
  EXPECT_GE(std::fabs(r.time_by_output.t), 10.0) << describe(r);
  EXPECT_TRUE(r.bits_by_output.leak) << describe(r);
}

// CKS20 (the algorithm outside the exact table and bucket samplers' ranges): its time grows
// with |X|. The table samplers (sigma2 <= 10^4, scale <= 50) and the bucket sampler (sigma2 >
// 10^4) hardly vary in time with the output (BENCHMARKS.md), but they are still not hardened: see
// PlainBucketGaussianStillLeaksThroughBitUse.
TEST(TimingAudit, PlainDiscreteGaussianLeaks) {
  expect_plain_leak(Cks20Params{DiscreteGaussianParams::make(1000000)}, 1000000, 4);
}

TEST(TimingAudit, PlainDiscreteLaplaceLeaks) {
  expect_plain_leak(DiscreteLaplaceParams::make(1000), 1000000, 5);  // sigma = scale
}

// The bucket sampler at sigma2 = 10^6: draws beyond sigma are rejected slightly more often (the
// acceptance exponent grows with x), so the number of bits drawn still depends on the output
// (t = 12 with this seed; the audit's leak threshold is far below): the audit flags it.
TEST(TimingAudit, PlainBucketGaussianStillLeaksThroughBitUse) {
  const TimingAuditReport r = plain_audit(DiscreteGaussianParams::make(1000000), 1000000, 4);
  EXPECT_TRUE(r.leak) << describe(r);
  EXPECT_TRUE(r.bits_by_output.leak) << describe(r);
}

// The hardened samplers: the same audit finds no leak in the hardened samplers.
template <class Params>
void expect_hardened_holds(const Params& params, const mpq_class& sigma2, unsigned char seed) {
  SeededBits bits(test_seed(seed));
  HardenedTimed<Params> s(params, sigma2);
  const TimingAuditReport r = run_timing_audit(s, bits, {kCalls});
  EXPECT_TRUE(r.conclusive) << describe(r);
  EXPECT_FALSE(r.leak) << describe(r);
  EXPECT_LT(std::fabs(r.time_by_output.t), kTimingThreshold) << describe(r);
  EXPECT_TRUE(r.bits_by_output.constant);
  EXPECT_EQ(r.bits_min, params.bits_per_sample());
}

TEST(TimingAudit, HardenedDiscreteGaussianHolds) {
  expect_hardened_holds(HardenedDiscreteGaussianParams::make(100), 100, 6);
}

TEST(TimingAudit, HardenedDiscreteLaplaceHolds) {
  expect_hardened_holds(HardenedDiscreteLaplaceParams::make(10), 100, 7);  // sigma = scale
}

}  // namespace
}  // namespace exactdp::verification
