// hardened_rejection_test.cc — the hardened discrete Gaussian's rejection method
// (samplers/internal/hardened_rejection.h, docs/HARDENED.md "The rejection method").
//   * Its law, computed exactly from what the code computes (the half table's dyadic
//     probabilities, the exact uniform y and sign, and every acceptance threshold as the
//     fixed-point code returns it, reused residual included), against D_{Z, sigma} (tests/support/exact_gaussian_tv.h): the
//     certified tau_upper contains the true distance. Companions: a constant off by 2^-60 and the
//     exponential's ln 2 coefficient off by 2^-56 (both relative) are caught.
//   * The acceptance count floor(alpha w_x / 2^80) against GMP, with w_x from the thresholds.
//   * A batch gives exactly the values and the bits of single draws; a draw reads at most 140 bits
//     on average.
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
namespace hardened_rejection_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

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

// The law of the accepted value: proposal (x, y, b) has weight Q(x) / (2 k), Q(x) = w_x / 2^W the
// half table's law (w_x = T_x - T_(x-1), T_(-1) = 0, T_K = 2^W); given x the residual is uniform
// on [0, w_x), so the proposal is accepted with probability min(acceptance_count(x, y), w_x) / w_x,
// and never for z = 0 with b = 1: weight min(acceptance_count(x, y), w_x) / (2^W 2 k).
Law rejection_law(const internal::HardenedRejectionPlan& plan) {
  const mpz_class two_w = mpz_class(1) << plan.width.width_bits;
  const std::uint64_t k = std::uint64_t{1} << plan.j;
  Law law;
  mpq_class total = 0;
  mpz_class previous = 0;
  for (std::size_t x = 0; x <= plan.half.entries; ++x) {
    const mpz_class next = x < plan.half.entries ? plan.half.threshold(x, plan.width.limbs) : two_w;
    const mpz_class w = next - previous;
    previous = next;
    for (std::uint64_t y = 0; y < k; ++y) {
      const mpz_class count = to_mpz(internal::acceptance_count(plan, x, y));
      const mpq_class accept(count < w ? count : w, two_w * 2 * k);
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

  broken = plan;  // the exponential's ln 2 coefficient (fixed_exp52.h: B_1) off by a relative 2^-56
  broken.exp.wide[1] += broken.exp.wide[1] >> 56;
  const Interval broken_exp_tv = test_support::gaussian_tv(rejection_law(broken), sigma2);
  EXPECT_GT(test_support::lower_of(broken_exp_tv), params.tau_upper()) << "a broken exponential is not caught";

  broken = plan;  // the brackets one entry off: w_x of x + 1
  for (unsigned p = 0; p < internal::kBracketPlanes; ++p) {
    for (std::size_t x = 0; x + 1 < broken.brackets.values; ++x) broken.brackets.planes[p][x] = plan.brackets.planes[p][x + 1];
  }
  const Interval shifted_tv = test_support::gaussian_tv(rejection_law(broken), sigma2);
  EXPECT_GT(test_support::lower_of(shifted_tv), params.tau_upper()) << "a shifted bracket is not caught";
}

// acceptance_count(plan, x, y) = floor(alpha w_x / 2^80), alpha the fixed-point acceptance and w_x
// = T_x - T_(x-1) from the thresholds (T_(-1) = 0, T_K = 2^80), for every (x, y) at sigma2 = 1024
// and at sampled y at 2^40; and the product at its edges and at random inputs.
TEST(RejectionAcceptance, CountIsTheFlooredProduct) {
  for (const char* s : {"1024", "1099511627776"}) {
    const auto params = HardenedDiscreteGaussianParams::make(parse_rational("sigma2", s), 0, rejection());
    const internal::HardenedRejectionPlan& plan = *params.plan().rejection;
    const mpz_class two_w = mpz_class(1) << plan.width.width_bits;
    const std::uint64_t k = std::uint64_t{1} << plan.j;
    const std::uint64_t step = k > 4096 ? k / 4093 : 1;
    mpz_class previous = 0;
    for (std::size_t x = 0; x <= plan.half.entries; ++x) {
      const mpz_class next = x < plan.half.entries ? plan.half.threshold(x, plan.width.limbs) : two_w;
      const mpz_class w = next - previous;
      previous = next;
      for (std::uint64_t y = 0; y < k; y += step) {
        const mpz_class expected = to_mpz(internal::acceptance_fraction(plan, x, y)) * w >> 80;
        ASSERT_EQ(to_mpz(internal::acceptance_count(plan, x, y)), expected) << s << " x = " << x << " y = " << y;
      }
    }
  }
  const uint128 top = uint128{1} << 80;
  SeededBits bits(test_support::fixed_seed(75, 0));
  std::vector<std::pair<uint128, uint128>> cases = {{top, top}, {top, 0}, {0, top}, {top - 1, top - 1}, {top, 1}, {1, top}};
  for (int i = 0; i < 20000; ++i) {
    const uint128 a = (uint128{bits.bits(16)} << 64 | bits.bits(64)) + bits.bits(1);
    const uint128 w = (uint128{bits.bits(16)} << 64 | bits.bits(64)) + bits.bits(1);
    cases.emplace_back(a, w);
  }
  for (const auto& [a, w] : cases) {
    ASSERT_EQ(to_mpz(internal::acceptance_count(a, w)), to_mpz(a) * to_mpz(w) >> 80);
  }
}

// Bits a draw, averaged over 100,000 seeded single draws: 81 + j a proposal, 1 / A proposals a
// draw. sigma2 = 2^36 (j = 17) and 2^54 (j = 26 with s0 = 4, the lowest acceptance rate at the
// widest y: the most bits a draw reads anywhere in the range).
TEST(RejectionBits, AtMost140BitsADrawOnAverage) {
  for (const char* s : {"68719476736", "18014398509481984"}) {
    const auto params = HardenedDiscreteGaussianParams::make(parse_rational("sigma2", s), 0, rejection());
    SeededBits bits(test_support::fixed_seed(76, 0));
    constexpr int kDraws = 100'000;
    for (int i = 0; i < kDraws; ++i) (void)sample_discrete_gaussian(bits, params);
    const double per_draw = static_cast<double>(bits.bits_consumed()) / kDraws;
    RecordProperty(std::string("bits_per_draw_") + s, std::to_string(per_draw));
    EXPECT_LE(per_draw, 140.0) << "sigma2 = " << s;
  }
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
          const std::uint64_t high = b.bits(64);
          const uint128 window = (uint128{high} << 64) | (uint128{b.bits(plan.proposal_bits() - 64)} << (128 - plan.proposal_bits()));
          const uint128 sign = uint128{1} << 47;
          std::int64_t value = 0;
          const std::uint64_t accepted = internal::rejection_proposal(plan, window & ~sign, &value);
          if (accepted != 0) return (window & sign) != 0 ? -value : value;  // the sign bit ignored at 0
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

}  // namespace hardened_rejection_test
}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {
namespace hardened_rejection_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

// Welch's t of the number of proposals (bits / (81 + j)) between draws with |value| < sigma (class A,
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

}  // namespace hardened_rejection_test
}  // namespace
}  // namespace exactdp
