// Fractional-order RDP of the Poisson-subsampled Gaussian (rdp_fractional.h) and the
// accountant's search over real orders (rdp_accountant.h, rdp_order_search.h).
//
// References: mpmath (45 digits) adaptive quadrature of G(g) = E_{N(0,s^2)}[((1-q) + q
// e^((z-1/2)/s^2))^g] over breakpoints at the region boundaries — an independent route (no
// series, no tail bound). Its own error is far below the 1e-28 relative margin used here, so a
// check is "the certified interval, widened by 1e-28 relative, contains the reference".
// Power: G(0) = G(1) = 1 and the closed form of G(2) are identities every region contributes
// to (a region dropped or mis-weighted breaks them), and the check rejects a 10^-12 change; the
// accountant's answer is compared with the mpmath value at the order it names.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "tests/accounting/containment.h"
#include <exactdp/core/interval.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/rdp_fractional.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace rdp_fractional_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kP = 128;

using test_support::contains_within;
using test_support::q_of;


bool overlaps(const Interval& a, const Interval& b) {
  return mpfr_lessequal_p(a.lower(), b.upper()) && mpfr_lessequal_p(b.lower(), a.upper());
}

struct Case {
  const char* q;
  const char* sigma;
  const char* alpha;
  const char* rdp;  // max(D_alpha(M||Q0), D_alpha(Q0||M)), mpmath
};

const Case kCases[] = {
    {"0.01", "0.8", "1.5", "0.00027331070004038855500882699122622"},
    {"0.01", "0.8", "7.25", "0.3486595774510657783622950450772"},
    {"0.01", "2", "2.5", "0.000035557235961202706663345232756028"},
    {"0.1", "1", "1.25", "0.0094084407259936329264793733122249"},
    {"0.5", "0.5", "3.5", "6.0296577173908025744951582762844"},
    {"0.01", "1.1", "12.75", "0.28153896470569699202858451003814"},
    {"0.001", "0.3", "2.125", "0.19655963076643796192041624479471"},
};

TEST(RdpFractionalTest, MatchesQuadrature) {
  for (const Case& c : kCases) {
    const Interval v = sampled_gaussian_rdp_fractional(1 / q_of(c.sigma), q_of(c.q), q_of(c.alpha), kP);
    EXPECT_TRUE(contains_within(v, q_of(c.rdp), q_of("1e-28"))) << c.q << " " << c.sigma << " " << c.alpha
                                                                 << ": " << v.debug_string();
    // Narrow: the tail bound is below 2^-(precision + 32).
    EXPECT_TRUE(upper_at_most(v - Interval::point(v.lower(), kP), q_of(c.rdp) * q_of("1e-30"))) << v.debug_string();
  }
}

// At integer orders the series must agree with MTZ19's finite binomial sum (rdp.h), which shares
// no code with it.
TEST(RdpFractionalTest, IntegerOrdersAgreeWithTheBinomialSum) {
  for (const char* q : {"0.01", "0.3", "0.9"}) {
    for (const char* mu : {"1/2", "5/4", "3"}) {
      for (const unsigned long alpha : {2UL, 3UL, 7UL, 20UL}) {
        const Interval series = sampled_gaussian_rdp_fractional(q_of(mu), q_of(q), mpq_class(alpha), kP);
        const Interval sum = poisson_gaussian_rdp(q_of(mu), q_of(q), alpha, kP);
        EXPECT_TRUE(overlaps(series, sum)) << q << " " << mu << " " << alpha << ": " << series.debug_string()
                                           << " vs " << sum.debug_string();
      }
    }
  }
}

