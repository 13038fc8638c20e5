// The wide-mass pld route for long compositions (pld_wide_route.h): precision from the query,
// the cost estimate, and the two ends.
#include <exactdp/accounting/pld/pld_wide_route.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/accounting/pld/pld_cost.h>
#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/accounting/pld/pld_replace_pair.h>
#include <exactdp/accounting/pld/pld_wide_compose.h>
#include <exactdp/accounting/pld/wide_pld.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting::pld {
namespace {

constexpr unsigned long kCountCap = 1UL << 40;  // counts are at most 10^12 in total
// Delta queries: sized as an epsilon query at this delta (no delta is known before the answer),
// for compositions of at least kWideDeltaMinCount events.
constexpr unsigned kDeltaQueryBits = 64;
constexpr unsigned long kWideDeltaMinCount = 1UL << 10;
// delta down to 2^-600: the scales stay within discretize_wide's 1024 bits (pld_events.h).
constexpr unsigned kMaxInverseBits = 600;

unsigned long total_count(const RdpComposition& events) {
  unsigned long total = 0;
  for (const auto& e : events) total = std::min(kCountCap, total + std::min(e.second, kCountCap));
  return total;
}

unsigned bits_of(unsigned long v) { return v == 0 ? 0 : 64 - static_cast<unsigned>(__builtin_clzl(v)); }

unsigned inverse_bits(const mpq_class& delta) {
  const mpz_class inverse = delta.get_den() / delta.get_num();  // floor(1/delta) >= 1
  return static_cast<unsigned>(mpz_sizeinbase(inverse.get_mpz_t(), 2));
}

struct Budget {
  unsigned tail_bits = 0, chain_bits = 0;  // the test pair's scale is set after the chains
  double points = 0;                       // the estimated largest composed support
};

// All the products of a composition (squarings and the products across the events: about 3
// times the final support in points), per point and bit of a slot of the final support
// (measured on DP-SGD at 10^5 and 10^6 steps: 1 to 1.5 * 10^-8 on the support estimated here,
// which is 1.2 to 1.9 times the actual).
constexpr double kSecondsPerPointBit = 2e-8;
constexpr double kSecondsPerQueryPoint = 2e-6;  // epsilon_upper's sweep, epsilon_lower's sort and sums
// The discretisation at wide masses against pld_cost.h's estimate of the 60-bit one (both orders).
constexpr double kWideDiscretizeFactor = 1.5;
// The test pair's scale in the estimate (before the chains give epsilon): 48 bits above the
// chain's, an epsilon of about 33.
constexpr unsigned kEstimatedTiltBits = 48;

WideRouteCost estimate(const RdpComposition& events, Neighbouring relation, const PldOptions& o, Budget& b) {
  PldOptions add_remove = o;
  add_remove.discretization.tail_bits = std::min(b.tail_bits, 1000U);
  add_remove.discretization.test_coarsening = 1;
  const PldCostEstimate e = estimate_pld_cost(events, Neighbouring::kAddRemove, add_remove);
  // The +Delta/-Delta pair of replace-one: one step's range about twice the add/remove pair's,
  // the composed spread about sqrt(2) times (measured 1.35 at 10^5 steps).
  const bool pair = uses_replace_pair(events, relation);
  const double widen = pair ? 2 : 1, spread = pair ? 1.5 : 1;
  // pld_cost.h's support keeps 8 standard deviations per side (2^-44); 2^-t keeps sqrt(t / 44)
  // times more.
  const double deviations = std::sqrt(static_cast<double>(b.tail_bits) / 44.0);
  b.points = widen * e.grid_points + deviations * spread * std::max(0.0, e.composed_points - e.grid_points) + 1;
  const auto orders = static_cast<double>(wide_orders(events, relation).size());
  const double chain_slot = 2.0 * b.chain_bits + 20, test_slot = 2.0 * (b.chain_bits + kEstimatedTiltBits) + 20;
  WideRouteCost c;
  c.seconds = kWideDiscretizeFactor * widen * e.discretize_seconds * (orders + 1) / 2 +
              kSecondsPerPointBit * b.points * (orders * chain_slot + 2 * test_slot) +
              kSecondsPerQueryPoint * b.points * (orders + 1);
  c.bytes = 10 * b.points * test_slot / 8 + 64.0 * 1024 * 1024;
  return c;
}

// The truncation from delta and the count, the estimated support, the chain's scale from that.
Budget planned(const RdpComposition& events, const mpq_class& delta, Neighbouring relation, const PldOptions& o,
               WideRouteCost& cost) {
  if (delta <= 0 || delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(delta)), "0 < delta < 1");
  }
  Budget b;
  // Never coarser than the 2^-60 route's own truncation (2^-58 a product under replace-one,
  // 2^-60 in the discretisation), so that the answer is only ever narrower than that route's.
  b.tail_bits = std::max(60U, inverse_bits(delta) + bits_of(total_count(events)) + 16);
  b.chain_bits = b.tail_bits + 2;  // the estimate's support first, then its bits
  (void)estimate(events, relation, o, b);
  b.chain_bits = b.tail_bits + bits_of(static_cast<unsigned long>(b.points)) + 2;
  cost = estimate(events, relation, o, b);
  return b;
}

