#include <exactdp/accounting/rdp_accountant.h>

#include <algorithm>
#include <string>

#include <exactdp/accounting/internal/certified_search.h>
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

// The index of the best of `integers` (ascending) at 64 bits, scanning upward and stopping
// after 4 successive orders worse than the best so far (the converted value is unimodal in
// practice: RDP grows with the order, the conversion's penalty shrinks); its upper end goes to
// `best_upper`. A selection only: nothing about it needs to be certified.
template <typename Convert>
std::size_t scan_integer_orders(const RdpComposition& events, const std::vector<mpq_class>& integers,
                                Neighbouring relation, const Convert& convert, Real& best_upper) {
  const mpfr_prec_t p = 64;
  std::size_t best = 0;
  int worse = 0;
  for (std::size_t i = 0; i < integers.size() && worse < 4; ++i) {
    const Interval value = convert(composed_rdp(events, integers[i], relation, p), integers[i]);
    if (i == 0 || mpfr_less_p(value.upper(), best_upper.get())) {
      mpfr_set(best_upper.get(), value.upper(), MPFR_RNDU);
      best = i;
      worse = 0;
    } else {
      ++worse;
    }
  }
  return best;
}

// One fractional order near `centre` (rdp_accountant.h, "Orders") that beats `best_upper`, or
// none (0) when an event does not take fractional orders or none improves. A selection only.
template <typename Convert>
mpq_class refine_fractional(const RdpComposition& events, mpq_class centre, Real& best_upper, Neighbouring relation,
                            const Convert& convert) {
  const mpfr_prec_t p = 64;
  bool improved = false;
  for (int halvings = 1; halvings <= 4; ++halvings) {
    const mpq_class step(1, 1L << halvings);
    mpq_class next = centre;
    for (const mpq_class& candidate : {mpq_class(centre - step), mpq_class(centre + step)}) {
      if (candidate <= 1) continue;
      bool supported = true;
      for (const auto& [event, count] : events) supported = supported && event.supports_order(candidate);
      if (!supported) return mpq_class(0);
      const Interval value = convert(composed_rdp(events, candidate, relation, p), candidate);
      if (mpfr_less_p(value.upper(), best_upper.get())) {
        mpfr_set(best_upper.get(), value.upper(), MPFR_RNDU);
        next = candidate;
        improved = true;
      }
    }
    centre = next;
  }
  return improved && centre.get_den() != 1 ? centre : mpq_class(0);
}

template <typename Convert>
mpq_class fractional_refinement(const RdpComposition& events, const std::vector<mpq_class>& integers,
                                Neighbouring relation, const Convert& convert) {
  Real best_upper(64);
  const std::size_t best = scan_integer_orders(events, integers, relation, convert, best_upper);
  return refine_fractional(events, integers[best], best_upper, relation, convert);
}

