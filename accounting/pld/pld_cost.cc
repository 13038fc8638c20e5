// The cost model of pld_cost.h. Every number here is an estimate in double precision: it only
// decides whether the pld route starts, never enters an answer.
#include <exactdp/accounting/pld/pld_cost.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting::pld {
namespace {

constexpr double kSecondsPerBoundary = 15e-6;   // the Gaussian fast path, per grid boundary
constexpr double kSecondsPerAtom = 50e-6;      // the atom path, per atom
constexpr double kSecondsPerGridPoint = 1e-6;  // the atom path, per point of its chains
constexpr double kSecondsPerProductPoint = 3e-7;
constexpr double kSecondsPerSweepPoint = 5e-7;
constexpr double kBytesPerProductPoint = 128;
constexpr double kTruncationSpread = 16;  // 8 standard deviations on each side (2^-44 tails)

// One event's loss distribution, as the model sees it (per pair order, the larger of the two).
struct Shape {
  bool known = false;  // false: not estimated (registry laws; events the route refuses itself)
  bool fast_path = false;
  double width = 0;  // loss range discretised
  double sd = 0;     // standard deviation of the loss under P
  double atoms = 0;  // atom path: atoms of one pair order
};

double to_double(const mpq_class& v) {
  const double d = v.get_d();
  return std::isfinite(d) ? d : HUGE_VAL;
}

// log(1 - q + q e^a), without overflow.
double mixture_loss(double a, double q) {
  if (a > 0) return a + std::log(q + (1 - q) * std::exp(-a));
  return std::log1p(q * std::expm1(a));
}

// x0 with Phi(-x0) <= 2^-tail_bits, a multiple of 1/4 (pld_events.cc's truncation).
double gaussian_tail_x(unsigned tail_bits) {
  const double target = std::ldexp(1.0, -static_cast<int>(tail_bits));
  double x = 1;
  while (0.5 * std::erfc(x / std::sqrt(2.0)) > target && x < 40) x += 0.25;
  return x;
}

// Standard deviation of loss(x) under the density p over [lo, hi] (midpoint rule).
double loss_sd(double lo, double hi, const std::function<double(double)>& p, const std::function<double(double)>& loss) {
  constexpr int kPoints = 2000;
  const double h = (hi - lo) / kPoints;
  double m0 = 0, m1 = 0, m2 = 0;
  for (int i = 0; i < kPoints; ++i) {
    const double x = lo + (i + 0.5) * h;
    const double w = p(x) * h, l = loss(x);
    if (!(w > 0) || !std::isfinite(l)) continue;
    m0 += w;
    m1 += w * l;
    m2 += w * l * l;
  }
  if (!(m0 > 0)) return 0;
  return std::sqrt(std::max(0.0, m2 / m0 - (m1 / m0) * (m1 / m0)));
}

// Gaussian noise in units of sigma, mu = Delta / sigma, outcomes x in [-x0, mu + x0].
Shape gaussian_shape(double mu, double q, double x0) {
  Shape s;
  s.known = true;
  const auto a = [&](double x) { return mu * x - mu * mu / 2; };
  s.width = mixture_loss(a(mu + x0), q) - mixture_loss(a(-x0), q);
  const auto phi = [](double x) { return std::exp(-x * x / 2) / std::sqrt(2 * M_PI); };
  const auto loss = [&](double x) { return mixture_loss(a(x), q); };
  const double remove = loss_sd(-x0, mu + x0, [&](double x) { return (1 - q) * phi(x) + q * phi(x - mu); }, loss);
  const double add = loss_sd(-x0, mu + x0, phi, loss);
  s.sd = std::max(remove, add);
  return s;
}

// Laplace noise in units of its scale, eps = Delta / scale.
Shape laplace_shape(double eps, double q) {
  Shape s;
  s.known = true;
  const auto a = [&](double x) { return std::abs(x) - std::abs(x - eps); };
  s.width = mixture_loss(eps, q) - mixture_loss(-eps, q);
  const auto lap = [](double x) { return std::exp(-std::abs(x)) / 2; };
  const auto loss = [&](double x) { return mixture_loss(a(x), q); };
  const double remove = loss_sd(-40, eps + 40, [&](double x) { return (1 - q) * lap(x) + q * lap(x - eps); }, loss);
  const double add = loss_sd(-40, eps + 40, lap, loss);
  s.sd = std::max(remove, add);
  return s;
}

// The shape of `event`, or !known where the discretisation refuses the event itself (its own
// ranges, pld_events.cc and pld_noise_atoms.cc) or the model has no estimate.
Shape shape_of(const RdpEvent& event, const DiscretizationOptions& o) {
  const double q = event.is_subsampled() ? to_double(event.subsampled_q()) : 1.0;
  const double x0 = gaussian_tail_x(o.tail_bits);
  const double n = static_cast<double>(o.steps_per_unit);
  const LawPrivacy* base = event.base_maps();
  const std::optional<mpq_class> mu = base ? base->exact_mu() : event.subsampled_mu();
  if (mu) {
    if (*mu > 50 || *mu * 1000 < 1) return {};
    Shape s = gaussian_shape(to_double(*mu), q, x0);
    s.fast_path = true;
    return s;
  }
  if (const auto g = base->discrete_gaussian_noise()) {
    const double sigma = std::sqrt(to_double(g->sigma2));
    const double delta = to_double(mpq_class(g->sensitivity));
    if (!(sigma <= 2e6) || !(delta <= 2e6)) return {};
    const double x_max = std::max(1.0, (x0 + 0.25) * sigma);  // integer outcomes
    Shape s = gaussian_shape(delta / sigma, q, x_max / sigma);
    s.atoms = 2 * x_max + delta + 1;
    return s;
  }
  const std::optional<LaplaceNoise> laplace = base->laplace_noise();
  const std::optional<DiscreteLaplaceNoise> discrete = base->discrete_laplace_noise();
  if (!laplace && !discrete) return {};
  const double delta = to_double(laplace ? laplace->sensitivity : mpq_class(discrete->sensitivity));
  const double eps = delta / to_double(laplace ? laplace->scale : discrete->scale);
  if ((laplace && !(eps <= 50)) || !(delta <= 2e6)) return {};
  Shape s = laplace_shape(eps, q);
  s.atoms = laplace ? s.width * n + 2 : delta + 1;
  return s;
}

// Points of the composition of m copies of an event (grid units: width w, spread sd).
double support(double m, double w, double sd) {
  return std::min(m * w, w + kTruncationSpread * sd * std::sqrt(m)) + 1;
}

// Work of one chain: every event self-composed by squaring, then composed into the total.
struct ChainWork {
  double product_points = 0;  // sum over products of their result's points
  double largest = 0;         // the largest product
};

ChainWork chain_work(const std::vector<std::pair<Shape, unsigned long>>& events, double n) {
  ChainWork out;
  double total_width = 0, total_var = 0, widest = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Shape& s = events[i].first;
    const unsigned long k = events[i].second;
    const double w = s.width * n, sd = s.sd * n;
    const int levels = k == 0 ? 0 : 63 - __builtin_clzl(k);  // squarings
    for (int j = 1; j <= levels; ++j) out.product_points += support(std::ldexp(1.0, j), w, sd);
    const double all = support(static_cast<double>(k), w, sd);
    out.product_points += (__builtin_popcountl(k) - 1) * all;  // multiplies into the result
    out.largest = std::max({out.largest, all, support(std::ldexp(1.0, levels), w, sd)});
    total_width += static_cast<double>(k) * w;
    total_var += static_cast<double>(k) * sd * sd;
    widest = std::max(widest, w);
    if (i > 0) {  // composed into the events before
      const double acc = std::min(total_width, widest + kTruncationSpread * std::sqrt(total_var)) + 1;
      out.product_points += acc;
      out.largest = std::max(out.largest, acc);
    }
  }
  return out;
}

}  // namespace

