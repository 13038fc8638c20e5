// The few-step route of pld_few_steps.h: wide-mass discretisation, composition and the two ends
// per pair order, the precision from the query, and the cost estimate that picks the grid.
#include <exactdp/accounting/pld/pld_few_steps.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pld/pld_cost.h>
#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/accounting/pld/pld_replace_pair.h>
#include <exactdp/accounting/pld/pld_wide_compose.h>
#include <exactdp/accounting/pld/wide_pld.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting::pld {
namespace {

unsigned long total_count(const RdpComposition& events) {
  unsigned long total = 0;
  for (const auto& e : events) total += std::min(e.second, kFewStepsMaxCount + 1);
  return total;
}

struct Precision {
  unsigned scale_bits, tail_bits;
};

Precision precision_for_delta_query() { return {160, 144}; }

Precision precision_for_epsilon_query(const mpq_class& delta) {
  const mpq_class inverse = 1 / delta;
  const auto bits = static_cast<unsigned>(mpz_sizeinbase(mpz_class(inverse).get_mpz_t(), 2));
  if (bits > 600) {
    throw LimitError("delta", "delta: the few-step route resolves delta down to 2^-600 (about 10^-180), not " +
                                  abbreviate(to_string(delta)));
  }
  const unsigned s = std::max(96U, bits + 64);
  return {s, s - 16};
}

void check_applies(const RdpComposition& events, Neighbouring relation) {
  if (!few_steps_applies(events, relation)) {
    throw ParameterError("route", "route: the few-step route answers compositions of at most " +
                                      std::to_string(kFewStepsMaxCount) +
                                      " steps in total of events the pld route discretises, under add/remove; under "
                                      "replace-one of poisson-gaussian events only, or of plain events only");
  }
}

// The cost model (an estimate, deciding only which grid and whether to start; calibrated on this
// code, BENCHMARKS.md "A few subsampled steps"): the discretisation as pld_cost.h estimates it
// under add/remove, times 3 (wide masses, one-step test cells); the largest composed support as
// pld_cost.h's (16 standard deviations of the composed loss beyond one event's range, its 2^-44
// truncation) widened 1.75 times for the 2^-144 truncation (about 28 standard deviations), at
// most k times one event's range; every chain (the upper chain and the test pair's two) of every
// order makes products of about 4 such supports in total, at ~1 us a point at 2^-160; ~300 bytes
// a point of the largest product plus 32 MiB. Under replace-one with subsampled events: one
// order, over twice the add/remove range (the +Delta/-Delta loss is about that of a shift by
// 2 Delta), and the discretisation of the pair's chain and of the instance's cells in place of
// the two orders' (kReplaceDiscretizeFactor).
struct FewStepsCost {
  double seconds = 0, bytes = 0;
  bool too_many_cells = false;  // the replace-one instance's limit (pld_replace_instance.h)
};

constexpr double kReplaceWidening = 2;
// The replace-one discretisation (the pair's chain and the instance's cells, both over twice
// the range, one order) measured at about 3.5 times pld_cost.h's add/remove estimate (which
// counts two orders of one pass each): sigma 0.8 and 2, q = 0.01, steps 1/500 to 1/2000.
constexpr double kReplaceDiscretizeFactor = 3.5;
constexpr double kMaxInstanceCells = 2e6;  // pld_replace_instance.cc

FewStepsCost cost_of(const RdpComposition& events, Neighbouring relation, unsigned long n, const Precision& p) {
  PldOptions o;
  o.discretization.steps_per_unit = n;
  o.discretization.tail_bits = std::min(p.tail_bits, 1000U);
  o.discretization.test_coarsening = 1;
  const PldCostEstimate e = estimate_pld_cost(events, Neighbouring::kAddRemove, o);
  const bool pair = uses_replace_pair(events, relation);
  const double widen = pair ? kReplaceWidening : 1;
  const double grid = widen * e.grid_points, composed = widen * e.composed_points;
  const double k = static_cast<double>(total_count(events));
  const double orders = static_cast<double>(wide_orders(events, relation).size());
  const double largest = std::min(k * grid, grid + 1.75 * std::max(0.0, composed - grid)) + 1;
  FewStepsCost c;
  c.seconds = (pair ? kReplaceDiscretizeFactor : 3) * e.discretize_seconds +
              orders * 3 * (4 * largest) * 1e-6 * (p.scale_bits / 160.0);
  c.bytes = 300 * largest + 32.0 * 1024 * 1024;
  c.too_many_cells = pair && grid > kMaxInstanceCells;
  return c;
}

[[noreturn]] void refuse_cost(const FewStepsCost& c, unsigned long n, bool given) {
  const std::string name = given ? "pld-step" : "count";
  if (c.too_many_cells) {
    throw LimitError(name, name + ": the few-step route's replace-one instance would need more than 2*10^6 cells at "
                                  "step 1/" + std::to_string(n) + " (use --route pld)");
  }
  throw LimitError(name, name + ": the few-step route would take about " + std::to_string(static_cast<long>(c.seconds)) +
                             " s and " + std::to_string(static_cast<long>(c.bytes / 1048576)) + " MiB at step 1/" +
                             std::to_string(n) + ", over its budget (use --route pld)");
}

// The grid: the one asked for (refused when over the budget); else the finest of 1/16000,
// 1/8000, ..., 1/250 whose estimate is within options.target_seconds (1/250 when none is, if
// it is within the budget).
unsigned long fitting_grid(const RdpComposition& events, Neighbouring relation, const FewStepsOptions& o,
                           const Precision& p) {
  const auto over = [&](const FewStepsCost& c, double seconds) {
    return c.seconds > seconds || c.bytes > o.budget_bytes || c.too_many_cells;
  };
  if (o.steps_per_unit != 0) {
    const FewStepsCost c = cost_of(events, relation, o.steps_per_unit, p);
    if (over(c, o.budget_seconds)) refuse_cost(c, o.steps_per_unit, true);
    return o.steps_per_unit;
  }
  unsigned long n = kFewStepsFinestGrid;
  FewStepsCost c = cost_of(events, relation, n, p);
  while (over(c, o.target_seconds) && n / 2 >= kFewStepsCoarsestGrid) {
    n /= 2;
    c = cost_of(events, relation, n, p);
  }
  if (over(c, o.budget_seconds)) refuse_cost(c, n, false);
  return n;
}

std::string grid_text(unsigned long n, const Precision& p) {
  return "step 1/" + std::to_string(n) + ", masses at 2^-" + std::to_string(p.scale_bits);
}

Interval checked(const Real& lower, mpfr_srcptr upper) {
  if (mpfr_greater_p(lower.get(), upper)) {
    throw std::logic_error("pld few steps: the lower end exceeds the upper end (a bound is wrong)");
  }
  return Interval::from_ends(lower.get(), upper, kDefaultPrecision);
}

}  // namespace