bool covered(const RdpComposition& events, Neighbouring relation) {
  const auto all = [&](auto pred) { return std::all_of(events.begin(), events.end(), pred); };
  if (uses_replace_pair(events, relation)) return all([](const auto& e) { return covers_replace_pair(e.first); });
  // Plain events under replace-one are their own pair (their sensitivity is the relation's).
  return all([](const auto& e) { return covers(e.first, Neighbouring::kAddRemove); });
}

std::string grid_text(unsigned long n, unsigned chain_bits, unsigned test_bits) {
  return "step 1/" + std::to_string(n) + ", masses at 2^-" + std::to_string(chain_bits) + " (test 2^-" +
         std::to_string(test_bits) + ")";
}

// The largest upper epsilon over the orders and the order that has it.
struct UpperEnd {
  mpq_class epsilon;
  PairOrder order = PairOrder::kRemove;
  std::size_t points = 0;
};

UpperEnd upper_end(const RdpComposition& events, const mpq_class& delta, const WideSetup& base,
                   const std::vector<PairOrder>& orders) {
  UpperEnd out;
  bool first = true;
  for (const PairOrder order : orders) {
    WideSetup s = base;
    s.order = order;
    const WideChain chain = compose_wide_upper(events, s);
    out.points = std::max(out.points, chain.masses.size());
    const std::optional<mpq_class> u = epsilon_upper(chain, delta);
    if (!u) {
      throw LimitError("delta", "delta: the pld route cannot certify any epsilon at this delta (the mass at "
                                "infinity exceeds it); use a larger delta or another route");
    }
    if (first || *u > out.epsilon) {
      out.epsilon = *u;
      out.order = order;
    }
    first = false;
  }
  return out;
}

// The test pair's setup at the order `order` and epsilon: its Q masses meet e^eps, so eps log2(e)
// more bits than the chain's keep delta's resolution.
WideSetup test_setup(const WideSetup& base, PairOrder order, const mpq_class& epsilon) {
  const double tilt = std::ceil(epsilon.get_d() * 1.4426950408889634) + 4;
  WideSetup test = base;
  test.order = order;
  test.scale_bits = static_cast<unsigned>(std::min(1024.0, base.scale_bits + std::max(0.0, tilt)));
  return test;
}

}  // namespace

WideRouteCost estimate_wide_route(const RdpComposition& events, const mpq_class& delta, Neighbouring relation,
                                  const PldOptions& options) {
  WideRouteCost cost;
  (void)planned(events, delta, relation, options, cost);
  return cost;
}

