// A law that states little (law_privacy.h's defaults: every capability absent) is accounted by the
// routes its maps allow and refused by the others with a ParameterError naming the route or the
// event, never an internal error.
#include <gtest/gtest.h>

#include <gmpxx.h>

#include <memory>
#include <optional>
#include <string>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/event_composition.h>
#include <exactdp/accounting/event_profile.h>
#include <exactdp/accounting/law_privacy.h>
#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

// rho-zCDP noise with RDP a rho and nothing else: no profile, no atoms, no closed form.
class RhoOnly final : public LawPrivacy {
 public:
  std::string describe() const override { return "rho-only(rho=1/2)"; }
  Interval rdp(const mpq_class& alpha, mpfr_prec_t p) const override { return Interval(mpq_class(alpha / 2), p); }
  std::optional<mpq_class> rho() const override { return mpq_class(1, 2); }
};

PrivacyEvent rho_only() { return PrivacyEvent::of_law(std::make_shared<RhoOnly>()); }

std::string refused(const EventCompositionRequest& r) {
  try {
    (void)compose_events(r);
  } catch (const ParameterError& e) {
    return e.parameter();
  }
  return "(answered)";
}

TEST(LawPrivacyDefaults, TheAccountantUsesOnlyWhatTheMapsState) {
  Accountant acc;
  acc.compose(rho_only());
  const AccountantAnswer a = acc.get_epsilon(mpq_class(1, 1'000'000));
  EXPECT_EQ(a.route, "zcdp");  // the only route: no profile to invert, no pure epsilon
  EXPECT_EQ(a.considered.size(), 1U);
  EXPECT_FALSE(has_profile(rho_only()));
  EXPECT_THROW((void)event_profile(rho_only()), ParameterError);
}

TEST(LawPrivacyDefaults, RoutesWithoutTheirCapabilityRefuseNamingTheRoute) {
  const RdpEvent e = RdpEvent::plain(rho_only());
  EXPECT_FALSE(pld::covers(e, Neighbouring::kAddRemove));
  EventCompositionRequest r;
  r.events = {{e, 3}};
  r.target = mpq_class(1, 1'000'000);
  r.route = "pld";
  EXPECT_EQ(refused(r), "route");
  r.route = "auto";
  EXPECT_EQ(refused(r), "(answered)");  // by rdp (and zcdp)
  r.events = {{RdpEvent::poisson_subsampled(rho_only(), mpq_class(1, 100)), 3}};
  EXPECT_EQ(refused(r), "route");       // no subsampled bound and no atoms: no route applies
}

}  // namespace
}  // namespace exactdp::accounting
