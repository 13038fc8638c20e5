// The C interface (<exactdp/exactdp.h>) against the C++ API it wraps: for the same seed the
// same values (plain samplers on the int64 and decimal paths, hardened samplers, Bernoulli), the
// same bits consumed, and the same certified accounting text; plus the pinned values that
// tests/c/c_api_test.c also checks from C. Compiled as C++, this also checks that the header's
// extern "C" guard works.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/exactdp.h>
#include "tests/mechanisms/c_handles.h"
#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp {
namespace {
namespace c_api_known_answer_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using test_support::CBits;
using test_support::CSampler;

using test_support::c_bits;
using test_support::seed_of;

// c_sampler([&](exactdp_sampler** out) { return exactdp_..._new(..., out); })
template <class Make>
CSampler c_sampler(Make&& make) {
  exactdp_sampler* s = nullptr;
  EXPECT_EQ(make(&s), EXACTDP_OK) << exactdp_last_error();
  return CSampler(s);
}

std::vector<std::int64_t> c_draw(const exactdp_sampler* s, exactdp_bits* b, std::size_t n) {
  std::vector<std::int64_t> out(n);
  EXPECT_EQ(exactdp_sample_int64(s, b, out.data(), n), EXACTDP_OK) << exactdp_last_error();
  return out;
}

std::uint64_t consumed(const exactdp_bits* b) {
  std::uint64_t c = 0;
  EXPECT_EQ(exactdp_bits_consumed(b, &c), EXACTDP_OK);
  return c;
}

exactdp_sampler_options options(const char* mean, int flags = 0, unsigned tau_bits = 0) {
  exactdp_sampler_options o;
  exactdp_sampler_options_init(&o);
  o.mean = mean;
  o.flags = flags;
  o.tau_bits = tau_bits;
  return o;
}

TEST(CApiKnownAnswer, DiscreteGaussianWithMeanMatchesCpp) {
  for (unsigned char k = 0; k < 4; ++k) {
    const auto params = DiscreteGaussianParams::make(mpq_class(10), mpz_class(5));
    SeededBits cpp(seed_of(k));
    std::vector<std::int64_t> expected;
    for (int i = 0; i < 200; ++i) expected.push_back(*sample_discrete_gaussian_int64(cpp, params));
    const auto o = options("5");
    const CSampler sampler = c_sampler([&](exactdp_sampler** out) {
      return exactdp_discrete_gaussian_new_ex("10", &o, out);
    });
    const CBits bits = c_bits(seed_of(k));
    EXPECT_EQ(c_draw(sampler.get(), bits.get(), 200), expected);
    EXPECT_EQ(consumed(bits.get()), cpp.bits_consumed());
  }
}

TEST(CApiKnownAnswer, DiscreteLaplaceWithMeanMatchesCpp) {
  const auto params = DiscreteLaplaceParams::make(mpq_class(7, 2), mpz_class(-3));
  SeededBits cpp(seed_of(0));
  std::vector<std::int64_t> expected;
  for (int i = 0; i < 200; ++i) expected.push_back(*sample_discrete_laplace_int64(cpp, params));
  const auto o = options("-3");
  const CSampler sampler = c_sampler([&](exactdp_sampler** out) {
    return exactdp_discrete_laplace_new_ex("7/2", &o, out);
  });
  const CBits bits = c_bits(seed_of(0));
  EXPECT_EQ(c_draw(sampler.get(), bits.get(), 200), expected);
  EXPECT_EQ(consumed(bits.get()), cpp.bits_consumed());
}

TEST(CApiKnownAnswer, BernoulliExpMatchesCpp) {
  const auto params = BernoulliExpParams::make(mpq_class(1, 2));
  SeededBits cpp(seed_of(1));
  std::vector<std::int64_t> expected;
  for (int i = 0; i < 200; ++i) expected.push_back(sample_bernoulli_exp(cpp, params) ? 1 : 0);
  const CSampler sampler = c_sampler([&](exactdp_sampler** out) {
    return exactdp_bernoulli_exp_new("1/2", 0, out);
  });
  const CBits bits = c_bits(seed_of(1));
  EXPECT_EQ(c_draw(sampler.get(), bits.get(), 200), expected);
}

TEST(CApiKnownAnswer, HardenedMatchesCppAndReadsFixedBits) {
  const auto g = HardenedDiscreteGaussianParams::make(mpq_class(100), mpz_class(-7), Hardening{48});
  const auto l = HardenedDiscreteLaplaceParams::make(mpq_class(10), mpz_class(0));
  SeededBits cpp(seed_of(2));
  std::vector<std::int64_t> eg, el;
  for (int i = 0; i < 100; ++i) eg.push_back(sample_discrete_gaussian(cpp, g));
  for (int i = 0; i < 100; ++i) el.push_back(sample_discrete_laplace(cpp, l));

  const auto og = options("-7", EXACTDP_HARDENED, 48);
  const CSampler cg = c_sampler([&](exactdp_sampler** out) {
    return exactdp_discrete_gaussian_new_ex("100", &og, out);
  });
  const CSampler cl = c_sampler([&](exactdp_sampler** out) {
    return exactdp_discrete_laplace_new("10", EXACTDP_HARDENED, out);
  });
  const CBits bits = c_bits(seed_of(2));
  EXPECT_EQ(c_draw(cg.get(), bits.get(), 100), eg);
  EXPECT_EQ(consumed(bits.get()), 100 * g.bits_per_sample());
  EXPECT_EQ(c_draw(cl.get(), bits.get(), 100), el);
  EXPECT_EQ(consumed(bits.get()), cpp.bits_consumed());

  std::uint64_t per = 0;
  ASSERT_EQ(exactdp_sampler_bits_per_sample(cg.get(), &per), EXACTDP_OK);
  EXPECT_EQ(per, g.bits_per_sample());
  ASSERT_EQ(exactdp_sampler_bits_per_sample(cl.get(), &per), EXACTDP_OK);
  EXPECT_EQ(per, l.bits_per_sample());
  // tau: the printed text is the upper end of tau_upper, rounded up.
  char tau[EXACTDP_DECIMAL_LEN];
  ASSERT_EQ(exactdp_sampler_tau(cg.get(), tau, sizeof tau), EXACTDP_OK);
  EXPECT_GE(parse_rational("tau", tau), g.tau_upper());
  EXPECT_LE(parse_rational("tau", tau), power_of_two(-48));
}

TEST(CApiKnownAnswer, DecimalPathMatchesGmpSampler) {
  // A mean far outside int64: the decimal path is the C++ mpz sampler.
  const mpz_class mean("-1000000000000000000000000000000");
  const auto params = DiscreteLaplaceParams::make(mpq_class(1, 3), mean);
  SeededBits cpp(seed_of(3));
  const auto o = options("-1e30");
  const CSampler sampler = c_sampler([&](exactdp_sampler** out) {
    return exactdp_discrete_laplace_new_ex("1/3", &o, out);
  });
  const CBits bits = c_bits(seed_of(3));
  for (int i = 0; i < 20; ++i) {
    char buf[64];
    ASSERT_EQ(exactdp_sample_decimal(sampler.get(), bits.get(), buf, sizeof buf), EXACTDP_OK);
    EXPECT_EQ(std::string(buf), to_string(sample_discrete_laplace(cpp, params)));
  }
}

// The values tests/c/c_api_test.c pins (computed here from the C++ API; also what
// `exactdp sample ... --seed` prints).
TEST(CApiKnownAnswer, PinnedValuesOfTheCTest) {
  const Seed zero = seed_of(0);
  Seed one{};
  one[31] = 1;  // "00...01"
  SeededBits a(zero);
  const auto g = DiscreteGaussianParams::make(mpq_class(10), mpz_class(5));
  std::vector<std::int64_t> x;
  for (int i = 0; i < 5; ++i) x.push_back(*sample_discrete_gaussian_int64(a, g));
  // The table sampler (values of CKS20 were {6, -1, 6, 5, 6}).
  EXPECT_EQ(x, (std::vector<std::int64_t>{5, 5, 6, 0, 3}));
  x.clear();
  SeededBits b(zero);
  const auto l = DiscreteLaplaceParams::make(mpq_class(7, 2), mpz_class(-3));
  for (int i = 0; i < 5; ++i) x.push_back(*sample_discrete_laplace_int64(b, l));
  // The table sampler (values of CKS20 were {2, -5, 6, -3, -2}).
  EXPECT_EQ(x, (std::vector<std::int64_t>{-3, -3, -4, -7, -15}));
  x.clear();
  SeededBits c(one);
  const auto be = BernoulliExpParams::make(mpq_class(1, 2));
  for (int i = 0; i < 8; ++i) x.push_back(sample_bernoulli_exp(c, be) ? 1 : 0);
  EXPECT_EQ(x, (std::vector<std::int64_t>{0, 1, 0, 0, 0, 1, 1, 1}));
  x.clear();
  SeededBits d(zero);
  const auto hg = HardenedDiscreteGaussianParams::make(mpq_class(100));
  for (int i = 0; i < 5; ++i) x.push_back(sample_discrete_gaussian(d, hg));
  EXPECT_EQ(x, (std::vector<std::int64_t>{6, 14, 7, -6, -6}));
  x.clear();
  SeededBits e(one);
  const auto hl = HardenedDiscreteLaplaceParams::make(mpq_class(10));
  for (int i = 0; i < 5; ++i) x.push_back(sample_discrete_laplace(e, hl));
  EXPECT_EQ(x, (std::vector<std::int64_t>{-8, -7, 4, 0, -8}));
}

TEST(CApiAccounting, ProfilesEqualTheAccountingLayer) {
  using exactdp::to_decimal;
  const mpq_class eps(1), sigma2(10), scale(3);
  const mpz_class sens(2);
  char lo[EXACTDP_DECIMAL_LEN], up[EXACTDP_DECIMAL_LEN];

  const auto dg = to_decimal(accounting::discrete_gaussian_delta(eps, sigma2, sens).value,
                             EXACTDP_DECIMAL_DIGITS);
  ASSERT_EQ(exactdp_discrete_gaussian_delta("1", "10", "2", nullptr, lo, up, sizeof lo), EXACTDP_OK);
  EXPECT_EQ(dg.lower, lo);
  EXPECT_EQ(dg.upper, up);

  const auto dl = to_decimal(accounting::discrete_laplace_delta(eps, scale, sens).value,
                             EXACTDP_DECIMAL_DIGITS);
  ASSERT_EQ(exactdp_discrete_laplace_delta("1", "3", "2", nullptr, lo, up, sizeof lo), EXACTDP_OK);
  EXPECT_EQ(dl.lower, lo);
  EXPECT_EQ(dl.upper, up);

  // With a hardened sampler: delta + (1 + e^eps) tau_upper, its exact tau.
  const auto h = HardenedDiscreteGaussianParams::make(sigma2);
  const auto charged = to_decimal(
      accounting::hardened_delta(accounting::discrete_gaussian_delta(eps, sigma2, sens).value, eps,
                                 h.tau_upper()),
      EXACTDP_DECIMAL_DIGITS);
  const CSampler hs = c_sampler([&](exactdp_sampler** out) {
    return exactdp_discrete_gaussian_new("10", EXACTDP_HARDENED, out);
  });
  ASSERT_EQ(exactdp_sampler_delta(hs.get(), "1", "2", lo, up, sizeof lo), EXACTDP_OK);
  EXPECT_EQ(charged.lower, lo);
  EXPECT_EQ(charged.upper, up);

  // Calibration: the C text is the exact calibrated sigma2.
  const auto c = accounting::calibrate_discrete_gaussian(mpq_class(1), mpq_class(1, 100000), 1);
  char sigma2_text[EXACTDP_DECIMAL_LEN];
  ASSERT_EQ(exactdp_calibrate_discrete_gaussian("1", "1e-5", nullptr, sigma2_text, sizeof sigma2_text),
            EXACTDP_OK);
  EXPECT_EQ(parse_rational("sigma2", sigma2_text), c.sigma2);
}

TEST(CApiErrors, NoExceptionCrossesAndMessagesNameTheParameter) {
  exactdp_sampler* s = nullptr;
  EXPECT_EQ(exactdp_discrete_gaussian_new("1e31", EXACTDP_HARDENED, &s), EXACTDP_E_PARAM);
  EXPECT_NE(std::string(exactdp_last_error()).find("sigma2"), std::string::npos);
  EXPECT_EQ(s, nullptr);
  // A message longer than the thread-local buffer is truncated, not overflowed.
  const std::string huge(5000, '7');
  EXPECT_EQ(exactdp_discrete_gaussian_new(("-" + huge).c_str(), 0, &s), EXACTDP_E_PARAM);
  EXPECT_LT(std::string(exactdp_last_error()).size(), 1024u);
  EXPECT_EQ(exactdp_discrete_gaussian_new(std::string(20000, '9').c_str(), 0, &s), EXACTDP_E_LIMIT);
}

}  // namespace c_api_known_answer_test
}  // namespace
}  // namespace exactdp
