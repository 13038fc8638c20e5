#include <exactdp/accounting/rdp_order_search.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <utility>

#include <exactdp/accounting/rdp_fractional.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

constexpr mpfr_prec_t kSearchPrecision = 64;

bool every_event_supports(const RdpComposition& events, const mpq_class& alpha) {
  return std::all_of(events.begin(), events.end(), [&](const auto& e) { return e.first.supports_order(alpha); });
}

// The converted value's upper end at 64 bits, cached per order, with the evaluation budget and
// the best order seen so far.
class OrderObjective {
 public:
  OrderObjective(const RdpComposition& events, Neighbouring relation, const RdpConversion& convert)
      : events_(events), relation_(relation), convert_(convert) {}

  [[nodiscard]] bool exhausted() const { return evaluations_ >= kMaxRdpOrderEvaluations; }

  // The upper end at alpha; +inf for an order some event does not take or past the budget.
  const Real& at(const mpq_class& alpha) {
    const auto found = cache_.find(alpha);
    if (found != cache_.end()) return found->second;
    Real value(kSearchPrecision);
    mpfr_set_inf(value.get(), 1);
    if (!exhausted() && every_event_supports(events_, alpha)) {
      ++evaluations_;
      const Interval tau = composed_rdp(events_, alpha, relation_, kSearchPrecision);
      const Interval v = convert_(tau, alpha);
      mpfr_set(value.get(), v.upper(), MPFR_RNDU);
      if (alpha.get_den() == 1) {
        Real low(kSearchPrecision);
        mpfr_set(low.get(), tau.lower(), MPFR_RNDD);
        tau_lower_.emplace(alpha, std::move(low));
      }
      if (!has_best_ || mpfr_less_p(value.get(), at_best_.get())) {
        best_ = alpha;
        at_best_ = value;
        has_best_ = true;
      }
    }
    return cache_.emplace(alpha, std::move(value)).first->second;
  }
  // A lower bound on the value at alpha from the integer order n = floor(alpha) evaluated
  // before (0 when n < 2 or n was not evaluated): composed RDP is nondecreasing in the order (van
  // Erven and Harremoes 2014, Thm. 3, for each event; so for the sum), so tau(alpha) >= tau(n),
  // and both conversions increase in tau.
  Real lower_bound(const mpq_class& alpha) const {
    mpz_class n;
    mpz_fdiv_q(n.get_mpz_t(), alpha.get_num_mpz_t(), alpha.get_den_mpz_t());
    Interval tau(kSearchPrecision);
    const auto found = tau_lower_.find(mpq_class(n));
    if (found != tau_lower_.end()) tau = Interval::point(found->second.get(), kSearchPrecision);
    const Interval bound = convert_(tau, alpha);
    Real value(kSearchPrecision);
    mpfr_set(value.get(), bound.lower(), MPFR_RNDD);
    return value;
  }
  // Whether alpha's value is below beta's (both evaluated here).
  bool less(const mpq_class& alpha, const mpq_class& beta) { return mpfr_less_p(at(alpha).get(), at(beta).get()); }

  [[nodiscard]] bool has_best() const { return has_best_; }
  [[nodiscard]] const mpq_class& best() const { return best_; }

 private:
  const RdpComposition& events_;
  Neighbouring relation_;
  const RdpConversion& convert_;
  std::map<mpq_class, Real> cache_;
  std::map<mpq_class, Real> tau_lower_;  // the composed RDP's lower end at integer orders
  int evaluations_ = 0;
  bool has_best_ = false;
  mpq_class best_;
  Real at_best_{kSearchPrecision};
};

// The multiple of grain nearest x, moved into [lo, hi] (lo <= hi, both multiples of grain).
mpq_class on_grid(const mpq_class& x, const mpq_class& grain, const mpq_class& lo, const mpq_class& hi) {
  const mpq_class units = x / grain + mpq_class(1, 2);
  mpz_class k;
  mpz_fdiv_q(k.get_mpz_t(), units.get_num_mpz_t(), units.get_den_mpz_t());
  const mpq_class y = k * grain;
  return y < lo ? lo : (y > hi ? hi : y);
}

