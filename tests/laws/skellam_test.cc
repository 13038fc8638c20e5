// The Skellam law (samplers/poisson.h, samplers/skellam.h, laws/skellam/): its certified masses
// and profile against independent mpmath values (tests/laws/data/skellam_reference.py wrote
// them), the AKL21 RDP bound above mpmath's exact Renyi divergence, the sampler by chi-square
// against the exact masses on the Poisson table's route, mu <= 10^7 (the envelope's chi-square is
// poisson_test.cc's; alpha = 1e-6 per test, so a correct sampler fails with probability 1e-6 per
// case; fixed seeds) with a sampler at mu off by 5 % that the same check rejects, large mu (10^6,
// 10^12) by mean and variance, and bad input refused naming mu.
#include <gtest/gtest.h>

#include <cmath>

#include <exactdp/laws/registry.h>
#include <exactdp/laws/skellam/skellam_pmf.h>
#include <exactdp/laws/skellam/skellam_privacy.h>
#include <exactdp/laws/skellam/skellam_reference.h>
#include <exactdp/samplers/poisson.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/skellam.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/rationals.h"
#include "tests/support/seeds.h"

namespace exactdp::laws {
namespace {
namespace skellam_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using exactdp::Interval;
using test_support::encloses_reference;
constexpr mpfr_prec_t kP = 256;

TEST(SkellamPmf, MassesMatchMpmath) {
  struct Case {
    const char* mu;
    long k;
    const char* value;
  };
  const Case cases[] = {{"1/3", 0, "0.572067786009866732158309646897"}, {"1/3", 3, "0.00325826018394757073627852834995"},
                        {"2", 1, "0.178750839502435327013709443323"},   {"25", 0, "0.0565616266474541925299391880158"},
                        {"25", -7, "0.0345071647824055997180500065864"}, {"25", 40, "1.15863455334138940155624187406e-8"}};
  for (const Case& c : cases) {
    const SkellamPmf pmf(mpq_class(c.mu), kP);
    EXPECT_TRUE(encloses_reference(pmf.mass(c.k), c.value))
        << c.mu << " " << c.k << " " << pmf.mass(c.k).debug_string();
  }
}

TEST(SkellamPmf, MassesSumToOneAndTheTailIsBounded) {
  for (const char* mu : {"1/3", "25", "1000"}) {
    const SkellamPmf pmf(mpq_class(mu), kP);
    const Interval total = pmf.mass_between(0, -1) * mpq_class(2) - pmf.mass(0);
    EXPECT_TRUE(total.contains(1L)) << mu << " " << total.debug_string();
    EXPECT_LT(mpfr_get_d(width_upper(total), MPFR_RNDU), 1e-70) << mu;
  }
}

TEST(SkellamPrivacy, ProfileMatchesMpmath) {
  struct Case {
    const char* mu;
    long d;
    const char* epsilon;
    const char* delta;
  };
  const Case cases[] = {{"1/3", 1, "1/10", "0.549564774100123325013299886114"},
                        {"2", 1, "1/2", "0.0526754260537609296181355687498"},
                        {"10", 3, "1", "0.03048308148506400576064587665"},
                        {"50", 1, "1", "1.80261264089767922781312586259e-31"},
                        {"50", 2, "1/4", "0.0114128563509422771111028666378"}};
  for (const Case& c : cases) {
    const SkellamPrivacy maps(mpq_class(c.mu), c.d);
    const Interval delta = maps.delta_at(mpq_class(c.epsilon), kP);
    EXPECT_TRUE(encloses_reference(delta, c.delta)) << c.mu << " " << c.d << " " << delta.debug_string();
  }
}

TEST(SkellamPrivacy, RdpBoundIsAkl21AndLiesAboveTheExactDivergence) {
  struct Case {
    const char* mu;
    long d;
    const char* alpha;
    const char* exact;  // mpmath: log(sum P^alpha Q^(1 - alpha)) / (alpha - 1)
  };
  const Case cases[] = {{"10", 1, "2", "0.0499527981982203011849407686605"},
                        {"10", 1, "7/2", "0.0870864358965497102003148208431"},
                        {"10", 3, "10", "1.77226581120493363898856695165"},
                        {"50", 2, "5", "0.0998036478702493953456529733611"}};
  for (const Case& c : cases) {
    const SkellamPrivacy maps(mpq_class(c.mu), c.d);
    const mpq_class a(c.alpha), mu(c.mu), d(c.d);
    const mpq_class second = ((2 * a - 1) * d * d + 6 * d) / (16 * mu * mu);
    const mpq_class first = 3 * d / (4 * mu);
    const mpq_class akl = a * d * d / (4 * mu) + (second < first ? second : first);
    EXPECT_EQ(maps.rdp_bound(a), akl);
    Real exact(kP);
    mpfr_set_str(exact, c.exact, 10, MPFR_RNDU);
    EXPECT_GT(mpfr_cmp_q(maps.rdp(a, kP).lower(), to_mpq(exact).get_mpq_t()), 0) << c.mu << " " << c.alpha;
    EXPECT_LE(maps.rdp_bound(a), *maps.rho() * a) << "rho-zCDP must cover the RDP bound";
  }
}

TEST(SkellamPrivacy, BeyondTheExactMassesTheProfileIsTheRdpConversionsBound) {
  EXPECT_TRUE(SkellamPrivacy(mpq_class(1'000'000), 1).exact_profile());
  const SkellamPrivacy beyond(mpq_class(2'000'000), 1000);
  EXPECT_FALSE(beyond.exact_profile());
  EXPECT_TRUE(beyond.has_profile());
  // where both exist the bound lies above the exact profile, and it is non-increasing in epsilon
  for (const char* eps : {"1/10", "1/2", "2"}) {
    const SkellamPrivacy maps(mpq_class(1000), 10);
    const Interval exact = maps.delta_at(mpq_class(eps), kP);
    const Interval bound = maps.rdp_delta_bound(mpq_class(eps), kP);
    EXPECT_TRUE(certainly_less(exact, bound)) << eps << " " << exact.debug_string() << " " << bound.debug_string();
  }
  const Interval at1 = beyond.delta_at(mpq_class(1), kP), at2 = beyond.delta_at(mpq_class(2), kP);
  EXPECT_TRUE(certainly_less_equal(at2, at1));
  EXPECT_TRUE(upper_at_most(at1, mpq_class(1)));
}

// Chi-square of n draws of sample_skellam at draw_mu against the exact law at mu.
verification::TestResult chi_square(const char* mu, const mpq_class& draw_mu, unsigned long long n, std::uint32_t index) {
  const SkellamReferenceLaw law(mpq_class(mu), 0);
  const SkellamParams params = SkellamParams::make(draw_mu);
  return test_support::chi_square_check(
      law, [&](BitSource& b) { return sample_skellam(b, params); }, n, test_support::fixed_seed(401, index));
}

TEST(SkellamSampler, MatchesTheExactPmfOnBothPoissonPaths) {
  const mpq_class alpha(1, 1'000'000);
  std::uint32_t index = 0;
  // the Poisson table (mu <= 10^7) at mu from 1/3 to 10^6
  for (const auto& [mu, n] : {std::pair{"1/3", 200'000ULL}, std::pair{"2", 200'000ULL}, std::pair{"25", 100'000ULL},
                              std::pair{"100", 20'000ULL}, std::pair{"1000", 10'000ULL}, std::pair{"1000000", 100'000ULL}}) {
    const auto t = chi_square(mu, mpq_class(mu), n, ++index);
    EXPECT_TRUE(t.applicable) << mu;
    EXPECT_FALSE(test_support::rejects(t, alpha)) << test_support::rejection_message(mu, t, "1e-6");
  }
}

TEST(SkellamSampler, ASamplerWithMuOffByFivePercentIsCaught) {
  const mpq_class alpha(1, 1'000'000);
  const auto t = chi_square("2", mpq_class(21, 10), 400'000, 20);
  EXPECT_TRUE(test_support::rejects(t, alpha));
}

// Mean and variance of n Poisson draws within 6 standard errors (a correct sampler fails with
// probability below 1e-8): mean mu +- 6 sqrt(mu / n); the variance's relative error has standard
// deviation about sqrt(2 / n).
struct Moments {
  double mean, variance;
};
Moments poisson_moments(const mpq_class& mu, unsigned n, std::uint32_t index) {
  const PoissonParams params = PoissonParams::make(mu);
  SeededBits bits(test_support::fixed_seed(402, index));
  mpz_class sum = 0, sum2 = 0;
  const mpz_class centre = mu.get_num() / mu.get_den();
  for (unsigned i = 0; i < n; ++i) {
    const mpz_class x = sample_poisson(bits, params) - centre;
    sum += x;
    sum2 += x * x;
  }
  const double m = mpq_class(sum, n).get_d();
  return {m + centre.get_d(), mpq_class(sum2, n).get_d() - m * m};
}

TEST(PoissonSampler, LargeMuHasTheRightMeanAndVariance) {
  constexpr unsigned kN = 3000;
  std::uint32_t index = 0;
  for (const char* text : {"1000000", "1000000000000", "1000000000000000", "123456789/7"}) {
    const mpq_class mu(text);
    const double m = mu.get_d();
    const Moments got = poisson_moments(mu, kN, ++index);
    EXPECT_NEAR(got.mean, m, 6 * std::sqrt(m / kN)) << text;
    EXPECT_NEAR(got.variance / m, 1.0, 6 * std::sqrt(2.0 / kN)) << text;
  }
  // the same check catches mu off by 5 % (at mu = 10^6 the mean moves by 250 standard errors)
  const Moments off = poisson_moments(mpq_class(1'050'000), kN, 9);
  EXPECT_GT(std::abs(off.mean - 1e6), 6 * std::sqrt(1e6 / kN));
}

// The same 6-standard-error bounds on Skellam draws (mean 0, second moment 2 mu, its relative
// error of standard deviation about sqrt(2 / n)): a correct sampler fails each check with
// probability below 1e-8.
TEST(SkellamSampler, LargeMuHasMeanZeroAndVarianceTwoMu) {
  constexpr unsigned kN = 2000;
  for (const char* text : {"1000000", "1000000000000"}) {
    const mpq_class mu(text);
    const SkellamParams params = SkellamParams::make(mu);
    SeededBits bits(test_support::fixed_seed(403, 1));
    mpz_class sum = 0, sum2 = 0;
    for (unsigned i = 0; i < kN; ++i) {
      const mpz_class x = sample_skellam(bits, params);
      sum += x;
      sum2 += x * x;
    }
    const double var = 2 * mu.get_d();
    EXPECT_NEAR(mpq_class(sum, kN).get_d(), 0.0, 6 * std::sqrt(var / kN)) << text;
    EXPECT_NEAR(mpq_class(sum2, kN).get_d() / var, 1.0, 6 * std::sqrt(2.0 / kN)) << text;
  }
}

void expect_refused_naming_mu(const std::string& value) {
  const Law& law = law_named("skellam");
  try {
    (void)law.parse({{"mu", value}}, Use::kSample);
    ADD_FAILURE() << "mu = " << value << " accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "mu") << e.what();
    EXPECT_NE(std::string(e.what()).find("0 < mu <= 10^15"), std::string::npos) << e.what();
  }
}

TEST(SkellamLaw, BadMuIsRefusedNamingIt) {
  for (const char* v : {"0", "-1", "-1/3", "1000000000000001", "1e16"}) expect_refused_naming_mu(v);
  EXPECT_THROW((void)law_named("skellam").parse({{"mu", "1e16"}}, Use::kSample), LimitError);
  EXPECT_THROW((void)SkellamParams::make(0), ParameterError);
  EXPECT_THROW((void)PoissonParams::make(mpq_class(-1)), ParameterError);
  EXPECT_THROW((void)SkellamPmf(mpq_class(1'000'001), 64), LimitError);
  // an event beyond every accounting route (rho > 5 10^5) is refused naming mu, sampling is not
  const Law& law = law_named("skellam");
  try {
    (void)law.parse({{"mu", "1e-6"}, {"sensitivity", "7"}}, Use::kPrivacy);
    ADD_FAILURE() << "an unaccountable event accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "mu") << e.what();
  }
  EXPECT_NO_THROW((void)law.parse({{"mu", "1/1000"}, {"sensitivity", "1"}}, Use::kPrivacy));
  EXPECT_NO_THROW((void)law.parse({{"mu", "1e-6"}}, Use::kSample));
}

TEST(SkellamLaw, IsInTheRegistryAndRefusesHardening) {
  const Law& law = law_named("skellam");
  EXPECT_TRUE(law.supports(Capability::kSample));
  EXPECT_TRUE(law.supports(Capability::kProfile));
  EXPECT_TRUE(law.supports(Capability::kEvent));
  EXPECT_FALSE(law.supports(Capability::kHardened));
  const LawParameters p = law.parse({{"mu", "5/2"}}, Use::kSample);
  EXPECT_THROW((void)law.make_sampler(p, Hardening{}), UnsupportedError);
  const auto sampler = law.make_sampler(p, std::nullopt);
  SeededBits a(test_support::fixed_seed(404, 1)), b(test_support::fixed_seed(404, 1));
  const SkellamParams direct = SkellamParams::make(mpq_class(5, 2));
  for (int i = 0; i < 100; ++i) {
    mpz_class x;
    sampler->sample(a, x);
    EXPECT_EQ(x, sample_skellam(b, direct));
  }
  const LawParameters q = law.parse({{"mu", "40"}, {"sensitivity", "2"}}, Use::kPrivacy);
  EXPECT_EQ(law.privacy_event(q).maps().describe(), "skellam(mu=40, sensitivity=2)");
}

// The law sampler's batch (sample_wide, what the federated encoder calls) gives the values and reads
// the bits of single draws: on the table route (mu = 10^6, with a mean near 2^62), and on the
// envelope route (mu = 10^8).
TEST(SkellamLaw, BatchDrawsAreTheSingleDraws) {
  const Law& law = law_named("skellam");
  std::uint32_t index = 10;
  for (const auto& [mu, mean] : {std::pair{"1000000", "5"}, std::pair{"1000000", "4611686018427387903"},
                                 std::pair{"100000000", "-7"}}) {
    const auto sampler = law.make_sampler(law.parse({{"mu", mu}, {"mean", mean}}, Use::kSample), std::nullopt);
    SeededBits a(test_support::fixed_seed(404, ++index)), b(test_support::fixed_seed(404, index));
    std::vector<std::int64_t> batch(500);
    std::vector<WideValue> wide;
    sampler->sample_wide(a, batch.data(), batch.size(), wide);
    EXPECT_TRUE(wide.empty()) << mu;
    for (const std::int64_t v : batch) {
      mpz_class x;
      sampler->sample(b, x);
      ASSERT_EQ(mpz_class(static_cast<long>(v)), x) << mu << " mean " << mean;
    }
    EXPECT_EQ(a.bits_consumed(), b.bits_consumed()) << mu;
  }
}

// The batch at means where mean + N1 - N2 leaves int64 (mean = INT64_MAX, and INT64_MIN on the
// other side): about half the values go to `wide` (its index, out[i] = 0), each the single draw's
// value from the same bits. The batch above never leaves int64, so this is the only check of
// sample_skellam_wide's overflow branch. Deterministic (fixed seeds).
TEST(SkellamSampler, BatchValuesBeyondInt64AreTheSingleDraws) {
  const auto mu = mpq_class(1000000);  // the table route (both draws in int64)
  std::uint32_t index = 20;
  for (const mpz_class& mean : {mpz_class("9223372036854775807"), mpz_class("-9223372036854775808")}) {
    const SkellamParams params = SkellamParams::make(mu, mean);
    ASSERT_NE(params.poisson().table(), nullptr);
    SeededBits a(test_support::fixed_seed(404, ++index)), b(test_support::fixed_seed(404, index));
    std::vector<std::int64_t> batch(400, 7);
    std::vector<WideValue> wide;
    sample_skellam_wide(a, params, batch.data(), batch.size(), wide);
    EXPECT_GT(wide.size(), 100U) << mean;  // about 200 (P[N1 != N2] ~ 1, each side 1/2)
    std::size_t next = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const mpz_class x = sample_skellam(b, params);
      if (next < wide.size() && wide[next].index == i) {
        EXPECT_EQ(batch[i], 0) << i;
        ASSERT_EQ(wide[next].value, x) << "draw " << i << ", mean " << mean;
        ++next;
      } else {
        ASSERT_EQ(mpz_class(static_cast<long>(batch[i])), x) << "draw " << i << ", mean " << mean;
      }
    }
    EXPECT_EQ(next, wide.size());
    EXPECT_EQ(a.bits_consumed(), b.bits_consumed());
  }
}

}  // namespace skellam_test
}  // namespace
}  // namespace exactdp::laws
