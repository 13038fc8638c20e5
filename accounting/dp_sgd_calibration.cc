#include <exactdp/accounting/dp_sgd_calibration.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <exactdp/accounting/composition_limits.h>
#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pld/pld_cost.h>
#include <exactdp/accounting/pld/pld_wide_route.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/interval.h>
#include <exactdp/core/rational.h>
#include <exactdp/core/rational_rounding.h>

namespace exactdp::accounting {
namespace {

constexpr const char* kRdpRouteText =
    "rdp (MTZ19 sampled Gaussian at integer orders and, below 64, one fractional order, Balle et al. 2020 Thm 21)";
constexpr const char* kPldRouteText =
    "pld (privacy loss distributions of the sampled Gaussian, connect-the-dots upper chain; sigma on a "
    "decimal grid, bracketed by the rdp route)";

// 10^(floor(log10 x) - 3): four significant digits of x > 0.
mpq_class resolution_of(const mpq_class& x) {
  mpq_class r(1, 1000);  // 10^-3 at x in [1, 10)
  while (x >= r * 10'000) r *= 10;
  while (x < r * 1'000) r /= 10;
  return r;
}

mpq_class grid_up(const mpq_class& x, const mpq_class& r) {
  return mpq_class(ceil_of(x / r)) * r;
}

mpq_class grid_down(const mpq_class& x, const mpq_class& r) {
  return mpq_class(floor_of(x / r)) * r;
}

mpq_class exact_upper(const Interval& x) {
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), x.upper());  // finite: the pld route's epsilon is bounded
  return q;
}

// One sigma of the search and its pld epsilon.
struct Probe {
  mpq_class sigma;
  Interval epsilon{kDefaultPrecision};
  [[nodiscard]] mpq_class upper() const { return exact_upper(epsilon); }
};

// The pld evaluations of one request, counted.
class PldEvaluator {
 public:
  PldEvaluator(const DpSgdRequest& r, unsigned long steps_per_unit) : r_(r) {
    options_.discretization.steps_per_unit = steps_per_unit;
  }
  Probe at(const mpq_class& sigma) {
    const RdpComposition events = {{RdpEvent::poisson_gaussian(sigma, r_.q), r_.steps}};
    pld::PldAnswer a = pld::pld_epsilon(events, r_.delta, Neighbouring::kAddRemove, options_);
    ++evaluations_;
    grid_ = a.grid;
    return {sigma, std::move(a.value)};
  }
  [[nodiscard]] bool meets(const Probe& p) const { return upper_at_most(p.epsilon, r_.epsilon); }
  [[nodiscard]] std::size_t evaluations() const { return evaluations_; }
  [[nodiscard]] const std::string& grid() const { return grid_; }

