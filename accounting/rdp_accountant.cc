#include <exactdp/accounting/rdp_accountant.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <string>
#include <utility>

#include <exactdp/accounting/internal/certified_search.h>
#include <exactdp/accounting/rdp_order_search.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

const mpz_class kMaxTotalCount("1000000000000");  // 10^12


void validate_composition(const RdpComposition& events) {
  if (events.empty()) {
    throw ParameterError("event", "event: at least one event is needed");
  }
  mpz_class total = 0;
  for (const auto& [event, count] : events) {
    if (count == 0) {
      throw ParameterError::out_of_range("count", "0", "1 <= count <= 10^12");
    }
    total += mpz_class(count);
  }
  if (total > kMaxTotalCount) {
    throw ParameterError::out_of_range("count", to_string(mpq_class(total)),
                                       "a total count <= 10^12");
  }
}

std::vector<mpq_class> as_orders(const std::vector<unsigned long>& orders) {
  std::vector<mpq_class> out;
  out.reserve(orders.size());
  for (const unsigned long a : orders) out.emplace_back(mpz_class(a));
  return out;
}

// The minimum over `orders` of convert(composed RDP at alpha, alpha) at precision p: the
// interval [min lowers, min uppers]; `best` receives the order of the smallest upper end.
template <typename Order, typename Convert>
Interval minimise_over_orders(const RdpComposition& events, const std::vector<Order>& orders,
                              Neighbouring relation, mpfr_prec_t p, const Convert& convert,
                              Order& best, Interval& best_rdp) {
  bool first = true;
  Interval result(p);
  for (const Order& alpha : orders) {
    const Interval tau = composed_rdp(events, alpha, relation, p);
    const Interval value = convert(tau, alpha);
    if (first || mpfr_less_p(value.upper(), result.upper())) {
      best = alpha;
      best_rdp = tau;
    }
    result = first ? value : min(result, value);
    first = false;
  }
  return result;
}

}  // namespace

const std::vector<unsigned long>& default_rdp_orders() {
  static const std::vector<unsigned long> orders = [] {
    std::vector<unsigned long> o;
    for (unsigned long a = 2; a <= 64; ++a) o.push_back(a);
    for (unsigned long a = 72; a <= 128; a += 8) o.push_back(a);
    for (unsigned long a = 144; a <= 256; a += 16) o.push_back(a);
    for (unsigned long a = 320; a <= 512; a += 64) o.push_back(a);
    for (const unsigned long a : {768UL, 1024UL, 1536UL, 2048UL, 3072UL, 4096UL}) o.push_back(a);
    return o;
  }();
  return orders;
}

Interval composed_rdp(const RdpComposition& events, const mpq_class& alpha, Neighbouring relation,
                      mpfr_prec_t precision) {
  Interval sum(precision);
  for (const auto& [event, count] : events) {
    sum = sum + event.rdp(alpha, relation, precision) * mpq_class(mpz_class(count));
  }
  return sum;
}

Interval rdp_to_epsilon(const Interval& tau, const mpq_class& alpha, const mpq_class& delta) {
  const mpfr_prec_t p = tau.precision();
  const mpq_class& a = alpha;
  // tau + log((a-1)/a) - (log delta + log a)/(a-1): increasing in tau; each term outward.
  const Interval eps = tau + log(Interval(mpq_class((a - 1) / a), p)) -
                       (log(Interval(delta, p)) + log(Interval(a, p))) / (a - 1);
  return max(eps, Interval(p));  // clamp below at 0
}

Interval rdp_to_delta(const Interval& tau, const mpq_class& alpha, const mpq_class& epsilon) {
  const mpfr_prec_t p = tau.precision();
  const mpq_class& a = alpha;
  // exp((a-1)(tau - eps) + (a-1) log(1 - 1/a) - log a): increasing in tau.
  const Interval exponent = (tau - epsilon) * (a - 1) +
                            log(Interval(mpq_class((a - 1) / a), p)) * (a - 1) -
                            log(Interval(a, p));
  return min(exp(exponent), Interval(1L, p));  // clamp above at 1
}