// Golden-section search for a minimum over the multiples of grain strictly inside (a, b) (a and b
// multiples of grain); the points go through f (which keeps the best). The ratio is a rational
// approximation of (sqrt 5 - 1)/2: only the speed depends on it.
void golden_section(OrderObjective& f, mpq_class a, mpq_class b, const mpq_class& grain) {
  if (b - a < 2 * grain) return;
  if (b - a <= 4 * grain) {
    for (mpq_class x = a + grain; x < b; x += grain) (void)f.at(x);
    return;
  }
  const mpq_class g(6180339887, 10000000000);
  mpq_class x1 = on_grid(b - g * (b - a), grain, a + grain, b - 2 * grain);
  mpq_class x2 = on_grid(a + g * (b - a), grain, x1 + grain, b - grain);
  while (b - a > 4 * grain && !f.exhausted()) {
    if (f.less(x1, x2)) {  // a minimum lies in (a, x2)
      b = x2;
      x2 = x1;
      if (x2 - a < 2 * grain) break;
      x1 = on_grid(b - g * (b - a), grain, a + grain, x2 - grain);
    } else {  // in (x1, b)
      a = x1;
      x1 = x2;
      if (b - x1 < 2 * grain) break;
      x2 = on_grid(a + g * (b - a), grain, x1 + grain, b - grain);
    }
  }
  if (b - a <= 4 * grain) {
    for (mpq_class x = a + grain; x < b; x += grain) (void)f.at(x);
  }
}

// f(x) - f(b) as a double (both evaluated; a selection only).
double above(OrderObjective& f, const mpq_class& x, const mpq_class& b) {
  Real d(kSearchPrecision);
  mpfr_sub(d.get(), f.at(x).get(), f.at(b).get(), MPFR_RNDN);
  return mpfr_get_d(d.get(), MPFR_RNDN);
}

// Successive parabolic interpolation on a < b < c (grid points, f(b) <= f(a), f(c)): the vertex
// of the parabola through the three points, on the grid, replaces a or c (or b, which then
// replaces a or c), at most 12 times. True when the vertex lands on b (converged on the grid);
// false when an end is not finite (a = 1) or the steps run out: the bracket is narrowed either way.
bool parabolic_steps(OrderObjective& f, mpq_class& a, mpq_class& b, mpq_class& c, const mpq_class& grain) {
  for (int step = 0; step < 12 && c - a > 2 * grain && !f.exhausted(); ++step) {
    if (!mpfr_number_p(f.at(a).get()) || !mpfr_number_p(f.at(c).get())) return false;
    const double da = mpq_class(a - b).get_d(), dc = mpq_class(c - b).get_d();
    const double fa = above(f, a, b), fc = above(f, c, b);
    const double denominator = da * fc - dc * fa;  // < 0 unless the three points are collinear
    if (!(denominator < 0)) return false;
    const double offset = 0.5 * (da * da * fc - dc * dc * fa) / denominator;
    if (!std::isfinite(offset)) return false;
    const mpq_class x = on_grid(b + mpq_class(offset), grain, a + grain, c - grain);
    if (x == b) return true;
    const bool better = f.less(x, b);
    if (better == (x < b)) c = better ? b : x;  // the minimum is left of b (x better), or x is right of it
    if (better != (x < b)) a = better ? b : x;
    if (better) b = x;
  }
  return false;
}

// After an integer refinement: from the best order, one step at a time up (then down) while the
// next integer inside (lo, hi) is better. The value can rise steeply just past its minimum (the
// subsampled Gaussian's RDP turns towards the plain Gaussian's at large orders), where a
// parabola through three far points lands on the wrong side; each step costs one integer order.
void walk_integers(OrderObjective& f, const mpq_class& lo, const mpq_class& hi) {
  for (const int direction : {1, -1}) {
    for (mpq_class next = f.best() + direction; next > lo && next < hi && !f.exhausted(); next += direction) {
      const mpq_class before = f.best();
      (void)f.at(next);
      if (f.best() == before) break;
    }
  }
}

