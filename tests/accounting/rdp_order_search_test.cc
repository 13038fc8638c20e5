// The rdp route's search over real orders (rdp_order_search.h).
//
// References (mpmath, 30-40 digits): the Poisson-subsampled Gaussian's A_alpha =
// E_{N(0,s^2)}[((1-q) + q e^((2z-1)/(2 s^2)))^alpha] by adaptive quadrature (no series, none of
// exactdp's code), converted by Balle et al. 2020 Thm. 21, minimised over REAL alpha by
// golden-section search (60-80 steps), and at Opacus' default orders [1 + x/10 for x in 1..99] +
// 12..63 (Opacus' RDP accountant uses this conversion; its value is its minimum over those orders):
//   q     sigma steps delta  real optimum (alpha*, eps*)                 Opacus (order)
//   0.1   2     500   1e-5   4.41153866599, 6.034283755753965441481552   6.03432244188293934804 (4.4)
//   0.01  1     1000  1e-5   7.78083268882, 2.101322131234626321178773   2.10136527164839515851 (7.8)
//   0.01  1     10000 1e-5   4.13506509924, 6.712271762533238390861864   6.71273829754542211425 (4.1)
// (the last two are checked in rdp_fractional_test.cc).
// The real optimum is a lower bound on the theorem's value at every order, so the certified
// upper end must be >= it (containment); being <= Opacus is the search's quality. The former
// grid (integers and one 1/16 step) gave 6.034477646367196 at 71/16 for the first event.
#include <gtest/gtest.h>

#include <vector>

#include "tests/accounting/containment.h"
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/rdp_order_search.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {
namespace {

using test_support::q_of;

RdpComposition dp_sgd(const char* sigma, const char* q, unsigned long steps) {
  return {{RdpEvent::poisson_gaussian(q_of(sigma), q_of(q)), steps}};
}

// Opacus' default orders as exact fractions.
std::vector<mpq_class> opacus_orders() {
  std::vector<mpq_class> orders;
  for (long x = 1; x < 100; ++x) orders.emplace_back(mpq_class(10 + x, 10));
  for (long a = 12; a < 64; ++a) orders.emplace_back(a);
  for (mpq_class& a : orders) a.canonicalize();
  return orders;
}

TEST(RdpOrderSearchTest, RealOrderBeatsOpacusAndContainsTheOptimum) {
  const RdpAnswer a = rdp_epsilon(dp_sgd("2", "0.1", 500), q_of("1e-5"));
  const Interval& eps = a.value.value;
  EXPECT_TRUE(a.value.tolerance_met);
  EXPECT_TRUE(upper_at_most(eps, q_of("6.034322"))) << eps.debug_string();          // Opacus: 6.0343224...
  EXPECT_FALSE(upper_at_most(eps, q_of("6.034283755753965"))) << eps.debug_string();  // >= the real optimum
  // The search reaches the real optimum, not just a grid point near it (71/16 gave 6.0344776).
  EXPECT_TRUE(upper_at_most(eps, q_of("6.03428376"))) << eps.debug_string();
  EXPECT_NE(a.order.get_den(), 1);
  EXPECT_LT(abs(a.order - q_of("4.4115387")), q_of("0.001")) << a.order.get_str();
  EXPECT_TRUE(a.exact_rdp);
}

// At every one of Opacus' orders (and so at dp_accounting's, which add 11 and 128..1024, all
// default integer orders) the answer is at most that order's certified value, up to the
// tolerance: the peers' candidates are the search's starting points. Events with the optimum
// below 2 (small epsilon), near 4 and above 20.
TEST(RdpOrderSearchTest, NeverAbovePeerOrders) {
  struct Row {
    const char* sigma;
    const char* q;
    unsigned long steps;
    const char* delta;
  };
  for (const Row& row : {Row{"8", "0.001", 10, "1e-3"}, Row{"2", "0.1", 500, "1e-5"}, Row{"1", "0.01", 100, "1e-5"}}) {
    const RdpComposition events = dp_sgd(row.sigma, row.q, row.steps);
    const mpq_class delta = q_of(row.delta);
    const RdpAnswer a = rdp_epsilon(events, delta);
    const mpq_class slack = to_mpq(a.value.value.upper()) * q_of("1e-25");
    for (const mpq_class& alpha : opacus_orders()) {  // at 64 bits: an upper end above the value
      const Interval at = rdp_to_epsilon(composed_rdp(events, alpha, Neighbouring::kAddRemove, 64), alpha, delta);
      EXPECT_TRUE(upper_at_most(a.value.value, to_mpq(at.upper()) + slack))
          << row.sigma << " " << row.q << " " << row.steps << " order " << alpha.get_str() << ": "
          << a.value.value.debug_string() << " > " << at.debug_string();
    }
  }
}

// The delta route searches the same way: below every peer order's certified delta.
TEST(RdpOrderSearchTest, DeltaNeverAbovePeerOrders) {
  const RdpComposition events = dp_sgd("2", "0.1", 500);
  const mpq_class epsilon(6);
  const RdpAnswer a = rdp_delta(events, epsilon);
  for (const mpq_class& alpha : opacus_orders()) {
    const Interval at = rdp_to_delta(composed_rdp(events, alpha, Neighbouring::kAddRemove, 64), alpha, epsilon);
    EXPECT_TRUE(upper_at_most(a.value.value, to_mpq(at.upper()) * (1 + q_of("1e-25")))) << alpha.get_str();
  }
  EXPECT_NE(a.order.get_den(), 1);
}

// Integer-only events keep integer orders (mu = 20 > 16 takes no fractional order); the
// candidates are sorted, from Opacus' 1.1 to the largest default order.
// One step at sigma = 5, q = 0.01, delta = 10^-5: the converted value falls until order ~229.6,
// then rises steeply (the RDP turning towards the plain Gaussian's: epsilon ~0.2 at 240). Above
// order 128 the refinement is over the integers; the parabola through 208, 224, 240 lands on 224
// (epsilon 0.02339), the walk goes on to 229 (0.02281; a fractional refinement found 229.61,
// 0.02276, in 13 s of series).
TEST(RdpOrderSearchTest, AboveOrder128TheIntegersAreWalkedToTheRise) {
  const mpq_class delta = q_of("1e-5");
  const RdpConversion to_epsilon = [&](const Interval& tau, const mpq_class& alpha) {
    return rdp_to_epsilon(tau, alpha, delta);
  };
  const std::vector<mpq_class> orders = select_rdp_orders(dp_sgd("5", "0.01", 1), Neighbouring::kAddRemove, to_epsilon);
  ASSERT_FALSE(orders.empty());
  EXPECT_EQ(orders.front(), mpq_class(229));
}

TEST(RdpOrderSearchTest, IntegerOnlyEvents) {
  const RdpComposition narrow = dp_sgd("0.05", "0.001", 1);
  const RdpAnswer a = rdp_epsilon(narrow, q_of("1e-5"));
  EXPECT_EQ(a.order.get_den(), 1);
  const std::vector<mpq_class>& candidates = rdp_candidate_orders();
  EXPECT_TRUE(std::is_sorted(candidates.begin(), candidates.end()));
  EXPECT_EQ(candidates.front(), q_of("11/10"));
  EXPECT_EQ(candidates.back(), mpq_class(4096));
}

}  // namespace
}  // namespace exactdp::accounting