namespace {

template <typename Convert>
RdpAnswer rdp_answer(const RdpComposition& events, Neighbouring relation,
                     const ZivOptions& options, const std::vector<unsigned long>& orders_in,
                     const Convert& convert) {
  validate_composition(events);
  options.validate();
  // Without a given set: certify only around the optimum found by the real-order search
  // (rdp_order_search.h; any order set gives a theorem).
  const std::vector<mpq_class> orders =
      orders_in.empty() ? select_rdp_orders(events, relation, convert) : as_orders(orders_in);
  RdpAnswer answer;
  answer.value = evaluate_to_tolerance(
      [&](mpfr_prec_t p) {
        return minimise_over_orders(events, orders, relation, p, convert, answer.order,
                                    answer.rdp_at_order);
      },
      options);
  bool exact = true;
  for (const auto& [event, count] : events) exact = exact && event.rdp_is_exact_at(answer.order);
  answer.exact_rdp = exact;
  return answer;
}

}  // namespace

RdpAnswer rdp_epsilon(const RdpComposition& events, const mpq_class& delta, Neighbouring relation,
                      const ZivOptions& options, const std::vector<unsigned long>& orders) {
  require_open_unit("delta", delta);
  return rdp_answer(events, relation, options, orders,
                    [&](const Interval& tau, const mpq_class& alpha) {
                      return rdp_to_epsilon(tau, alpha, delta);
                    });
}