 private:
  const DpSgdRequest& r_;
  pld::PldOptions options_;
  std::size_t evaluations_ = 0;
  std::string grid_;
};

// The smallest sigma the pld search evaluates: the poisson-gaussian event's range (10^-3).
const mpq_class kSmallestSigma(1, 1000);

// hi: a probe that meets (walking up from the rdp answer by 10 % steps if it does not).
Probe meeting_probe(PldEvaluator& ev, const mpq_class& start, const mpq_class& r, const mpq_class& epsilon) {
  Probe hi = ev.at(grid_up(start, r));
  for (int i = 0; i < 40 && !ev.meets(hi); ++i) hi = ev.at(grid_up(hi.sigma * mpq_class(11, 10) + r, r));
  if (!ev.meets(hi)) {
    throw LimitError("epsilon", "epsilon = " + abbreviate(to_string(epsilon)) +
                                    " is not reached by the pld route up to sigma = " + exact_decimal(hi.sigma) +
                                    " (allowed: a larger epsilon, or --route rdp)");
  }
  return hi;
}

// lo below hi that misses (hi lowered to every meeting probe on the way).
Probe missing_probe(PldEvaluator& ev, Probe& hi, const mpq_class& r, const mpq_class& epsilon) {
  for (int i = 0; i < 200; ++i) {
    mpq_class sigma = grid_down(hi.sigma * mpq_class(9, 10), r);
    if (sigma >= hi.sigma) sigma = hi.sigma - r;
    if (sigma < kSmallestSigma) break;
    Probe lo = ev.at(sigma);
    if (!ev.meets(lo)) return lo;
    hi = std::move(lo);
  }
  throw LimitError("epsilon", "epsilon = " + abbreviate(to_string(epsilon)) + " is already met at sigma = " +
                                  exact_decimal(hi.sigma) + ", the smallest the pld search reaches (allowed: a smaller "
                                  "epsilon)");
}

// Narrows [lo, hi] (lo misses, hi meets, multiples of r) to hi - lo = r: secant steps on the
// certified upper ends; after two secant steps that did not halve the bracket, one bisection step.
// At most max_evaluations evaluations.
void narrow(PldEvaluator& ev, Probe& lo, Probe& hi, const mpq_class& r, const mpq_class& target,
            std::size_t max_evaluations = 200) {
  int slow = 0;
  for (std::size_t i = 0; i < max_evaluations; ++i) {
    const mpz_class n = mpz_class(mpq_class((hi.sigma - lo.sigma) / r));
    if (n <= 1) return;
    const bool bisect = slow >= 2;
    mpz_class k = n / 2;
    const mpq_class u_lo = lo.upper(), u_hi = hi.upper();  // u_lo > target >= u_hi
    if (!bisect) {
      k = mpz_class(mpq_class((u_lo - target) / (u_lo - u_hi) * mpq_class(n)));  // floor
      if (k < 1) k = 1;
      if (k > n - 1) k = n - 1;
    }
    Probe mid = ev.at(lo.sigma + mpq_class(k) * r);
    (ev.meets(mid) ? hi : lo) = std::move(mid);
    const mpz_class left = mpz_class(mpq_class((hi.sigma - lo.sigma) / r));
    slow = bisect || 2 * left <= n ? 0 : slow + 1;
  }
}

constexpr unsigned long kFineGrid = 1000;     // coarser grids first try the fine search
constexpr double kFineSeconds = 1.5;          // its estimate per evaluation (near the rdp sigma)
constexpr std::size_t kFineEvaluations = 5;   // and its evaluations: at most 7.5 s by the estimate

// sigma (in r's grid, rounded down) where epsilon ~ sigma^-2 would reach the target from p: the
// first step of the fine search (a heuristic only: every probe is certified).
mpq_class sigma_toward(const Probe& p, const mpq_class& target, const mpq_class& r) {
  const double ratio = exact_upper(p.epsilon).get_d() / target.get_d();
  const mpq_class guess = p.sigma * mpq_class(std::sqrt(ratio));
  const mpq_class down = grid_down(guess, r);
  return down < p.sigma ? down : p.sigma - r;
}

// The fine search (dp_sgd_calibration.h): [lo, hi] on grid n to one resolution r, or nullopt.
std::optional<std::pair<Probe, Probe>> fine_bracket(PldEvaluator& ev, const mpq_class& start, const mpq_class& r,
                                                    const mpq_class& target) {
  Probe hi = ev.at(grid_up(start, r));
  if (!ev.meets(hi)) return std::nullopt;
  mpq_class next = sigma_toward(hi, target, r);
  if (next < kSmallestSigma) return std::nullopt;
  Probe lo = ev.at(next);
  while (ev.meets(lo) && ev.evaluations() < kFineEvaluations) {
    hi = std::move(lo);
    next = sigma_toward(hi, target, r) - 2 * r;
    if (next < kSmallestSigma) return std::nullopt;
    lo = ev.at(next);
  }
  if (ev.meets(lo)) return std::nullopt;
  if (ev.evaluations() < kFineEvaluations) narrow(ev, lo, hi, r, target, kFineEvaluations - ev.evaluations());
  if (hi.sigma - lo.sigma > r) return std::nullopt;
  return std::make_pair(std::move(lo), std::move(hi));
}

DpSgdAnswer pld_answer(const DpSgdRequest& r) {
  const DpSgdCalibration rdp = calibrate_dp_sgd(r.q, r.steps, r.epsilon, r.delta, mpq_class(1, 1000));
  DpSgdPldSearch search;
  search.rdp_sigma = rdp.sigma_upper;
  search.resolution = resolution_of(rdp.sigma_upper);
  const mpq_class cost_sigma = rdp.sigma_upper * mpq_class(3, 4);
  search.steps_per_unit = dp_sgd_pld_steps_per_unit(r.q, r.steps, cost_sigma, r.delta);
  std::optional<std::pair<Probe, Probe>> bracket;
  std::size_t evaluations = 0;  // the fine search's and, where it fails, the search's
  if (search.steps_per_unit < kFineGrid) {
    // its probes stay within a few per cent of the rdp sigma: costed there (5 % lower)
    const mpq_class fine_sigma = rdp.sigma_upper * mpq_class(19, 20);
    const unsigned long fine = dp_sgd_pld_steps_per_unit(r.q, r.steps, fine_sigma, r.delta, kFineSeconds);
    if (fine > search.steps_per_unit) {
      PldEvaluator fe(r, fine);
      bracket = fine_bracket(fe, rdp.sigma_upper, search.resolution, r.epsilon);
      evaluations = fe.evaluations();
      if (bracket) {
        search.steps_per_unit = fine;
        search.grid = fe.grid();
      }
    }
  }
  if (!bracket) {
    PldEvaluator ev(r, search.steps_per_unit);
    Probe hi = meeting_probe(ev, rdp.sigma_upper, search.resolution, r.epsilon);
    Probe lo = missing_probe(ev, hi, search.resolution, r.epsilon);
    narrow(ev, lo, hi, search.resolution, r.epsilon);
    evaluations += ev.evaluations();
    search.grid = ev.grid();
    bracket = std::make_pair(std::move(lo), std::move(hi));
  }
  const Probe& lo = bracket->first;
  const Probe& hi = bracket->second;
  search.evaluations = evaluations;
  search.optimal_within_resolution = lower_above(lo.epsilon, r.epsilon);
  DpSgdAnswer a;
  a.route = DpSgdRoute::kPld;
  a.route_text = kPldRouteText;
  a.calibration.sigma_lower = lo.sigma;
  a.calibration.sigma_upper = hi.sigma;
  a.calibration.epsilon_at_upper = hi.epsilon;
  a.calibration.epsilon_at_lower = lo.epsilon;
  a.calibration.width_met = hi.sigma - lo.sigma <= search.resolution;
  a.pld = std::move(search);
  return a;
}

}  // namespace

DpSgdRoute parse_dp_sgd_route(const std::string& name) {
  if (name == "pld") return DpSgdRoute::kPld;
  if (name == "rdp") return DpSgdRoute::kRdp;
  throw ParameterError("route", "unknown --route '" + abbreviate(name) + "' for dp-sgd: use pld or rdp");
}

unsigned long dp_sgd_pld_steps_per_unit(const mpq_class& q, unsigned long steps, const mpq_class& sigma,
                                        const mpq_class& delta, double max_seconds) {
  const RdpComposition events = {{RdpEvent::poisson_gaussian(sigma, q), steps}};
  const bool wide = pld::wide_route_wanted(events, delta, Neighbouring::kAddRemove);
  for (const unsigned long n : {5000UL, 2500UL, 2000UL, 1000UL, 750UL, 500UL, 250UL, 100UL}) {
    pld::PldOptions options;
    options.discretization.steps_per_unit = n;
    const pld::PldCostEstimate e = pld::estimate_pld_cost(events, Neighbouring::kAddRemove, options);
    double seconds = e.seconds, bytes = e.bytes;
    if (wide) {  // its estimate is about twice the time measured: 2 s
      const pld::WideRouteCost w = pld::estimate_wide_route(events, delta, Neighbouring::kAddRemove, options);
      seconds = w.seconds / 2;
      bytes = w.bytes;
    }
    if (seconds <= max_seconds && bytes <= 128.0 * 1024 * 1024 &&
        e.grid_points <= options.discretization.max_grid_points) {
      return n;
    }
  }
  throw LimitError("steps", "steps = " + std::to_string(steps) +
                                ": no pld grid keeps one evaluation of this DP-SGD run within 1 s and 128 MiB "
                                "(allowed: fewer steps, or --route rdp)");
}

DpSgdAnswer calibrate_dp_sgd_request(const DpSgdRequest& r) {
  check_dp_sgd_limits(r.q, r.epsilon, r.delta);  // cost limits first (composition_limits.h)
  if (r.route == DpSgdRoute::kPld) return pld_answer(r);  // the rdp search checks the ranges first
  DpSgdAnswer a;
  a.route = DpSgdRoute::kRdp;
  a.calibration = calibrate_dp_sgd(r.q, r.steps, r.epsilon, r.delta);
  a.route_text = kRdpRouteText;
  return a;
}

std::string dp_sgd_rdp_sigma_text(const DpSgdPldSearch& search) {
  return decimal_upper(Interval(search.rdp_sigma, 256).upper(), 8);
}

mpfr_prec_t dp_sgd_print_precision(const DpSgdCalibration& c, int digits) {
  return 64 + 4 * static_cast<mpfr_prec_t>(digits) +
         static_cast<mpfr_prec_t>(mpz_sizeinbase(c.sigma_upper.get_den_mpz_t(), 2)) +
         static_cast<mpfr_prec_t>(mpz_sizeinbase(c.sigma_lower.get_den_mpz_t(), 2));
}

std::string dp_sgd_sigma_to_use(const DpSgdAnswer& a, int digits) {
  const DpSgdCalibration& c = a.calibration;
  if (a.route == DpSgdRoute::kPld) return exact_decimal(c.sigma_upper);
  const Interval upper(c.sigma_upper, dp_sgd_print_precision(c, digits));
  return decimal_upper(upper.upper(), digits < 8 ? digits : 8);
}

}  // namespace exactdp::accounting
