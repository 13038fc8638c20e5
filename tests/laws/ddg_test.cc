// The distributed discrete Gaussian (laws/distributed_discrete_gaussian/): its certified masses and
// exact profile against independent mpmath values (tests/laws/data/ddg_reference.py wrote them:
// theta-function normaliser, successive direct convolutions), the KLS21 RDP bound above mpmath's
// exact Renyi divergence and its converted delta above the exact profile, the Poisson-subsampled
// bound above the exact subsampled discrete Gaussian (one client), the sampler by chi-square
// against the exact masses (alpha = 1e-6 per case, fixed seeds) with a sampler that sums one
// share too many caught by the same check, the dropout's survivor count, and bad input refused
// naming the parameter.
#include <gtest/gtest.h>

#include <tuple>

#include <exactdp/accounting/rdp.h>
#include <exactdp/laws/distributed_discrete_gaussian/ddg_pmf.h>
#include <exactdp/laws/distributed_discrete_gaussian/ddg_privacy.h>
#include <exactdp/laws/events.h>
#include <exactdp/laws/registry.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/verification/goodness_of_fit.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/rationals.h"
#include "tests/support/seeds.h"

namespace exactdp::laws {
namespace {
namespace ddg_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using exactdp::Interval;
using test_support::encloses_reference;
constexpr mpfr_prec_t kP = 256;

DistributedDiscreteGaussianPrivacy scalar_maps(const char* sigma2, long m, long d) {
  return DistributedDiscreteGaussianPrivacy({mpq_class(sigma2), m, mpq_class(d), std::nullopt, 1});
}

TEST(DdgPmf, MassesMatchMpmath) {
  struct Case {
    const char* sigma2;
    long m, k;
    const char* value;
  };
  const Case cases[] = {{"1/2", 2, 0, "0.404596862743583436204487867457"},
                        {"1/2", 2, 3, "0.00436719817364087577262014408802"},
                        {"2", 3, 1, "0.149845337348376773895163939415"},
                        {"3/10", 7, -2, "0.099707209680222491705811226819"},
                        {"10", 4, 25, "0.0000255243346651363112806687736745"}};
  for (const Case& c : cases) {
    const DistributedDiscreteGaussianPmf pmf(mpq_class(c.sigma2), c.m, kP);
    EXPECT_TRUE(encloses_reference(pmf.mass(c.k), c.value))
        << c.sigma2 << " " << c.m << " " << pmf.mass(c.k).debug_string();
  }
}

TEST(DdgPrivacy, ExactProfileMatchesMpmath) {
  struct Case {
    const char* sigma2;
    long m, d;
    const char* eps;
    const char* value;
  };
  const Case cases[] = {{"1/2", 2, 1, "1/2", "0.211471522853670754189653643538"},
                        {"2", 3, 1, "1", "0.00163314681535739508090920138038"},
                        {"1", 5, 2, "1/4", "0.269022542520506292030715902668"},
                        {"3/10", 7, 1, "1/10", "0.254284088690640763497505162114"},
                        {"10", 4, 3, "1", "0.00482867613221869584936219335312"}};
  for (const Case& c : cases) {
    const auto maps = scalar_maps(c.sigma2, c.m, c.d);
    ASSERT_TRUE(maps.exact_profile());
    const Interval delta = maps.delta_at(mpq_class(c.eps), kP);
    EXPECT_TRUE(encloses_reference(delta, c.value)) << c.sigma2 << " m=" << c.m << " " << delta.debug_string();
  }
}

TEST(DdgPrivacy, Kls21RdpLiesAboveTheExactDivergenceAndIsCks20ForOneClient) {
  struct Case {
    const char* sigma2;
    long m, d;
    const char* alpha;
    const char* exact;  // mpmath: log(sum P^alpha Q^(1 - alpha)) / (alpha - 1)
  };
  const Case cases[] = {{"1/2", 2, 1, "2", "1.0"},
                        {"2", 3, 1, "5", "0.41666666666666665056490557192"},
                        {"1", 5, 2, "7/2", "1.40000004840249550012809381171"},
                        {"10", 4, 3, "10", "1.125"}};
  for (const Case& c : cases) {
    Real exact(kP);
    mpfr_set_str(exact, c.exact, 10, MPFR_RNDU);
    const Interval bound = scalar_maps(c.sigma2, c.m, c.d).rdp(mpq_class(c.alpha), kP);
    EXPECT_GE(mpfr_cmp(bound.lower(), exact), 0) << c.sigma2 << " m=" << c.m << " " << bound.debug_string();
    EXPECT_TRUE(upper_at_most(bound, *scalar_maps(c.sigma2, c.m, c.d).rho() * mpq_class(c.alpha)));
  }
  // one client: tau = 0 and the bound is alpha D^2 / (2 sigma2), the discrete Gaussian's own RDP
  EXPECT_TRUE(scalar_maps("3", 1, 2).rdp(mpq_class(5), kP).contains(mpq_class(5 * 4, 2 * 3)));
  EXPECT_TRUE(scalar_maps("3", 1, 2).tau(kP).contains(0L));
}

TEST(DdgPrivacy, ConvertedKls21BoundLiesAboveTheExactProfile) {
  for (const char* eps : {"1/10", "1/2", "2"}) {
    // sensitivities near the sum's standard deviation, so that delta is not astronomically small
    for (const auto& [sigma2, m, d] : {std::tuple{"1/2", 2L, 1L}, std::tuple{"4", 25L, 8L}, std::tuple{"5", 40L, 12L}}) {
      const auto maps = scalar_maps(sigma2, m, d);
      ASSERT_TRUE(maps.exact_profile()) << sigma2 << " " << m;
      const Interval exact = maps.delta_at(mpq_class(eps), kP);
      const Interval bound = maps.rdp_delta_bound(mpq_class(eps), kP);
      EXPECT_TRUE(certainly_less(exact, bound)) << eps << " " << exact.debug_string() << " " << bound.debug_string();
    }
  }
  // beyond the exact range (dim > 1, or m sigma2 > 250) delta_at is the converted bound
  const DistributedDiscreteGaussianPrivacy wide({mpq_class(100), 1000, mpq_class(1), std::nullopt, 1});
  EXPECT_FALSE(wide.exact_profile());
  EXPECT_TRUE(wide.delta_at(mpq_class(1), kP).contains(wide.rdp_delta_bound(mpq_class(1), kP)));
  EXPECT_FALSE(DistributedDiscreteGaussianPrivacy({mpq_class(2), 3, mpq_class(1), std::nullopt, 2}).exact_profile());
}

TEST(DdgPrivacy, SubsampledBoundLiesAboveTheExactSubsampledDiscreteGaussian) {
  // one client is the discrete Gaussian: the general bound must cover its exact subsampled RDP
  const auto maps = scalar_maps("4", 1, 1);
  const accounting::RdpEvent exact =
      accounting::RdpEvent::poisson_subsampled(discrete_gaussian_event(mpq_class(4), mpz_class(1)), mpq_class(1, 100));
  for (unsigned long alpha : {2UL, 4UL, 16UL, 64UL}) {
    const Interval bound = maps.subsampled_rdp(mpq_class(1, 100), mpq_class(alpha), kP);
    const Interval truth = exact.rdp(alpha, accounting::Neighbouring::kAddRemove, kP);
    if (alpha == 2) {  // at order 2 the general bound is the exact value: 1 + q^2 (e^eps(2) - 1)
      EXPECT_FALSE(certainly_less(bound, truth)) << truth.debug_string() << " " << bound.debug_string();
      continue;
    }
    EXPECT_TRUE(certainly_less_equal(truth, bound)) << alpha << " " << truth.debug_string() << " " << bound.debug_string();
    EXPECT_TRUE(certainly_less_equal(bound, maps.rdp(mpq_class(alpha), kP))) << alpha;
  }
  EXPECT_FALSE(maps.supports_subsampled_order(mpq_class(257)));
  EXPECT_FALSE(maps.supports_subsampled_order(mpq_class(5, 2)));
}

// Chi-square of n draws of the registry sampler at `params` against the exact masses of m shares.
verification::TestResult chi_square(const std::vector<std::pair<std::string, std::string>>& params,
                                    const char* sigma2, long m, unsigned long long n, std::uint32_t index) {
  const Law& law = law_named("distributed-discrete-gaussian");
  const auto sampler = law.make_sampler(law.parse(params, Use::kSample), std::nullopt);
  const DistributedDiscreteGaussianPmf pmf(mpq_class(sigma2), m, verification::kPrecision);
  const long end = pmf.half_width();
  std::vector<unsigned long long> counts(static_cast<std::size_t>(2 * end + 3), 0);
  SeededBits bits(test_support::fixed_seed(411, index));
  mpz_class x;
  for (unsigned long long i = 0; i < n; ++i) {
    sampler->sample(bits, x);
    const long k = x < -end ? -end - 1 : (x > end ? end + 1 : x.get_si());
    ++counts[static_cast<std::size_t>(k + end + 1)];
  }
  std::vector<verification::Cell> cells;
  const Real zero(verification::kPrecision);
  for (long k = -end - 1; k <= end + 1; ++k) {
    verification::Cell c;
    if (k > -end - 1) c.first = mpz_class(k);
    if (k < end + 1) c.last = mpz_class(k);
    c.mass = (k < -end || k > end) ? Interval::from_ends(zero, pmf.residual(), verification::kPrecision) : pmf.mass(k);
    c.observed = counts[static_cast<std::size_t>(k + end + 1)];
    cells.push_back(c);
  }
  const auto bins = verification::merge_cells(cells, n, verification::default_min_expected(n));
  return verification::pearson_chi_square(bins, n);
}

TEST(DdgSampler, MatchesTheExactPmfOfTheSurvivorsSum) {
  const mpq_class alpha(1, 1'000'000);
  struct Case {
    std::vector<std::pair<std::string, std::string>> params;
    const char* sigma2;
    long m;
  };
  const Case cases[] = {{{{"sigma2", "1/2"}, {"clients", "2"}}, "1/2", 2},
                        {{{"sigma2", "2"}, {"clients", "3"}}, "2", 3},
                        {{{"sigma2", "3/10"}, {"clients", "7"}}, "3/10", 7},
                        {{{"sigma2", "10"}, {"clients", "10"}, {"dropout", "3/5"}}, "10", 4}};
  std::uint32_t index = 0;
  for (const Case& c : cases) {
    const auto t = chi_square(c.params, c.sigma2, c.m, 100'000, ++index);
    EXPECT_TRUE(t.applicable) << c.sigma2;
    EXPECT_FALSE(test_support::rejects(t, alpha)) << test_support::rejection_message(c.sigma2, t, "1e-6");
  }
}

TEST(DdgSampler, ASamplerThatSumsOneShareTooManyIsCaught) {
  const auto t = chi_square({{"sigma2", "2"}, {"clients", "4"}}, "2", 3, 100'000, 20);
  EXPECT_TRUE(test_support::rejects(t, mpq_class(1, 1'000'000)));
}

TEST(DdgLaw, DropoutLeavesTheFewestSurvivorsAndTheEventStatesThem) {
  const Law& law = law_named("distributed-discrete-gaussian");
  // 10 clients, a third may drop out: ceil(10 * 2/3) = 7 survivors
  const LawParameters p = law.parse({{"sigma2", "4"}, {"clients", "10"}, {"dropout", "1/3"}}, Use::kPrivacy);
  EXPECT_NE(law.privacy_event(p).maps().describe().find("survivors=7"), std::string::npos)
      << law.privacy_event(p).maps().describe();
  EXPECT_TRUE(law.supports(Capability::kSubsample));
  EXPECT_FALSE(law.supports(Capability::kHardened));
}

void expect_refused_naming(const std::vector<std::pair<std::string, std::string>>& params, Use use,
                           const std::string& name) {
  try {
    (void)law_named("distributed-discrete-gaussian").parse(params, use);
    ADD_FAILURE() << name << " accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), name) << e.what();
  }
}

TEST(DdgLaw, BadInputIsRefusedNamingTheParameter) {
  expect_refused_naming({{"sigma2", "0"}, {"clients", "2"}}, Use::kSample, "sigma2");
  expect_refused_naming({{"sigma2", "1"}, {"clients", "0"}}, Use::kSample, "clients");
  expect_refused_naming({{"sigma2", "1"}, {"clients", "1000001"}}, Use::kPrivacy, "clients");
  expect_refused_naming({{"sigma2", "1"}, {"clients", "2"}, {"dropout", "1"}}, Use::kSample, "dropout");
  expect_refused_naming({{"sigma2", "1"}, {"clients", "2"}, {"dropout", "-1/2"}}, Use::kSample, "dropout");
  expect_refused_naming({{"sigma2", "1"}, {"clients", "2"}, {"dim", "0"}}, Use::kPrivacy, "dim");
  expect_refused_naming({{"sigma2", "1"}, {"clients", "2"}, {"l1", "0"}}, Use::kPrivacy, "l1");
  expect_refused_naming({{"sigma2", "1"}, {"clients", "2"}, {"sensitivity", "0"}}, Use::kPrivacy, "sensitivity");
  // KLS21's range with two or more survivors; one survivor is the plain discrete Gaussian
  expect_refused_naming({{"sigma2", "1/5"}, {"clients", "2"}}, Use::kPrivacy, "sigma2");
  EXPECT_NO_THROW((void)law_named("distributed-discrete-gaussian").parse({{"sigma2", "1/5"}, {"clients", "1"}},
                                                                          Use::kPrivacy));
  // a sample is one draw per survivor: refused early beyond 10^4 survivors
  EXPECT_THROW((void)law_named("distributed-discrete-gaussian").parse({{"sigma2", "1"}, {"clients", "20000"}},
                                                                       Use::kSample),
               LimitError);
  EXPECT_NO_THROW((void)law_named("distributed-discrete-gaussian")
                      .parse({{"sigma2", "1"}, {"clients", "20000"}, {"dropout", "1/2"}}, Use::kSample));
  // ... weighted by the digits of sigma2 (a draw costs more with more digits): 1,003 digits / 100
  // = 10 per survivor
  const std::string wide_sigma2 = "1" + std::string(500, '0') + "1/3" + std::string(500, '0');
  EXPECT_THROW((void)law_named("distributed-discrete-gaussian").parse({{"sigma2", wide_sigma2}, {"clients", "1001"}},
                                                                       Use::kSample),
               LimitError);
  EXPECT_NO_THROW((void)law_named("distributed-discrete-gaussian")
                      .parse({{"sigma2", wide_sigma2}, {"clients", "1000"}}, Use::kSample));
  EXPECT_THROW((void)DistributedDiscreteGaussianPmf(mpq_class(2), 501, 64), LimitError);
}

}  // namespace ddg_test
}  // namespace
}  // namespace exactdp::laws