RdpAnswer rdp_delta(const RdpComposition& events, const mpq_class& epsilon, Neighbouring relation,
                    const ZivOptions& options, const std::vector<unsigned long>& orders) {
  require_nonnegative_at_most("epsilon", epsilon, mpq_class(1'000'000'000), "10^9");
  return rdp_answer(events, relation, options, orders,
                    [&](const Interval& tau, const mpq_class& alpha) {
                      return rdp_to_delta(tau, alpha, epsilon);
                    });
}

// ---- DP-SGD calibration -------------------------------------------------------------------

namespace {

// Lowers bracket.lo until it misses: candidates hi - 2 d, hi - 4 d, ... (d = hi - lo), each
// accepted by `defined` (which must refuse every sigma <= 0); a candidate that meets becomes hi. False when the candidates
// run out (or one is undecided) before one misses; the bracket is then unusable.
template <typename Defined>
bool walk_lo_down(const internal::RationalDecider& decide, internal::RationalBracket& bracket, const Defined& defined) {
  mpq_class distance = bracket.hi - bracket.lo;
  for (int i = 0; i < 64; ++i) {
    distance *= 2;
    const mpq_class candidate = bracket.hi - distance;
    if (!defined(candidate)) return false;
    Interval g(kDefaultPrecision);
    const internal::Side side = decide(candidate, g);
    if (side == internal::Side::kMisses) {
      bracket.lo = candidate;
      bracket.g_lo = g;
      return true;
    }
    if (side != internal::Side::kMeets) return false;
    bracket.hi = candidate;
    bracket.g_hi = g;
  }
  return false;
}

// The next probe of narrow_by_interpolation: sigma where epsilon ~ c sigma^-k through the ends'
// estimates (the upper ends of g_lo, g_hi) meets the target, moved by `offset` (signed, in sigma)
// and rounded to a multiple of `grain` (a power of two, so that the probes stay short rationals);
// nullopt when the estimates cannot place it (not finite, or not falling) or it is not strictly
// inside the bracket. A heuristic only (double): the caller decides every probe.
std::optional<mpq_class> interpolated_probe(const internal::RationalBracket& b, const mpq_class& target,
                                            double offset, const mpq_class& grain) {
  const double e_lo = mpfr_get_d(b.g_lo.upper(), MPFR_RNDN), e_hi = mpfr_get_d(b.g_hi.upper(), MPFR_RNDN);
  const double lo = b.lo.get_d(), hi = b.hi.get_d(), t = target.get_d();
  if (!(e_lo > e_hi && e_hi > 0 && std::isfinite(e_lo) && hi > lo && lo > 0 && t > 0)) return std::nullopt;
  const double k = std::log(e_lo / e_hi) / std::log(hi / lo);
  const double units = std::nearbyint((lo * std::pow(e_lo / t, 1 / k) + offset) / grain.get_d());
  if (!std::isfinite(units) || units <= 0 || units >= 9.0e15) return std::nullopt;
  const mpq_class probe = mpq_class(static_cast<long>(units)) * grain;
  if (probe <= b.lo || probe >= b.hi) return std::nullopt;
  return probe;
}

// The largest power of two <= x (x > 0): 2^bits or 2^(bits - 1), since 2^(bits-1) < x < 2^(bits+1).
mpq_class power_of_two_at_most(const mpq_class& x) {
  const long bits = static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 2)) -
                    static_cast<long>(mpz_sizeinbase(x.get_den_mpz_t(), 2));
  const mpq_class p = power_of_two(bits);
  return p <= x ? p : mpq_class(p / 2);
}

// bisect_bracket's midpoint for narrowing a bracket (lo misses, hi meets; g_lo, g_hi the
// decider's values there, which bisect_bracket keeps up to date) to relative width <= width. Probes
// alternate just below and just above the interpolated crossing (interpolated_probe, offset -/+
// width lo / 4), so that an estimate within width lo / 4 of it ends the search in two decisions,
// where bisection takes one a bit (about 14 from 10^-2 to 10^-6); after two probes in a row that
// did not halve the bracket, one bisection step (exponent_then_arithmetic_midpoint). Every probe
// is decided by bisect_bracket, so the bracket stays certified.
internal::Midpoint interpolating_midpoint(const internal::RationalBracket& bracket, const mpq_class& target,
                                          const mpq_class& width) {
  return [&bracket, &target, &width, call = 0, slow = 0, last = mpq_class(0)](
             const mpq_class& lo, const mpq_class& hi) mutable -> std::optional<mpq_class> {
    const mpq_class now = hi - lo;
    if (call > 0) slow = 2 * now <= last || slow >= 2 ? 0 : slow + 1;
    last = now;
    const mpq_class step = width * lo / 4;
    const double offset = (call++ % 2 == 0 ? -1.0 : 1.0) * step.get_d();
    std::optional<mpq_class> probe;
    if (slow < 2) probe = interpolated_probe(bracket, target, offset, power_of_two_at_most(step / 4));
    return probe ? probe : internal::exponent_then_arithmetic_midpoint(lo, hi);
  };
}

// Narrows `bracket` to relative width <= width by interpolation (interpolating_midpoint), at
// most max_steps decisions; an undecided probe ends the search (still certified).
void narrow_by_interpolation(const internal::RationalDecider& decide, internal::RationalBracket& bracket,
                             const mpq_class& target, const mpq_class& width, int max_steps) {
  internal::bisect_bracket(decide, bracket, width, max_steps, interpolating_midpoint(bracket, target, width));
}

// Whether sigma >= lo and every order is defined for the poisson-gaussian event at sigma and q.
bool orders_defined(const mpq_class& sigma, const mpq_class& q, const mpq_class& lo, const std::vector<mpq_class>& orders) {
  if (sigma < lo) return false;
  const RdpEvent event = RdpEvent::poisson_gaussian(sigma, q);
  return std::all_of(orders.begin(), orders.end(), [&](const mpq_class& alpha) { return event.supports_order(alpha); });
}

// The calibration searches orders at each of its rounds: fractional ones only below 64 (a
// fractional order of the subsampled Gaussian costs 0.1-0.2 s from about 64 to 128).
const mpq_class kCalibrationFractionalBelow(64);

// What the real-order rounds of calibrate_dp_sgd need of the request.
struct DpSgdTarget {
  const mpq_class& q;
  unsigned long steps;
  const mpq_class& epsilon;
  const mpq_class& width;
};

// The rounds of calibrate_dp_sgd that add the real-order search's orders (at sigma_upper) to
// `orders`, which `decide` reads, and narrow `bracket` again: at most 3, while the search picks
// orders not in the set and sigma_upper moved by more than 10^-5 (relative) since the last search.
// Within that the best order moves by about 10^-5 of itself, which changes epsilon by about
// 10^-10 of itself (the minimum over orders is flat): the set is then as good as the accountant's
// own choice at the answer, far inside the bracket's width. The finer set can only
// lower epsilon: hi still meets; lo may not miss any more: then lo is walked down from hi only
// through sigmas where the new orders are defined (a subsampled Gaussian: sigma >= 1/16); if none
// misses there, they are dropped and the former bracket kept (every bracket is certified).
template <typename Conversion>
void add_real_orders(const internal::RationalDecider& decide, internal::RationalBracket& bracket,
                     std::vector<mpq_class>& orders, const DpSgdTarget& t, const Conversion& to_epsilon) {
  const mpq_class lo(1, 1000);  // the smallest sigma searched
  std::optional<mpq_class> searched_at;
  for (int round = 0; round < 3; ++round) {
    if (searched_at && abs(mpq_class(bracket.hi - *searched_at)) <= *searched_at / 100'000) break;
    searched_at = bracket.hi;
    std::vector<mpq_class> extra =
        select_rdp_orders({{RdpEvent::poisson_gaussian(bracket.hi, t.q), t.steps}}, Neighbouring::kAddRemove, to_epsilon,
                          kCalibrationFractionalBelow);
    std::erase_if(extra, [&](const mpq_class& a) { return std::find(orders.begin(), orders.end(), a) != orders.end(); });
    if (extra.empty()) break;
    const internal::RationalBracket former_bracket = bracket;
    const std::size_t former_size = orders.size();
    orders.insert(orders.end(), extra.begin(), extra.end());
    if (decide(bracket.lo, bracket.g_lo) != internal::Side::kMisses &&
        !walk_lo_down(decide, bracket, [&](const mpq_class& sigma) { return orders_defined(sigma, t.q, lo, extra); })) {
      orders.resize(former_size);
      bracket = former_bracket;
      break;
    }
    narrow_by_interpolation(decide, bracket, t.epsilon, t.width, 200);
  }
}

void require_dp_sgd_parameters(const mpq_class& q, unsigned long steps, const mpq_class& epsilon,
                               const mpq_class& delta, const mpq_class& width) {
  require_positive_at_most("q", q, mpq_class(1), "1");
  if (steps == 0 || steps > 1'000'000'000UL) {
    throw ParameterError::out_of_range("steps", std::to_string(steps), "1 <= steps <= 10^9");
  }
  require_positive_at_most("epsilon", epsilon, mpq_class(10'000), "10^4");
  require_open_unit("delta", delta);
  require_positive("width", width);
}

// The calibration's epsilon at each (sigma, order), each computed once per precision: a
// decision is tried at 64 bits first (the fractional orders' series cost several times less
// there), and at 128 bits (minimise_over_orders' precision) only where 64 do not decide it; the
// reported minimum at a bracket end is at 128 bits.
class OrderEpsilons {
 public:
  static constexpr mpfr_prec_t kQuickPrecision = 64;

  OrderEpsilons(const mpq_class& q, unsigned long steps, const mpq_class& delta, const mpq_class& epsilon)
      : q_(q), steps_(steps), delta_(delta), epsilon_(epsilon) {}

  const Interval& at(const mpq_class& sigma, const mpq_class& alpha, mpfr_prec_t p) {
    auto key = std::make_tuple(sigma, alpha, p);
    auto it = values_.find(key);
    if (it == values_.end()) {
      const RdpComposition events = {{RdpEvent::poisson_gaussian(sigma, q_), steps_}};
      const Interval tau = composed_rdp(events, alpha, Neighbouring::kAddRemove, p);
      it = values_.emplace(std::move(key), rdp_to_epsilon(tau, alpha, delta_)).first;
    }
    return it->second;
  }

  // Whether the order's epsilon at sigma is proven <= the target (kMeets), > it (kMisses), or
  // neither at 128 bits (kUndecided).
  internal::Side side(const mpq_class& sigma, const mpq_class& alpha) {
    for (const mpfr_prec_t p : {kQuickPrecision, kDefaultPrecision}) {
      const Interval& value = at(sigma, alpha, p);
      if (upper_at_most(value, epsilon_)) return internal::Side::kMeets;
      if (lower_above(value, epsilon_)) return internal::Side::kMisses;
    }
    return internal::Side::kUndecided;
  }

  // minimise_over_orders at 128 bits of these values: the same interval and the same `best`.
  Interval minimum(const mpq_class& sigma, const std::vector<mpq_class>& orders, mpq_class& best) {
    return minimum(sigma, orders, kDefaultPrecision, best);
  }
  Interval minimum(const mpq_class& sigma, const std::vector<mpq_class>& orders, mpfr_prec_t p) {
    mpq_class best;
    return minimum(sigma, orders, p, best);
  }

 private:
  Interval minimum(const mpq_class& sigma, const std::vector<mpq_class>& orders, mpfr_prec_t p, mpq_class& best) {
    bool first = true;
    Interval result(p);
    for (const mpq_class& alpha : orders) {
      const Interval& value = at(sigma, alpha, p);
      if (first || mpfr_less_p(value.upper(), result.upper())) best = alpha;
      result = first ? value : min(result, value);
      first = false;
    }
    return result;
  }

 private:
  mpq_class q_;
  unsigned long steps_;
  mpq_class delta_, epsilon_;
  std::map<std::tuple<mpq_class, mpq_class, mpfr_prec_t>, Interval> values_;
};

// LimitError naming epsilon: even sigma = 10^6, the largest searched, misses it.
[[noreturn]] void throw_epsilon_not_reached(const mpq_class& epsilon) {
  throw LimitError("epsilon", "epsilon = " + abbreviate(to_string(epsilon)) +
                                  " is not reached with a noise multiplier sigma <= 10^6 at "
                                  "this q, steps and delta (allowed: a larger epsilon)");
}

// LimitError naming epsilon: sigma = 10^-3, the smallest searched, already meets it.
[[noreturn]] void throw_epsilon_met_at_smallest_sigma(const mpq_class& epsilon) {
  throw LimitError("epsilon", "epsilon = " + abbreviate(to_string(epsilon)) +
                                  " is already met by sigma = 10^-3, the smallest searched "
                                  "(allowed: a smaller epsilon)");
}

}  // namespace

DpSgdCalibration calibrate_dp_sgd(const mpq_class& q, unsigned long steps, const mpq_class& epsilon,
                                  const mpq_class& delta, const mpq_class& width) {
  require_dp_sgd_parameters(q, steps, epsilon, delta, width);

  // One certified evaluation at 128 bits (a decision needs no tolerance: an undecided probe
  // ends the search with a still-certified bracket). The order set is fixed for a whole search
  // (so the route's epsilon is monotone in sigma): first the integer orders, coarsely; then
  // those plus the fractional order the accountant picks at the coarse sigma_upper.
  std::vector<mpq_class> orders = as_orders(default_rdp_orders());
  const auto to_epsilon = [&](const Interval& tau, const mpq_class& alpha) { return rdp_to_epsilon(tau, alpha, delta); };
  OrderEpsilons values(q, steps, delta, epsilon);
  // The route meets at sigma iff one order does, and misses iff every order does. One order
  // proves a meet: the one that proved the last is tried first (the fractional ones cost ~0.03-0.15
  // s each at 128 bits), then the others in turn. Each order is decided at 64 bits where that
  // suffices (values.side). g is set to an estimate of the route's epsilon at sigma, for
  // narrow_by_interpolation: the meeting order's value, or the least of the missing ones (64 bits,
  // already computed); the bracket ends' minimum at 128 bits is computed at the end.
  std::optional<mpq_class> meet_order;
  const internal::RationalDecider decide = [&](const mpq_class& sigma, Interval& g) {
    if (meet_order && std::find(orders.begin(), orders.end(), *meet_order) != orders.end() &&
        values.side(sigma, *meet_order) == internal::Side::kMeets) {
      g = values.at(sigma, *meet_order, OrderEpsilons::kQuickPrecision);
      return internal::Side::kMeets;
    }
    bool all_miss = true;
    for (const mpq_class& alpha : orders) {
      const internal::Side s = values.side(sigma, alpha);
      if (s == internal::Side::kMeets) {
        meet_order = alpha;
        g = values.at(sigma, alpha, OrderEpsilons::kQuickPrecision);
        return internal::Side::kMeets;
      }
      all_miss = all_miss && s == internal::Side::kMisses;
    }
    if (!all_miss) return internal::Side::kUndecided;
    g = values.minimum(sigma, orders, OrderEpsilons::kQuickPrecision);
    return internal::Side::kMisses;
  };

  const mpq_class lo(1, 1000), hi(1'000'000);
  internal::RationalBracket bracket;
  bracket.lo = lo;
  bracket.hi = hi;
  if (decide(hi, bracket.g_hi) != internal::Side::kMeets) throw_epsilon_not_reached(epsilon);
  if (decide(lo, bracket.g_lo) != internal::Side::kMisses) throw_epsilon_met_at_smallest_sigma(epsilon);
  internal::bisect_bracket(decide, bracket, std::max(width, mpq_class(1, 100)), 200);
  // The integer orders are cheap (milliseconds an evaluation, against 0.1-0.3 s for a fractional
  // order near 120): narrowed with them to 10^-4, so that the real-order search below runs at a
  // sigma_upper close to the answer and rarely needs a second round.
  narrow_by_interpolation(decide, bracket, epsilon, std::max(width, mpq_class(1, 10'000)), 200);
  add_real_orders(decide, bracket, orders, {q, steps, epsilon, width}, to_epsilon);
  narrow_by_interpolation(decide, bracket, epsilon, width, 200);

  DpSgdCalibration c;
  c.sigma_lower = bracket.lo;
  c.sigma_upper = bracket.hi;
  mpq_class order_lo;
  c.epsilon_at_upper = values.minimum(bracket.hi, orders, c.order_at_upper);
  c.epsilon_at_lower = values.minimum(bracket.lo, orders, order_lo);
  c.width_met = bracket.relative_width() <= width;
  return c;
}

}  // namespace exactdp::accounting