bool few_steps_applies(const RdpComposition& events, Neighbouring relation) {
  if (events.empty()) return false;
  const unsigned long total = total_count(events);
  if (total < 1 || total > kFewStepsMaxCount) return false;
  if (relation == Neighbouring::kReplaceOne) {
    // Subsampled events: only where the dominating pair is proven (pld_replace_pair.h); the
    // others keep the pld route's group bound. Plain events: their own pair, as under add/remove.
    if (uses_replace_pair(events, relation)) {
      return std::all_of(events.begin(), events.end(), [](const auto& e) { return covers_replace_pair(e.first); });
    }
  }
  return std::all_of(events.begin(), events.end(), [](const auto& e) { return covers(e.first, Neighbouring::kAddRemove); });
}

FewStepsAnswer few_steps_delta(const RdpComposition& events, const mpq_class& epsilon, Neighbouring relation,
                               const FewStepsOptions& o) {
  if (epsilon < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
  check_applies(events, relation);
  const Precision p = precision_for_delta_query();
  const unsigned long n = fitting_grid(events, relation, o, p);
  const bool pair = uses_replace_pair(events, relation);
  Real lower(kDefaultPrecision), upper(kDefaultPrecision);  // +0
  for (const PairOrder order : wide_orders(events, relation)) {
    const WideComposed c = compose_wide_both(events, {order, pair, n, p.scale_bits, p.tail_bits});
    const Real u = delta_upper(c.upper, epsilon), l = delta_lower(c.test, epsilon);
    mpfr_max(upper, upper, u, MPFR_RNDU);
    mpfr_max(lower, lower, l, MPFR_RNDD);
  }
  return {checked(lower, upper), grid_text(n, p)};
}

FewStepsAnswer few_steps_epsilon(const RdpComposition& events, const mpq_class& delta, Neighbouring relation,
                                 const FewStepsOptions& o) {
  if (delta <= 0 || delta >= 1) throw ParameterError::out_of_range("delta", abbreviate(to_string(delta)), "0 < delta < 1");
  check_applies(events, relation);
  const Precision p = precision_for_epsilon_query(delta);
  const unsigned long n = fitting_grid(events, relation, o, p);
  const bool pair = uses_replace_pair(events, relation);
  mpq_class upper(0), lower(0);
  for (const PairOrder order : wide_orders(events, relation)) {
    const WideComposed c = compose_wide_both(events, {order, pair, n, p.scale_bits, p.tail_bits});
    const std::optional<mpq_class> u = epsilon_upper(c.upper, delta);
    if (!u) {
      throw LimitError("delta", "delta: the few-step route cannot certify any epsilon at this delta (the mass at "
                                "infinity exceeds it)");
    }
    upper = std::max(upper, *u);
    lower = std::max(lower, epsilon_lower(c.test, delta));
  }
  const Interval u(upper, kDefaultPrecision), l(lower, kDefaultPrecision);
  Real lo(kDefaultPrecision);
  mpfr_set(lo, l.lower(), MPFR_RNDD);
  return {checked(lo, u.upper()), grid_text(n, p)};
}

}  // namespace exactdp::accounting::pld
