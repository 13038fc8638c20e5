#include <exactdp/accounting/rdp_accountant.h>

#include <algorithm>
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

// Whether sigma >= lo and every order is defined for the poisson-gaussian event at sigma and q.
bool orders_defined(const mpq_class& sigma, const mpq_class& q, const mpq_class& lo, const std::vector<mpq_class>& orders) {
  if (sigma < lo) return false;
  const RdpEvent event = RdpEvent::poisson_gaussian(sigma, q);
  return std::all_of(orders.begin(), orders.end(), [&](const mpq_class& alpha) { return event.supports_order(alpha); });
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
    bool first = true;
    Interval result(kDefaultPrecision);
    for (const mpq_class& alpha : orders) {
      const Interval& value = at(sigma, alpha, kDefaultPrecision);
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
  // suffices (values.side). g (the minimum at 128 bits) is not needed by the search; the bracket
  // ends' are computed at the end.
  std::optional<mpq_class> meet_order;
  const internal::RationalDecider decide = [&](const mpq_class& sigma, Interval& /*g*/) {
    if (meet_order && std::find(orders.begin(), orders.end(), *meet_order) != orders.end() &&
        values.side(sigma, *meet_order) == internal::Side::kMeets) {
      return internal::Side::kMeets;
    }
    bool all_miss = true;
    for (const mpq_class& alpha : orders) {
      const internal::Side s = values.side(sigma, alpha);
      if (s == internal::Side::kMeets) {
        meet_order = alpha;
        return internal::Side::kMeets;
      }
      all_miss = all_miss && s == internal::Side::kMisses;
    }
    return all_miss ? internal::Side::kMisses : internal::Side::kUndecided;
  };

  const mpq_class lo(1, 1000), hi(1'000'000);
  internal::RationalBracket bracket;
  bracket.lo = lo;
  bracket.hi = hi;
  if (decide(hi, bracket.g_hi) != internal::Side::kMeets) throw_epsilon_not_reached(epsilon);
  if (decide(lo, bracket.g_lo) != internal::Side::kMisses) throw_epsilon_met_at_smallest_sigma(epsilon);
  internal::bisect_bracket(decide, bracket, std::max(width, mpq_class(1, 100)), 200);
  // The real-order search's orders at sigma_upper join the set and the bracket is narrowed again,
  // while (at most 3 times) the search there picks orders not in the set. The finer set can only
  // lower epsilon: hi still meets; lo may not miss any more: then lo is walked down from hi only
  // through sigmas where the new orders are defined (a subsampled Gaussian: sigma >= 1/16); if
  // none misses there, they are dropped and the former bracket kept (every bracket is certified).
  for (int round = 0; round < 3; ++round) {
    std::vector<mpq_class> extra =
        select_rdp_orders({{RdpEvent::poisson_gaussian(bracket.hi, q), steps}}, Neighbouring::kAddRemove, to_epsilon);
    std::erase_if(extra, [&](const mpq_class& a) { return std::find(orders.begin(), orders.end(), a) != orders.end(); });
    if (extra.empty()) break;
    const internal::RationalBracket former_bracket = bracket;
    const std::size_t former_size = orders.size();
    orders.insert(orders.end(), extra.begin(), extra.end());
    if (decide(bracket.lo, bracket.g_lo) != internal::Side::kMisses &&
        !walk_lo_down(decide, bracket, [&](const mpq_class& sigma) { return orders_defined(sigma, q, lo, extra); })) {
      orders.resize(former_size);
      bracket = former_bracket;
      break;
    }
    internal::bisect_bracket(decide, bracket, width, 200);
  }
  internal::bisect_bracket(decide, bracket, width, 200);

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