PldCostEstimate estimate_pld_cost(const RdpComposition& events, Neighbouring relation, const PldOptions& options) {
  const DiscretizationOptions& d = options.discretization;
  const double n = static_cast<double>(d.steps_per_unit);
  const bool replace_group =
      relation == Neighbouring::kReplaceOne &&
      std::any_of(events.begin(), events.end(), [](const auto& e) { return e.first.is_subsampled(); });
  const bool symmetric = std::all_of(events.begin(), events.end(), [](const auto& e) { return is_symmetric(e.first); });
  const double orders = replace_group || symmetric ? 1 : 2;
  const double coarse = d.test_coarsening >= 1 && d.steps_per_unit % d.test_coarsening == 0 ? d.test_coarsening : 1;
  // Chains per order, in units of an upper chain: add/remove 1 upper + 2 test chains (1/coarse
  // as many points); replace-one 2 upper + 2 test chains over twice the range.
  const double upper_chains = replace_group ? 2 : 1;
  const double test_weight = (replace_group ? 4 : 2) / coarse;
  PldCostEstimate out;
  std::vector<std::pair<Shape, unsigned long>> shapes;
  for (const auto& [event, count] : events) {
    const Shape s = shape_of(event, d);
    if (!s.known) continue;
    const double grid = s.width * n;
    out.grid_points = std::max(out.grid_points, grid);
    if (replace_group) out.instance_points = std::max(out.instance_points, 2 * grid);
    const double one = s.fast_path ? grid * kSecondsPerBoundary
                                   : s.atoms * kSecondsPerAtom + grid * (1 + test_weight) * kSecondsPerGridPoint;
    out.discretize_seconds += orders * one * (replace_group ? 3 : 1);
    shapes.emplace_back(s, count);
  }
  const ChainWork work = chain_work(shapes, n);
  const double weight = orders * (upper_chains + test_weight);
  out.composed_points = work.largest;
  out.seconds = out.discretize_seconds + weight * work.product_points * kSecondsPerProductPoint +
                weight * work.largest * kSecondsPerSweepPoint;
  out.bytes = kBytesPerProductPoint * std::max(work.largest, out.grid_points * 2);
  return out;
}

