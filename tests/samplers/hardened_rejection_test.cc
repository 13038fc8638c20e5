// hardened_rejection_test.cc — the hardened discrete Gaussian's rejection method
// (samplers/internal/hardened_rejection.h, docs/HARDENED.md "The rejection method").
//   * Its law, computed exactly from what the code computes (the half table's dyadic
//     probabilities, the exact uniform y and sign, and every acceptance threshold as the
//     fixed-point code returns it), against D_{Z, sigma} (tests/support/exact_gaussian_tv.h): the
//     certified tau_upper contains the true distance. Companion: a constant off by 2^-60 is caught.
//   * A batch gives exactly the values and the bits of single draws.
//   * Chi-square against the exact pmf at sigma2 = 2^20 and 10^7 (alpha = 1e-6 each, seeds fixed),
//     single draws and batches; companion: the zero not rejected with the negative sign (its
//     weight doubled) is caught.
//   * The range: where the method applies, and that elsewhere the fixed-work method answers.
//   * The number of proposals does not depend on the output (Welch t by output class, seeded);
//     companion: the same statistic sees the plain sampler's dependence.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <exactdp/core/rational.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/samplers/internal/hardened_rejection.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/exact_gaussian_tv.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using test_support::Law;

Hardening rejection() {
  Hardening h;
  h.method = HardenedMethod::kRejection;
  return h;
}

mpz_class to_mpz(uint128 v) {
  mpz_class out = static_cast<unsigned long>(v >> 64);
  out <<= 64;
  out += static_cast<unsigned long>(v);
  return out;
}

// The law of the accepted value: proposal (x, y, b) has weight Q(x) / (2 k), Q the half table's
// law; it is accepted with probability threshold(x, y) / 2^80, and never for z = 0 with b = 1.
Law rejection_law(const internal::HardenedRejectionPlan& plan) {
  const mpz_class two_w = mpz_class(1) << plan.width.width_bits;
  const mpz_class two_80 = mpz_class(1) << 80;
  const std::uint64_t k = std::uint64_t{1} << plan.j;
  Law law;
  mpq_class total = 0;
  mpz_class previous = 0;
  for (std::size_t x = 0; x <= plan.half.entries; ++x) {
    const mpz_class next = x < plan.half.entries ? plan.half.threshold(x, plan.width.limbs) : two_w;
    const mpq_class q(next - previous, two_w);
    previous = next;
    for (std::uint64_t y = 0; y < k; ++y) {
      const mpq_class accept = q * mpq_class(to_mpz(internal::acceptance_threshold(plan, x, y)), two_80) / (2 * k);
      const auto z = static_cast<long>((x << plan.j) + y);
      law[z] += accept;
      total += accept;
      if (z != 0) {
        law[-z] += accept;
        total += accept;
      }
    }
  }
  for (auto& [z, p] : law) p /= total;
  return law;
}

class RejectionLaw : public ::testing::TestWithParam<const char*> {};

TEST_P(RejectionLaw, TauContainsTheTrueDistance) {
  const mpq_class sigma2 = parse_rational("sigma2", GetParam());
  const auto params = HardenedDiscreteGaussianParams::make(sigma2, 0, rejection());
  ASSERT_TRUE(params.plan().rejection);
  const internal::HardenedRejectionPlan& plan = *params.plan().rejection;
  const Interval tv = test_support::gaussian_tv(rejection_law(plan), sigma2);
  const auto log2_of = [](const mpq_class& q) {  // recorded for docs/HARDENED.md
    return static_cast<long>(mpz_sizeinbase(q.get_num_mpz_t(), 2)) - static_cast<long>(mpz_sizeinbase(q.get_den_mpz_t(), 2));
  };
  RecordProperty("tau_upper_log2", std::to_string(log2_of(params.tau_upper())));
  RecordProperty("tv_upper_log2", std::to_string(log2_of(test_support::upper_of(tv))));
  EXPECT_LE(test_support::upper_of(tv), params.tau_upper()) << "sigma2 = " << GetParam();
  EXPECT_LE(params.tau_upper(), mpq_class(1, mpz_class(1) << 70));  // far inside 2^-64

  internal::HardenedRejectionPlan broken = plan;  // R off by a relative 2^-60
  broken.log2e_over_two_s0 += broken.log2e_over_two_s0 >> 60;
  const Interval broken_tv = test_support::gaussian_tv(rejection_law(broken), sigma2);
  EXPECT_GT(test_support::lower_of(broken_tv), params.tau_upper()) << "a broken constant is not caught";
}

