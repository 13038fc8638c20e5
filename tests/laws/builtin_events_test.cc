// The built-in events' capabilities (laws/events.h): what each law's maps state is what the
// routes rely on (accounting/law_privacy.h), and the texts and numbers the answers print.
#include <gtest/gtest.h>

#include <gmpxx.h>

#include <string>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>
#include <exactdp/laws/registry.h>

namespace exactdp::laws {
namespace {

using accounting::LawPrivacy;
using accounting::PrivacyEvent;

TEST(BuiltinEvents, NoiseLawsStateTheirClosedFormAndBareGuaranteesDoNot) {
  const PrivacyEvent g = gaussian_event(mpq_class(2), mpq_class(3));
  ASSERT_TRUE(g.maps().gaussian_noise());
  EXPECT_EQ(g.maps().gaussian_noise()->sigma, 2);
  EXPECT_EQ(g.exact_mu(), mpq_class(3, 2));
  EXPECT_TRUE(g.maps().is_noise_law());
  const PrivacyEvent mu = gdp_event(mpq_class(3, 2));
  EXPECT_EQ(mu.exact_mu(), mpq_class(3, 2));
  EXPECT_FALSE(mu.maps().gaussian_noise());
  EXPECT_FALSE(mu.maps().is_noise_law());  // a guarantee: no pair to subsample
  EXPECT_FALSE(pure_dp_event(mpq_class(1)).maps().is_noise_law());
  EXPECT_FALSE(zcdp_event(mpq_class(1)).maps().is_noise_law());
  EXPECT_TRUE(discrete_gaussian_event(mpq_class(4), 2).maps().discrete_gaussian_noise());
  EXPECT_TRUE(discrete_laplace_event(mpq_class(4), 2).maps().discrete_laplace_noise());
  EXPECT_TRUE(laplace_event(mpq_class(4)).maps().laplace_noise());
  EXPECT_FALSE(laplace_event(mpq_class(4)).maps().discrete_laplace_noise());
}

TEST(BuiltinEvents, PrivacyNumbersAndTexts) {
  EXPECT_EQ(discrete_gaussian_event(mpq_class(4), 2).rho(), mpq_class(1, 2));  // Delta^2 / (2 sigma2)
  EXPECT_EQ(gaussian_event(mpq_class(2)).rho(), mpq_class(1, 8));              // mu^2 / 2
  EXPECT_EQ(discrete_laplace_event(mpq_class(4), 2).pure_epsilon(), mpq_class(1, 2));
  EXPECT_EQ(laplace_event(mpq_class(4)).rho(), mpq_class(1, 32));              // eps^2 / 2
  EXPECT_EQ(zcdp_event(mpq_class(1, 3)).rho(), mpq_class(1, 3));
  EXPECT_FALSE(zcdp_event(mpq_class(1, 3)).maps().has_profile());
  EXPECT_EQ(discrete_gaussian_event(mpq_class(4), 2).describe(), "discrete_gaussian(sigma2=4, sensitivity=2)");
  const accounting::RdpEvent sub =
      accounting::RdpEvent::poisson_subsampled(discrete_laplace_event(mpq_class(3), 1), mpq_class(1, 100));
  EXPECT_EQ(sub.describe(), "poisson_discrete_laplace(scale=3, q=1/100, sensitivity=1)");
  const accounting::RdpEvent sg = accounting::RdpEvent::poisson_subsampled(gaussian_event(mpq_class(2)), mpq_class(1, 10));
  ASSERT_NE(sg.subsampled_gaussian(), nullptr);
  EXPECT_EQ(sg.subsampled_mu(), mpq_class(1, 2));
  EXPECT_THROW((void)accounting::RdpEvent::poisson_subsampled(gdp_event(mpq_class(1)), mpq_class(1, 10)),
               ParameterError);
}

TEST(BuiltinEvents, OnlyRegistryLawsOwnMapsOfferTheProfileRoute) {
  for (const PrivacyEvent& e : {gaussian_event(mpq_class(2)), discrete_gaussian_event(mpq_class(4)),
                                laplace_event(mpq_class(2)), discrete_laplace_event(mpq_class(2)),
                                pure_dp_event(mpq_class(1)), zcdp_event(mpq_class(1)), gdp_event(mpq_class(1))}) {
    EXPECT_FALSE(e.maps().offers_profile_route()) << e.describe();
    EXPECT_TRUE(e.maps().symmetric_pair()) << e.describe();
  }
  const Law& staircase = law_named("staircase");
  const PrivacyEvent s = staircase.privacy_event(staircase.parse({{"gamma", "1"}, {"sensitivity", "3"}}, Use::kPrivacy));
  EXPECT_TRUE(s.maps().offers_profile_route());
  EXPECT_FALSE(s.maps().symmetric_pair());
}

TEST(BuiltinEvents, FactoriesNameTheBadParameter) {
  const auto parameter = [](auto make) {
    try {
      (void)make();
    } catch (const ParameterError& e) {
      return e.parameter();
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(parameter([] { return gaussian_event(mpq_class(0)); }), "sigma");
  EXPECT_EQ(parameter([] { return gaussian_event(mpq_class(1), mpq_class(-1)); }), "sensitivity");
  EXPECT_EQ(parameter([] { return discrete_gaussian_event(mpq_class(1), 0); }), "sensitivity");
  EXPECT_EQ(parameter([] { return laplace_event(mpq_class(-1)); }), "scale");
  EXPECT_EQ(parameter([] { return pure_dp_event(mpq_class(-1)); }), "epsilon");
  EXPECT_EQ(parameter([] { return zcdp_event(mpq_class(-1)); }), "rho");
  EXPECT_EQ(parameter([] { return gdp_event(mpq_class(0)); }), "mu");
}

}  // namespace
}  // namespace exactdp::laws
