// RDP of the Poisson-subsampled Laplace (rdp_subsampled_laplace.h).
//
// Reference: mpmath (45 digits) quadrature of E_Q0[((1-q) + q Q1/Q0)^g] for Q0 = Lap(0, b),
// Q1 = Lap(1, b), b = 1/eps, with breakpoints at the kinks: no series, no shared formula. Its
// error is far below the 1e-28 relative margin of the containment check. Power: G(0) = 1 and
// G(1) = 1 are identities every part of the formula contributes to; a 10^-12 change is rejected.
#include <gtest/gtest.h>

#include "tests/accounting/containment.h"
#include <exactdp/core/interval.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/rdp_subsampled_laplace.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {

constexpr mpfr_prec_t kP = 128;

using test_support::contains_within;
using test_support::q_of;


TEST(RdpSubsampledLaplace, MatchesQuadrature) {
  struct Case {
    const char *eps, *q, *alpha, *rdp;
  };
  for (const Case& c : {Case{"0.5", "0.01", "1.5", "0.000016626150201889916546176458650344"},
                        Case{"1", "0.1", "7.25", "0.034116593713735819588698326825819"},
                        Case{"2", "0.5", "4", "1.0697458961853997883733254319379"},
                        Case{"0.5", "0.01", "27.6875", "0.00031273122188471516420050353873529"},
                        Case{"5", "0.3", "2.5", "2.7162614404053289962528671636476"},
                        Case{"2", "0.01", "1.6875", "0.00033001783989691014264638944577774"}}) {
    const Interval v = subsampled_laplace_rdp(q_of(c.eps), q_of(c.q), q_of(c.alpha), kP);
    EXPECT_TRUE(contains_within(v, q_of(c.rdp), q_of("1e-28"))) << c.eps << " " << c.q << " " << c.alpha << ": "
                                                                << v.debug_string();
    EXPECT_TRUE(upper_at_most(v - Interval::point(v.lower(), kP), q_of(c.rdp) * q_of("1e-30"))) << v.debug_string();
  }
}

TEST(RdpSubsampledLaplace, KnownMomentsAndPower) {
  for (const char* eps : {"1/10", "1", "20"}) {
    for (const char* q : {"0.01", "0.5", "0.99"}) {
      for (const char* g : {"0", "1"}) {
        const Interval m = subsampled_laplace_moment(q_of(eps), q_of(q), q_of(g), kP);
        EXPECT_TRUE(m.contains(1L)) << eps << " " << q << " " << g << ": " << m.debug_string();
        EXPECT_FALSE(m.contains(mpq_class(1) + q_of("1e-12")));
      }
    }
  }
}

// Orders: integer and fractional up to 256; the plain Laplace bounds it; the event and the
// accountant use it (auto still prefers pld where it is tighter, compose_events tests).
TEST(RdpSubsampledLaplace, EventAndAccountant) {
  const RdpEvent e = RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(2), 1), q_of("0.01"));
  EXPECT_TRUE(e.has_rdp());
  EXPECT_TRUE(e.rdp_is_exact());
  EXPECT_TRUE(e.supports_order(q_of("3/2")));
  EXPECT_TRUE(e.supports_order(mpq_class(256)));
  EXPECT_FALSE(e.supports_order(mpq_class(257)));
  EXPECT_THROW((void)e.rdp(512UL, Neighbouring::kAddRemove, kP), ParameterError);
  EXPECT_THROW((void)e.rdp(2UL, Neighbouring::kReplaceOne, kP), ParameterError);
  for (const unsigned long alpha : {2UL, 10UL, 100UL}) {
    const Interval sub = e.rdp(alpha, Neighbouring::kAddRemove, kP);
    const Interval plain = laplace_rdp(q_of("1/2"), alpha, kP);
    EXPECT_TRUE(sub.is_positive());
    EXPECT_TRUE(upper_at_most(sub, to_mpq(plain.lower())));  // q = 1/100: far below the plain value
  }
  // 1000 steps at q = 0.01, scale 2 (eps 1/2): the composed RDP at order 27.6875 (mpmath), and the
  // accountant's real-order search (rdp_order_search.h) lands near it, no worse than there.
  const RdpComposition events = {{e, 1000}};
  const mpq_class order = q_of("27.6875");
  const Interval at = composed_rdp(events, order, Neighbouring::kAddRemove, kP);
  EXPECT_TRUE(contains_within(at, q_of("0.31273122188471516420050353873529"), q_of("1e-25"))) << at.debug_string();
  const RdpAnswer a = rdp_epsilon(events, q_of("1e-5"));
  EXPECT_LT(abs(a.order - order), q_of("1/4")) << a.order.get_str();
  EXPECT_TRUE(upper_at_most(a.value.value, to_mpq(rdp_to_epsilon(at, order, q_of("1e-5")).upper())));
  EXPECT_TRUE(a.exact_rdp);
}

}  // namespace
}  // namespace exactdp::accounting