// j = 4 (k = 16) and j = 5 with a non-dyadic s0; about 700 and 1,400 values.
INSTANTIATE_TEST_SUITE_P(Cases, RejectionLaw, ::testing::Values("1024", "5000"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string("sigma2_") + i.param; });

TEST(RejectionBatch, SameValuesAndBitsAsSingleDraws) {
  for (const char* s : {"1024", "68719476736", "1099511627776/3"}) {
    const auto params = HardenedDiscreteGaussianParams::make(parse_rational("sigma2", s), 7, rejection());
    for (const std::size_t n : {1U, 31U, 32U, 33U, 100U, 1000U}) {
      SeededBits single(test_support::fixed_seed(71, static_cast<std::uint32_t>(n)));
      SeededBits batch(test_support::fixed_seed(71, static_cast<std::uint32_t>(n)));
      (void)single.bits(13);  // a stream not on a word boundary
      (void)batch.bits(13);
      std::vector<std::int64_t> expected(n), got(n);
      for (auto& v : expected) v = sample_discrete_gaussian(single, params);
      sample_discrete_gaussian_n(batch, params, got.data(), n);
      EXPECT_EQ(got, expected) << "sigma2 = " << s << ", n = " << n;
      EXPECT_EQ(batch.bits_consumed(), single.bits_consumed()) << "sigma2 = " << s << ", n = " << n;
    }
  }
}

const mpq_class kAlpha(1, 1'000'000);