// Moments with known values: G(0) = G(1) = 1 (E_Q0[M/Q0] = 1), G(2) = 1 + q^2 (e^(mu^2) - 1)
// — every region contributes to each, so a region dropped or mis-weighted shows.
// The series' parts are cached per thread for several events at once: alternating between two
// events (as a composition's order search does) gives each exactly the value a fresh thread
// computes, at every order tried, whichever was cached last (a cache that ignored the event, or
// kept parts too short for the order, would change it).
TEST(RdpFractionalTest, AlternatingEventsGiveTheFreshValues) {
  const mpq_class q(1, 100);
  const mpq_class mus[2] = {mpq_class(7), mpq_class(7, 5)};  // sigma 1/7 and 5/7
  const mpq_class orders[3] = {mpq_class(21, 20), mpq_class(38, 10), mpq_class(31, 2)};
  std::vector<Interval> fresh, alternating;  // index 3 e + o
  for (int e = 0; e < 2; ++e) {
    for (int o = 0; o < 3; ++o) {
      std::thread([&] {
        fresh.push_back(sampled_gaussian_rdp_fractional(mus[e], q, orders[o], kP));
        mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);  // this thread's MPFR constants (LeakSanitizer)
      }).join();
    }
  }
  for (int e = 0; e < 2; ++e) {
    for (int o = 0; o < 3; ++o) alternating.push_back(Interval(kP));
  }
  for (int o = 0; o < 3; ++o) {
    for (int e = 0; e < 2; ++e) alternating[3 * e + o] = sampled_gaussian_rdp_fractional(mus[e], q, orders[o], kP);
  }
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    EXPECT_TRUE(mpfr_equal_p(alternating[i].lower(), fresh[i].lower()) && mpfr_equal_p(alternating[i].upper(), fresh[i].upper()))
        << "event " << i / 3 << " order " << i % 3;
  }
}

TEST(RdpFractionalTest, KnownMoments) {
  for (const char* q : {"0.01", "0.5"}) {
    for (const char* mu : {"1/2", "2"}) {
      const mpq_class qq = q_of(q), m = q_of(mu);
      EXPECT_TRUE(sampled_gaussian_moment(m, qq, mpq_class(0), kP).contains(1L));
      EXPECT_TRUE(sampled_gaussian_moment(m, qq, mpq_class(1), kP).contains(1L));
      const Interval g2 = sampled_gaussian_moment(m, qq, mpq_class(2), kP);
      const Interval want = Interval(1L, kP) + expm1(Interval(mpq_class(m * m), kP)) * mpq_class(qq * qq);
      EXPECT_TRUE(overlaps(g2, want)) << g2.debug_string() << " vs " << want.debug_string();
      // Power: the closed form at a 10^-12 different q is rejected.
      const Interval off = Interval(1L, kP) + expm1(Interval(mpq_class(m * m), kP)) *
                                                  mpq_class(qq * qq * (1 + q_of("1e-12")));
      EXPECT_FALSE(overlaps(g2, off));
    }
  }
}