template <typename Convert>
RdpAnswer rdp_answer(const RdpComposition& events, Neighbouring relation,
                     const ZivOptions& options, const std::vector<unsigned long>& orders_in,
                     const Convert& convert) {
  validate_composition(events);
  options.validate();
  std::vector<mpq_class> orders = as_orders(orders_in.empty() ? default_rdp_orders() : orders_in);
  if (orders_in.empty()) {
    // The default set, less the orders some event does not take (a poisson-laplace event:
    // orders <= 256). An explicit set is used as given (an unsupported order is an error).
    std::erase_if(orders, [&](const mpq_class& alpha) {
      for (const auto& [event, count] : events) {
        if (!event.supports_order(alpha)) return true;
      }
      return false;
    });
    if (orders.empty()) {
      for (const auto& [event, count] : events) {
        if (!event.has_rdp()) (void)event.rdp(2UL, relation, 64);  // its own error, naming the route
      }
      throw ParameterError("order", "order: no default RDP order applies to every event");
    }
    // Certify only around the selected optimum: the best integer order at 64 bits, its two
    // neighbours in the set and one fractional order (any order set gives a theorem).
    Real best_upper(64);
    const std::size_t best = scan_integer_orders(events, orders, relation, convert, best_upper);
    const mpq_class extra = refine_fractional(events, orders[best], best_upper, relation, convert);
    std::vector<mpq_class> chosen(orders.begin() + static_cast<std::ptrdiff_t>(best == 0 ? 0 : best - 1),
                                  orders.begin() + static_cast<std::ptrdiff_t>(std::min(best + 2, orders.size())));
    if (sgn(extra) != 0) chosen.push_back(extra);
    orders = std::move(chosen);
  }
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
  mpq_class last_order;
  const internal::RationalDecider decide = [&](const mpq_class& sigma, Interval& g) {
    const RdpComposition events = {{RdpEvent::poisson_gaussian(sigma, q), steps}};
    Interval rdp_at(kDefaultPrecision);
    g = minimise_over_orders(events, orders, Neighbouring::kAddRemove, kDefaultPrecision, to_epsilon, last_order,
                             rdp_at);
    if (upper_at_most(g, epsilon)) return internal::Side::kMeets;
    if (lower_above(g, epsilon)) return internal::Side::kMisses;
    return internal::Side::kUndecided;
  };

  const mpq_class lo(1, 1000), hi(1'000'000);
  internal::RationalBracket bracket;
  bracket.lo = lo;
  bracket.hi = hi;
  if (decide(hi, bracket.g_hi) != internal::Side::kMeets) {
    throw LimitError("epsilon", "epsilon = " + abbreviate(to_string(epsilon)) +
                                    " is not reached with a noise multiplier sigma <= 10^6 at "
                                    "this q, steps and delta (allowed: a larger epsilon)");
  }
  mpq_class order_hi = last_order;
  const auto require_lo_misses = [&] {
    if (decide(lo, bracket.g_lo) != internal::Side::kMisses) {
      throw LimitError("epsilon", "epsilon = " + abbreviate(to_string(epsilon)) +
                                      " is already met by sigma = 10^-3, the smallest searched "
                                      "(allowed: a smaller epsilon)");
    }
  };
  require_lo_misses();
  // Track the order at the upper end through the bisection.
  const internal::RationalDecider tracked = [&](const mpq_class& sigma, Interval& g) {
    const internal::Side s = decide(sigma, g);
    if (s == internal::Side::kMeets) order_hi = last_order;
    return s;
  };
  internal::bisect_bracket(tracked, bracket, std::max(width, mpq_class(1, 100)), 200);
  const RdpComposition at_hi = {{RdpEvent::poisson_gaussian(bracket.hi, q), steps}};
  const mpq_class extra = fractional_refinement(at_hi, orders, Neighbouring::kAddRemove, to_epsilon);
  if (sgn(extra) != 0) {
    // The finer set can only lower epsilon: hi still meets; lo may not miss any more. Then lo
    // is walked down from hi (distance doubled each time) only through sigmas where the extra
    // order is defined (a subsampled Gaussian: sigma >= 1/16); if none misses there, the extra
    // order is dropped and the integer bracket kept (every bracket is certified either way).
    const internal::RationalBracket integer_bracket = bracket;
    const mpq_class integer_order_hi = order_hi;
    orders.push_back(extra);
    if (decide(bracket.hi, bracket.g_hi) == internal::Side::kMeets) order_hi = last_order;
    if (decide(bracket.lo, bracket.g_lo) != internal::Side::kMisses &&
        !walk_lo_down(tracked, bracket, [&](const mpq_class& sigma) {
          return sigma >= lo && RdpEvent::poisson_gaussian(sigma, q).supports_order(extra);
        })) {
      orders.pop_back();
      bracket = integer_bracket;
      order_hi = integer_order_hi;
    }
  }
  internal::bisect_bracket(tracked, bracket, width, 200);

  DpSgdCalibration c;
  c.sigma_lower = bracket.lo;
  c.sigma_upper = bracket.hi;
  c.epsilon_at_upper = bracket.g_hi;
  c.epsilon_at_lower = bracket.g_lo;
  c.order_at_upper = order_hi;
  c.width_met = bracket.relative_width() <= width;
  return c;
}

}  // namespace exactdp::accounting