TEST(RejectionChiSquare, MatchesTheExactPmf) {
  for (const char* s : {"1048576", "10000000"}) {
    const mpq_class sigma2 = parse_rational("sigma2", s);
    const auto params = HardenedDiscreteGaussianParams::make(sigma2, -3, rejection());
    const verification::DiscreteGaussianLaw law(sigma2, -3);
    const auto single = test_support::chi_square_check(
        law, [&](BitSource& b) { return sample_discrete_gaussian(b, params); }, 400'000, test_support::fixed_seed(72, 1));
    ASSERT_TRUE(single.applicable) << single.detail;
    EXPECT_FALSE(test_support::rejects(single, kAlpha)) << test_support::rejection_message(s, single, "1e-6");
    std::vector<std::int64_t> buffer;
    std::size_t next = 0;
    const auto batched = test_support::chi_square_check(
        law,
        [&](BitSource& b) {
          if (next == buffer.size()) {
            buffer.assign(1000, 0);
            sample_discrete_gaussian_n(b, params, buffer.data(), buffer.size());
            next = 0;
          }
          return buffer[next++];
        },
        400'000, test_support::fixed_seed(72, 2));
    EXPECT_FALSE(test_support::rejects(batched, kAlpha)) << test_support::rejection_message(s, batched, "1e-6");
  }
}

// The classic bug: zero kept with both signs (its weight doubled), at sigma2 = 2^10 where the
// atom at zero is 1 / (sqrt(2 pi) 32) ~ 1.2 %.
TEST(RejectionChiSquare, CatchesZeroWithBothSigns) {
  const mpq_class sigma2(1024);
  const auto params = HardenedDiscreteGaussianParams::make(sigma2, 0, rejection());
  const internal::HardenedRejectionPlan& plan = *params.plan().rejection;
  const verification::DiscreteGaussianLaw law(sigma2, 0);
  const auto broken = test_support::chi_square_check(
      law,
      [&](BitSource& b) {
        for (;;) {
          std::uint64_t w[3];
          for (auto& word : w) word = b.bits(64);
          std::int64_t value = 0;
          const std::uint64_t accepted = internal::rejection_proposal(plan, w[0], w[1], w[2] & ~(std::uint64_t{1} << 31) , &value);
          if (accepted != 0) return ((w[2] >> 31) & 1) != 0 ? -value : value;  // the sign bit ignored at 0
        }
      },
      400'000, test_support::fixed_seed(72, 3));
  EXPECT_TRUE(test_support::rejects(broken, kAlpha)) << "zero with both signs is not caught";
}

TEST(RejectionRange, AppliesWhereDocumented) {
  EXPECT_FALSE(internal::rejection_covers(mpq_class(1023), 64));
  EXPECT_TRUE(internal::rejection_covers(mpq_class(1024), 64));
  EXPECT_TRUE(internal::rejection_covers(mpq_class(mpz_class(1) << 56) - 1, 64));
  EXPECT_FALSE(internal::rejection_covers(mpq_class(mpz_class(1) << 56), 64));
  EXPECT_FALSE(internal::rejection_covers(mpq_class(1 << 20), 65));
  // Outside: the fixed-work method, with its fixed bits per draw.
  const auto small = HardenedDiscreteGaussianParams::make(mpq_class(100), 0, rejection());
  EXPECT_FALSE(small.plan().rejection);
  EXPECT_GT(small.bits_per_sample(), 0U);
  const auto large = HardenedDiscreteGaussianParams::make(mpq_class(1 << 20), 0, rejection());
  EXPECT_TRUE(large.plan().rejection);
  EXPECT_EQ(large.bits_per_sample(), 0U);  // varies
  const auto top = HardenedDiscreteGaussianParams::make(mpq_class(mpz_class(1) << 56) - 1, 0, rejection());
  ASSERT_TRUE(top.plan().rejection);
  EXPECT_EQ(top.plan().rejection->j, 26U);
  SeededBits bits(test_support::fixed_seed(73, 0));
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t v = sample_discrete_gaussian(bits, top);
    EXPECT_LT(v < 0 ? -v : v, std::int64_t{1} << 40);  // sigma = 2^28: 2^40 is 4096 sigma
  }
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {

// Welch's t of the number of proposals (bits / 192) between draws with |value| < sigma (class A,
// about 68 %) and the others (class B); fixed seed. The rejection method's count is independent of
// the output (docs/HARDENED.md), so |t| stays small: under independence t is about standard
// normal, and |t| >= 5 has probability about 6e-7. The plain sampler (CKS20, whose loops run
// longer for larger |Y|) read through the same statistic shows its dependence (|t| far above 5):
// the test is able to see one.
template <class Draw>
double proposal_count_t(Draw draw, const mpz_class& sigma_floor, std::uint32_t index) {
  SeededBits bits(test_support::fixed_seed(74, index));
  double n[2] = {0, 0}, sum[2] = {0, 0}, sum2[2] = {0, 0};
  for (int i = 0; i < 200'000; ++i) {
    const std::uint64_t before = bits.bits_consumed();
    const mpz_class value = draw(bits);
    const double used = static_cast<double>(bits.bits_consumed() - before);
    const int c = abs(value) < sigma_floor ? 0 : 1;
    n[c] += 1;
    sum[c] += used;
    sum2[c] += used * used;
  }
  double mean[2], var[2];
  for (int c = 0; c < 2; ++c) {
    mean[c] = sum[c] / n[c];
    var[c] = (sum2[c] - n[c] * mean[c] * mean[c]) / (n[c] - 1);
  }
  return (mean[1] - mean[0]) / std::sqrt(var[0] / n[0] + var[1] / n[1]);
}

TEST(RejectionTiming, ProposalCountDoesNotDependOnTheOutput) {
  const mpq_class sigma2(1 << 20);
  const auto hardened = HardenedDiscreteGaussianParams::make(sigma2, 0, rejection());
  const double t = proposal_count_t([&](BitSource& b) { return mpz_class(sample_discrete_gaussian(b, hardened)); },
                                    1024, 1);
  RecordProperty("welch_t", std::to_string(t));
  EXPECT_LT(std::abs(t), 5.0) << "proposal count depends on the output: t = " << t;

  // The plain sampler at sigma2 = 100 (CKS20: its Laplace proposal's loops grow with |Y|).
  const auto plain = DiscreteGaussianParams::make(mpq_class(100));
  const double t_plain = proposal_count_t(
      [&](BitSource& b) {
        mpz_class x;
        sample_discrete_gaussian(b, plain, x);
        return x;
      },
      10, 2);
  RecordProperty("welch_t_plain", std::to_string(t_plain));
  EXPECT_GT(std::abs(t_plain), 5.0) << "the statistic does not see the plain sampler's dependence: t = " << t_plain;
}

}  // namespace
}  // namespace exactdp