// Step 1 (rdp_order_search.h), integer candidates: every one <= 64, then upward until 4
// successive ones are worse than the best.
void scan_integers(OrderObjective& f, const std::vector<mpq_class>& orders) {
  int worse = 0;
  for (const mpq_class& alpha : orders) {
    if (alpha.get_den() != 1) continue;
    if (alpha > 64 && worse >= 4) break;
    (void)f.at(alpha);
    worse = f.best() == alpha ? 0 : worse + 1;  // at() moves best() only to a strictly better order
  }
}

// Step 1, fractional candidates: each one evaluated unless a lower bound on its value proves it
// no better than the best so far (then it cannot be the best candidate either).
void scan_fractions(OrderObjective& f, const std::vector<mpq_class>& orders) {
  for (const mpq_class& alpha : orders) {
    if (alpha.get_den() == 1) continue;
    if (f.has_best() && !mpfr_less_p(f.lower_bound(alpha).get(), f.at(f.best()).get())) continue;
    (void)f.at(alpha);
  }
}

// The best candidate: the best order evaluated by the scan.
std::size_t best_candidate(OrderObjective& f, const std::vector<mpq_class>& orders) {
  scan_integers(f, orders);
  scan_fractions(f, orders);
  return static_cast<std::size_t>(std::find(orders.begin(), orders.end(), f.best()) - orders.begin());
}

// Step 3: the best order evaluated and the best candidate.
std::vector<mpq_class> chosen_orders(const OrderObjective& f, const mpq_class& candidate) {
  std::vector<mpq_class> chosen = {f.best()};
  if (f.best() != candidate) chosen.push_back(candidate);
  return chosen;
}

[[noreturn]] void refuse_without_orders(const RdpComposition& events, Neighbouring relation) {
  for (const auto& [event, count] : events) {
    if (!event.has_rdp()) (void)event.rdp(2UL, relation, kSearchPrecision);  // its own error, naming the route
  }
  throw ParameterError("order", "order: no default RDP order applies to every event");
}

}  // namespace

const std::vector<mpq_class>& rdp_candidate_orders() {
  static const std::vector<mpq_class> orders = [] {
    std::vector<mpq_class> o;
    for (const unsigned long a : default_rdp_orders()) o.emplace_back(mpz_class(a));
    for (long k = 11; k <= 109; ++k) {
      if (k % 10 != 0) o.emplace_back(k, 10);
    }
    for (mpq_class& a : o) a.canonicalize();
    std::sort(o.begin(), o.end());
    return o;
  }();
  return orders;
}

std::vector<mpq_class> select_rdp_orders(const RdpComposition& events, Neighbouring relation,
                                         const RdpConversion& convert, const mpq_class& fractional_below) {
  std::vector<mpq_class> orders = rdp_candidate_orders();
  std::erase_if(orders, [&](const mpq_class& alpha) { return !every_event_supports(events, alpha); });
  if (orders.empty()) refuse_without_orders(events, relation);
  OrderObjective f(events, relation, convert);
  const std::size_t best = best_candidate(f, orders);
  const mpq_class candidate = orders[best];
  mpq_class hi = best + 1 < orders.size() ? orders[best + 1] : candidate;
  const mpq_class lo = best > 0 ? orders[best - 1] : mpq_class(1);
  const mpq_class fractional_cap = std::min(fractional_below, mpq_class(kMaxFractionalOrder));
  const bool fractional = candidate < fractional_cap && every_event_supports(events, mpq_class(3, 2));
  if (fractional) hi = std::min(hi, fractional_cap);
  const mpq_class grain = fractional ? mpq_class(mpz_class(1), mpz_class(1UL << kRdpOrderGridBits)) : mpq_class(1);
  mpq_class a = lo, b = candidate, c = hi;
  if (!(a < b && b < c && parabolic_steps(f, a, b, c, grain))) golden_section(f, a, c, grain);
  if (!fractional) walk_integers(f, lo, hi);
  return chosen_orders(f, candidate);
}

}  // namespace exactdp::accounting
