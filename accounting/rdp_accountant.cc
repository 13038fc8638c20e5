#include <exactdp/accounting/rdp_accountant.h>

#include <string>

#include <exactdp/accounting/internal/certified_search.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/samplers/errors.h>
#include <exactdp/samplers/rational.h>

namespace exactdp::accounting {
namespace {

const mpz_class kMaxTotalCount("1000000000000");  // 10^12

mpq_class order_q(unsigned long alpha) { return mpq_class(mpz_class(alpha)); }

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

const std::vector<unsigned long>& orders_or_default(const std::vector<unsigned long>& orders) {
  return orders.empty() ? default_rdp_orders() : orders;
}

// The minimum over `orders` of convert(composed RDP at alpha, alpha) at precision p: the
// interval [min lowers, min uppers]; `best` receives the order of the smallest upper end.
template <typename Convert>
Interval minimise_over_orders(const RdpComposition& events, const std::vector<unsigned long>& orders,
                              Neighbouring relation, mpfr_prec_t p, const Convert& convert,
                              unsigned long& best, Interval& best_rdp) {
  bool first = true;
  Interval result(p);
  for (const unsigned long alpha : orders) {
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

Interval composed_rdp(const RdpComposition& events, unsigned long alpha, Neighbouring relation,
                      mpfr_prec_t precision) {
  Interval sum(precision);
  for (const auto& [event, count] : events) {
    sum = sum + event.rdp(alpha, relation, precision) * mpq_class(mpz_class(count));
  }
  return sum;
}

Interval rdp_to_epsilon(const Interval& tau, unsigned long alpha, const mpq_class& delta) {
  const mpfr_prec_t p = tau.precision();
  const mpq_class a = order_q(alpha);
  // tau + log((a-1)/a) - (log delta + log a)/(a-1): increasing in tau; each term outward.
  const Interval eps = tau + log(Interval(mpq_class((a - 1) / a), p)) -
                       (log(Interval(delta, p)) + log(Interval(a, p))) / (a - 1);
  return max(eps, Interval(p));  // clamp below at 0
}

Interval rdp_to_delta(const Interval& tau, unsigned long alpha, const mpq_class& epsilon) {
  const mpfr_prec_t p = tau.precision();
  const mpq_class a = order_q(alpha);
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
  const std::vector<unsigned long>& orders = orders_or_default(orders_in);
  RdpAnswer answer;
  bool exact = true;
  for (const auto& [event, count] : events) exact = exact && event.rdp_is_exact();
  answer.exact_rdp = exact;
  answer.value = evaluate_to_tolerance(
      [&](mpfr_prec_t p) {
        return minimise_over_orders(events, orders, relation, p, convert, answer.order,
                                    answer.rdp_at_order);
      },
      options);
  return answer;
}

}  // namespace

RdpAnswer rdp_epsilon(const RdpComposition& events, const mpq_class& delta, Neighbouring relation,
                      const ZivOptions& options, const std::vector<unsigned long>& orders) {
  require_open_unit("delta", delta);
  return rdp_answer(events, relation, options, orders,
                    [&](const Interval& tau, unsigned long alpha) {
                      return rdp_to_epsilon(tau, alpha, delta);
                    });
}

RdpAnswer rdp_delta(const RdpComposition& events, const mpq_class& epsilon, Neighbouring relation,
                    const ZivOptions& options, const std::vector<unsigned long>& orders) {
  require_nonnegative_at_most("epsilon", epsilon, mpq_class(1'000'000'000), "10^9");
  return rdp_answer(events, relation, options, orders,
                    [&](const Interval& tau, unsigned long alpha) {
                      return rdp_to_delta(tau, alpha, epsilon);
                    });
}

// ---- DP-SGD calibration -------------------------------------------------------------------

DpSgdCalibration calibrate_dp_sgd(const mpq_class& q, unsigned long steps, const mpq_class& epsilon,
                                  const mpq_class& delta, const mpq_class& width) {
  require_positive_at_most("q", q, mpq_class(1), "1");
  if (steps == 0 || steps > 1'000'000'000UL) {
    throw ParameterError::out_of_range("steps", std::to_string(steps), "1 <= steps <= 10^9");
  }
  require_positive_at_most("epsilon", epsilon, mpq_class(10'000), "10^4");
  require_open_unit("delta", delta);
  require_positive("width", width);

  // One certified evaluation at 128 bits (a decision needs no tolerance: an undecided probe
  // ends the search with a still-certified bracket).
  unsigned long last_order = 0;
  const internal::RationalDecider decide = [&](const mpq_class& sigma, Interval& g) {
    const RdpComposition events = {{RdpEvent::poisson_gaussian(sigma, q), steps}};
    Interval rdp_at(kDefaultPrecision);
    g = minimise_over_orders(
        events, default_rdp_orders(), Neighbouring::kAddRemove, kDefaultPrecision,
        [&](const Interval& tau, unsigned long alpha) { return rdp_to_epsilon(tau, alpha, delta); },
        last_order, rdp_at);
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
  unsigned long order_hi = last_order;
  if (decide(lo, bracket.g_lo) != internal::Side::kMisses) {
    throw LimitError("epsilon", "epsilon = " + abbreviate(to_string(epsilon)) +
                                    " is already met by sigma = 10^-3, the smallest searched "
                                    "(allowed: a smaller epsilon)");
  }
  // Track the order at the upper end through the bisection.
  const internal::RationalDecider tracked = [&](const mpq_class& sigma, Interval& g) {
    const internal::Side s = decide(sigma, g);
    if (s == internal::Side::kMeets) order_hi = last_order;
    return s;
  };
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