bool wide_route_wanted(const RdpComposition& events, const mpq_class& delta, Neighbouring relation) {
  if (events.empty() || delta <= 0 || delta >= 1) return false;
  if (delta * (mpz_class(1) << 36) >= mpz_class(total_count(events))) return false;
  if (inverse_bits(delta) > kMaxInverseBits) return false;  // the wide discretisation's scale limit
  return covered(events, relation);
}

std::optional<PldAnswer> wide_pld_epsilon(const RdpComposition& events, const mpq_class& delta, Neighbouring relation,
                                          const PldOptions& options) {
  WideRouteCost cost;
  const Budget b = planned(events, delta, relation, options, cost);
  if (cost.seconds > options.cost_budget.max_seconds || cost.bytes > options.cost_budget.max_bytes) {
    return std::nullopt;
  }
  const unsigned long n = options.discretization.steps_per_unit;
  const WideSetup base{PairOrder::kRemove, uses_replace_pair(events, relation), n, b.chain_bits, b.tail_bits};
  const UpperEnd u = upper_end(events, delta, base, wide_orders(events, relation));
  const WideSetup test = test_setup(base, u.order, u.epsilon);
  const WideTestPair pair = compose_wide_test(events, test);
  const mpq_class lower = epsilon_lower(pair, delta);
  const Interval lo(lower, kDefaultPrecision), hi(u.epsilon, kDefaultPrecision);
  if (mpfr_greater_p(lo.lower(), hi.upper())) {
    throw std::logic_error("pld wide route: the lower end exceeds the upper end (a bound is wrong)");
  }
  PldAnswer out;
  out.value = Interval::from_ends(lo.lower(), hi.upper(), kDefaultPrecision);
  out.points = std::max(u.points, pair.p.size());
  out.grid = grid_text(n, b.chain_bits, test.scale_bits);
  return out;
}

bool wide_delta_route_wanted(const RdpComposition& events, Neighbouring relation) {
  return !events.empty() && total_count(events) >= kWideDeltaMinCount && covered(events, relation);
}

std::optional<PldAnswer> wide_pld_delta(const RdpComposition& events, const mpq_class& epsilon, Neighbouring relation,
                                        const PldOptions& options) {
  if (epsilon < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
  WideRouteCost cost;
  const Budget b = planned(events, mpq_class(1, mpz_class(1) << kDeltaQueryBits), relation, options, cost);
  if (cost.seconds > options.cost_budget.max_seconds || cost.bytes > options.cost_budget.max_bytes) {
    return std::nullopt;
  }
  const unsigned long n = options.discretization.steps_per_unit;
  const WideSetup base{PairOrder::kRemove, uses_replace_pair(events, relation), n, b.chain_bits, b.tail_bits};
  std::optional<Real> upper;
  PairOrder worst = PairOrder::kRemove;
  std::size_t points = 0;
  for (const PairOrder order : wide_orders(events, relation)) {
    WideSetup s = base;
    s.order = order;
    const WideChain chain = compose_wide_upper(events, s);
    points = std::max(points, chain.masses.size());
    Real u = delta_upper(chain, epsilon);
    if (!upper || mpfr_greater_p(u.get(), upper->get())) {
      upper = std::move(u);
      worst = order;
    }
  }
  const WideSetup test = test_setup(base, worst, epsilon);
  const WideTestPair pair = compose_wide_test(events, test);
  const Real lower = delta_lower(pair, epsilon);
  if (mpfr_greater_p(lower.get(), upper->get())) {
    throw std::logic_error("pld wide route: the lower end exceeds the upper end (a bound is wrong)");
  }
  PldAnswer out;
  out.value = Interval::from_ends(lower.get(), upper->get(), kDefaultPrecision);
  out.points = std::max(points, pair.p.size());
  out.grid = grid_text(n, b.chain_bits, test.scale_bits);
  return out;
}

}  // namespace exactdp::accounting::pld
