// The distributed discrete Gaussian's audit law (laws/distributed_discrete_gaussian/ddg_reference.h):
// its closed-form moments and parity agree with sums over its convolved masses; the full
// statistical audit (verification::run_audit, alpha = 1e-6, fixed seeds) passes the registry's
// sampler at several sigma2, survivors and means, and rejects samplers that sum one share too few
// or draw each share at sigma2 10 % too large; outside the convolution's range the audit law is
// refused naming clients.
#include <gtest/gtest.h>

#include <exactdp/core/errors.h>
#include <exactdp/laws/distributed_discrete_gaussian/ddg_reference.h>
#include <exactdp/laws/registry.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp::laws {
namespace {

using exactdp::Interval;

bool overlap(const Interval& a, const Interval& b) { return !certainly_less(a, b) && !certainly_less(b, a); }

TEST(DdgAudit, ClosedFormMomentsAndParityMatchTheConvolvedMasses) {
  for (const auto& [sigma2, m] : {std::pair{"1/3", 3L}, std::pair{"2", 5L}, std::pair{"10", 20L}}) {
    const DistributedDiscreteGaussianReferenceLaw law{mpq_class(sigma2), m, mpz_class(0)};
    Interval second(256), fourth(256), even(256), total(256);
    for (long k = -400; k <= 400; ++k) {  // beyond 400 the masses are below 2^-400 here
      const Interval p = law.pmf(mpz_class(k));
      total = total + p;
      second = second + p * mpq_class(k * k);
      fourth = fourth + p * mpq_class(k * k * k * k);
      if (k % 2 == 0) even = even + p;
    }
    EXPECT_TRUE(overlap(total, Interval(mpq_class(1), 256))) << sigma2 << " " << total.debug_string();
    EXPECT_TRUE(overlap(second, law.central_moment(2))) << sigma2 << " " << second.debug_string();
    EXPECT_TRUE(overlap(fourth, law.central_moment(4))) << sigma2 << " " << fourth.debug_string();
    EXPECT_TRUE(overlap(even, law.even_mass())) << sigma2 << " " << even.debug_string();
    EXPECT_LT(mpfr_get_d(width_upper(law.central_moment(2)), MPFR_RNDU), 1e-30);
  }
}

struct Setting {
  const char* sigma2;
  const char* clients;
  const char* mean;
};

verification::AuditReport audit_registry_sampler(const Setting& s, unsigned long long n, std::uint32_t index) {
  const Law& law = law_named("distributed-discrete-gaussian");
  const LawParameters p =
      law.parse({{"sigma2", s.sigma2}, {"clients", s.clients}, {"mean", s.mean}}, Use::kSample);
  const auto reference = law.reference_law(p);
  const auto sampler = law.make_sampler(p, std::nullopt);
  return test_support::audit_sampler(
      *reference,
      [&](BitSource& b) {
        mpz_class x;
        sampler->sample(b, x);
        return x;
      },
      n, test_support::fixed_seed(431, index));
}

TEST(DdgAudit, TheRegistrySamplerPassesAtSeveralSettings) {
  std::uint32_t index = 0;
  for (const Setting& s : {Setting{"1/3", "3", "0"}, Setting{"2", "5", "0"}, Setting{"10", "20", "7"},
                           Setting{"50", "4", "-3"}}) {
    const verification::AuditReport r = audit_registry_sampler(s, 100'000, ++index);
    EXPECT_TRUE(r.passed) << test_support::summary(r);
  }
}

// n draws of the sum of `shares` discrete Gaussians at draw_sigma2, audited against the law of
// `survivors` shares at sigma2.
verification::AuditReport audit_broken(const char* sigma2, long survivors, const mpq_class& draw_sigma2, long shares,
                                       std::uint32_t index) {
  const DistributedDiscreteGaussianReferenceLaw law{mpq_class(sigma2), survivors, mpz_class(0)};
  const DiscreteGaussianParams params = DiscreteGaussianParams::make(draw_sigma2);
  return test_support::audit_sampler(
      law,
      [&](BitSource& b) {
        mpz_class sum = 0, x;
        for (long i = 0; i < shares; ++i) {
          sample_discrete_gaussian(b, params, x);
          sum += x;
        }
        return sum;
      },
      100'000, test_support::fixed_seed(432, index));
}

TEST(DdgAudit, BrokenSamplersAreRejected) {
  EXPECT_TRUE(audit_broken("2", 5, mpq_class(2), 5, 1).passed);  // the check itself passes a correct sum
  EXPECT_FALSE(audit_broken("2", 5, mpq_class(2), 4, 2).passed) << "one share too few";
  EXPECT_FALSE(audit_broken("10", 20, mpq_class(11), 20, 3).passed) << "sigma2 10 % too large";
}

TEST(DdgAudit, OutsideTheConvolutionsRangeTheAuditLawIsRefusedNamingClients) {
  const Law& law = law_named("distributed-discrete-gaussian");
  const LawParameters p = law.parse({{"sigma2", "100"}, {"clients", "5"}}, Use::kSample);
  try {
    (void)law.reference_law(p);
    ADD_FAILURE() << "m sigma2 = 500 accepted";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "clients") << e.what();
  }
}

}  // namespace
}  // namespace exactdp::laws