TEST(RdpFractionalTest, EventsAndLimits) {
  const RdpEvent sg = RdpEvent::poisson_gaussian(q_of("0.8"), q_of("0.01"));
  EXPECT_TRUE(sg.supports_order(q_of("3/2")));
  EXPECT_TRUE(sg.rdp_is_exact_at(q_of("3/2")));
  EXPECT_TRUE(contains_within(sg.rdp(q_of("3/2"), Neighbouring::kAddRemove, kP), q_of(kCases[0].rdp), q_of("1e-28")));
  EXPECT_THROW((void)sg.rdp(q_of("3/2"), Neighbouring::kReplaceOne, kP), ParameterError);
  EXPECT_THROW((void)sg.rdp(q_of("1"), Neighbouring::kAddRemove, kP), ParameterError);
  EXPECT_THROW((void)sg.rdp(q_of("513/2"), Neighbouring::kAddRemove, kP), ParameterError);
  // mu = 20 > 16: integer orders only.
  const RdpEvent narrow = RdpEvent::poisson_gaussian(q_of("0.05"), q_of("0.01"));
  EXPECT_FALSE(narrow.supports_order(q_of("3/2")));
  EXPECT_TRUE(narrow.supports_order(mpq_class(3)));
  try {
    (void)narrow.rdp(q_of("3/2"), Neighbouring::kAddRemove, kP);
    ADD_FAILURE() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "order");
  }
  // Subsampled discrete noise: fractional orders within the rdp route's limits (sigma2 <= 2500).
  const RdpEvent dg = RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(4)), q_of("0.01"));
  EXPECT_TRUE(dg.supports_order(q_of("5/2")));
  const RdpEvent wide = RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(2501)), q_of("0.01"));
  EXPECT_FALSE(wide.supports_order(q_of("5/2")));
  // Plain events at fractional orders: the closed forms at real alpha.
  const RdpEvent g = RdpEvent::plain(laws::gaussian_event(mpq_class(2)));
  EXPECT_TRUE(g.rdp(q_of("5/2"), Neighbouring::kAddRemove, kP).contains(q_of("5/16")));  // 2.5 / (2 * 4)
  const RdpEvent d = RdpEvent::plain(laws::discrete_gaussian_event(mpq_class(4)));
  EXPECT_TRUE(d.rdp(q_of("5/2"), Neighbouring::kAddRemove, kP).contains(q_of("5/16")));
  EXPECT_FALSE(d.rdp_is_exact_at(q_of("5/2")));
  EXPECT_TRUE(d.rdp_is_exact_at(mpq_class(3)));
  // Laplace at alpha = 3/2, eps = 1: 1/(a-1) log(a/(2a-1) e^((a-1)) + (a-1)/(2a-1) e^(-a)) =
  // 2 log(3/4 e^(1/2) + 1/4 e^(-3/2)); mpmath, also by quadrature of p^a q^(1-a):
  // 0.512883511294508595601149188159
  const RdpEvent lap = RdpEvent::plain(laws::laplace_event(mpq_class(1)));
  EXPECT_TRUE(contains_within(lap.rdp(q_of("3/2"), Neighbouring::kAddRemove, kP), q_of("0.512883511294508595601149188159"),
                              q_of("1e-19")));
}

// The accountant: with the default order set it searches real orders (rdp_order_search.h). Its
// answer is at least the real-order optimum (mpmath: quadrature of A_alpha, golden-section over
// real alpha, 30 digits: a lower bound on the theorem's value at every order, so containment),
// within 1e-8 of it, and below the former grid's answer (the integers and one 1/16 step: 7.75 and
// 4.125, the theorem's value there by mpmath); the integer orders alone give a larger epsilon.
TEST(RdpFractionalTest, AccountantSearchesRealOrders) {
  struct Row {
    unsigned long steps;
    const char* optimum;
    const char* former_grid;
  };
  for (const Row& row : {Row{1000, "2.10132213123462632117877326968", "2.10143062988975854265886096274"},
                         Row{10000, "6.71227176253323839086186359877", "6.71230992399897343959409571006"}}) {
    const RdpComposition events = {{RdpEvent::poisson_gaussian(mpq_class(1), q_of("0.01")), row.steps}};
    const RdpAnswer a = rdp_epsilon(events, q_of("1e-5"));
    const Interval& eps = a.value.value;
    EXPECT_FALSE(upper_at_most(eps, q_of(row.optimum) * (1 - q_of("1e-25")))) << eps.debug_string();
    EXPECT_TRUE(upper_at_most(eps, q_of(row.optimum) + q_of("1e-8"))) << eps.debug_string();
    EXPECT_TRUE(upper_at_most(eps, q_of(row.former_grid) - q_of("1e-5"))) << eps.debug_string();
    EXPECT_NE(a.order.get_den(), 1);
    EXPECT_TRUE(a.exact_rdp);
    const RdpAnswer integers = rdp_epsilon(events, q_of("1e-5"), Neighbouring::kAddRemove, {}, default_rdp_orders());
    EXPECT_EQ(integers.order.get_den(), 1);
    EXPECT_LT(mpfr_cmp(eps.upper(), integers.value.value.lower()), 0);
  }
  // An event without fractional orders keeps the integer set.
  const RdpComposition mixed = {{RdpEvent::poisson_gaussian(mpq_class(1), q_of("0.01")), 100},
                                {RdpEvent::poisson_gaussian(q_of("0.05"), q_of("0.001")), 1}};
  EXPECT_EQ(rdp_epsilon(mixed, q_of("1e-5")).order.get_den(), 1);
}

}  // namespace rdp_fractional_test
}  // namespace
}  // namespace exactdp::accounting