namespace {

std::string rounded(double v) {
  if (!std::isfinite(v) || v >= 1e18) return "more than 10^18";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

bool over_budget(const PldCostEstimate& e, const PldCostBudget& b) {
  return !(e.seconds <= b.max_seconds) || !(e.bytes <= b.max_bytes);
}

}  // namespace

PldCostEstimate check_pld_cost(const RdpComposition& events, Neighbouring relation, const PldOptions& options) {
  const PldCostEstimate e = estimate_pld_cost(events, relation, options);
  const std::string advice = " (use a coarser --pld-step, fewer composed events, or the rdp route)";
  if (!(e.grid_points <= static_cast<double>(options.discretization.max_grid_points))) {
    throw LimitError("pld-step", "pld-step: one event's loss range needs about " + rounded(e.grid_points) +
                                     " grid points at this step, above the limit of " +
                                     std::to_string(options.discretization.max_grid_points) + advice);
  }
  constexpr double kMaxInstanceCells = 2e6;  // pld_replace_instance.cc
  if (!(e.instance_points <= kMaxInstanceCells)) {
    throw LimitError("pld-step", "pld-step: the event's replace-one loss range needs about " + rounded(e.instance_points) +
                                     " cells at this step, above the limit of 2*10^6" + advice);
  }
  const bool points_over = !(e.composed_points <= static_cast<double>(options.max_composed_points));
  if (!points_over && !over_budget(e, options.cost_budget)) return e;
  // The step is to blame when the default grid would fit.
  PldOptions coarser = options;
  coarser.discretization.steps_per_unit = default_steps_per_unit(events);
  const PldCostEstimate at_default = estimate_pld_cost(events, relation, coarser);
  const bool step_to_blame = options.discretization.steps_per_unit > coarser.discretization.steps_per_unit &&
                             !over_budget(at_default, options.cost_budget) &&
                             at_default.composed_points <= static_cast<double>(options.max_composed_points);
  const std::string name = step_to_blame ? "pld-step" : "count";
  throw LimitError(name, name + ": the pld route would take about " + rounded(e.seconds) + " s and " +
                             rounded(e.bytes / (1024.0 * 1024.0)) + " MiB for " + rounded(e.composed_points) +
                             " composed grid points (limits: " + rounded(options.cost_budget.max_seconds) + " s, " +
                             rounded(options.cost_budget.max_bytes / (1024.0 * 1024.0)) + " MiB, " +
                             std::to_string(options.max_composed_points) + " points)" + advice);
}

}  // namespace exactdp::accounting::pld
