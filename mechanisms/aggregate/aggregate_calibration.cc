#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>

#include <stdexcept>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/core/rational_rounding.h>
#include <exactdp/laws/continuous/guarantee_privacy.h>
#include <exactdp/mechanisms/aggregate/aggregate_quantile.h>
#include <exactdp/mechanisms/aggregate/joint_gaussian_calibration.h>

namespace exactdp::mechanisms {
namespace {

mpq_class shares(const AggregateGuarantee& g) {
  return mpq_class(static_cast<unsigned long>(g.noise.size() + g.quantiles.size()));
}

// x rounded down to 3 significant digits (x > 0): floor(x 10^s) / 10^s with 100 <= x 10^s < 1000.
mpq_class round_down_significant(const mpq_class& x) {
  if (sgn(x) <= 0) throw std::logic_error("round_down_significant: x <= 0");
  long s = 2 - (static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 10)) -
                static_cast<long>(mpz_sizeinbase(x.get_den_mpz_t(), 10)));
  auto scaled = [&x](long k) {
    mpz_class p;
    mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(k < 0 ? -k : k));
    return k < 0 ? mpq_class(x / p) : mpq_class(x * p);
  };
  while (scaled(s) >= 1000) --s;
  while (scaled(s) < 100) ++s;
  const mpq_class y = scaled(s);
  const mpz_class digits = floor_of(y);
  mpz_class p;
  mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(s < 0 ? -s : s));
  mpq_class out = s < 0 ? mpq_class(digits * p) : mpq_class(digits, p);
  out.canonicalize();
  return out;
}

void calibrate_laplace(AggregateGuarantee& g, unsigned long max_groups) {
  const mpq_class n = shares(g);
  for (auto& q : g.quantiles) {
    q.epsilon = g.aggregates_epsilon / (n * max_groups);
    q.epsilon.canonicalize();
  }
  for (auto& q : g.noise) {
    q.scale = n * mpq_class(q.sensitivity.l1) / g.aggregates_epsilon;
    q.scale.canonicalize();
    q.epsilon = mpq_class(q.sensitivity.l1) / q.scale;
    q.epsilon.canonicalize();
  }
  g.aggregates_route = "pure-dp-l1";
  g.aggregates_epsilon_certified = exactdp::Interval(g.aggregates_epsilon, exactdp::kDefaultPrecision);
}

// The zCDP split's sigma2 lowered to the product profile's optimum (joint_gaussian_calibration.h)
// when the release has no quantile and a profile of the product certifies; else the split stays.
void calibrate_gaussian_jointly(AggregateGuarantee& g, unsigned long max_groups) {
  if (!g.quantiles.empty()) return;
  std::vector<mpz_class> shifts;
  std::vector<mpq_class> start;
  for (const auto& q : g.noise) {
    shifts.push_back(q.sensitivity.per_group);
    start.push_back(q.sigma2);
  }
  const auto joint = calibrate_joint_gaussian(shifts, max_groups, g.aggregates_epsilon, g.aggregates_delta, start);
  if (!joint) return;
  for (std::size_t i = 0; i < g.noise.size(); ++i) {
    g.noise[i].zcdp_sigma2 = g.noise[i].sigma2;
    g.noise[i].sigma2 = joint->sigma2[i];
    g.noise[i].rho = mpq_class(g.noise[i].sensitivity.l2_squared) / (2 * joint->sigma2[i]);
    g.noise[i].rho.canonicalize();
  }
  g.aggregates_route = joint->route;
  g.aggregates_epsilon_certified = exactdp::Interval(g.aggregates_epsilon, exactdp::kDefaultPrecision);
  g.aggregates_delta_certified = joint->delta_at;
}

void calibrate_gaussian(AggregateGuarantee& g, unsigned long max_groups) {
  const mpq_class n = shares(g);
  const mpq_class rho_share = max_zcdp_rho(g.aggregates_epsilon, g.aggregates_delta) / n;
  accounting::Accountant accountant;
  const mpq_class l0(max_groups);
  for (auto& q : g.quantiles) {
    const exactdp::Interval root = exactdp::sqrt(exactdp::Interval(mpq_class(8 * rho_share / l0), exactdp::kDefaultPrecision));
    if (!root.is_positive()) throw LimitError("epsilon", "epsilon is too small for a quantile's share");
    q.epsilon = round_down_significant(exactdp::to_mpq(root.lower()));
    q.rho = l0 * q.epsilon * q.epsilon / 8;
    q.rho.canonicalize();
    accountant.compose(laws::zcdp_event(q.rho));
  }
  for (auto& q : g.noise) {
    const mpq_class l2sq(q.sensitivity.l2_squared);
    q.sigma2 = accounting::round_up_significant(l2sq / (2 * rho_share), 3);
    q.rho = l2sq / (2 * q.sigma2);
    q.rho.canonicalize();
    accountant.compose(laws::zcdp_event(q.rho));
  }
  const accounting::AccountantAnswer answer = accountant.get_epsilon(g.aggregates_delta);
  if (!exactdp::upper_at_most(answer.value, g.aggregates_epsilon)) {
    throw std::logic_error("aggregate calibration: the composed epsilon exceeds its share");
  }
  g.aggregates_route = answer.route;
  g.aggregates_epsilon_certified = answer.value;
  calibrate_gaussian_jointly(g, max_groups);
}

}  // namespace

AggregateGuarantee calibrate_aggregate(const AggregateRequest& r) {
  validate_aggregate_request(r);
  AggregateGuarantee g;
  g.mechanism = r.mechanism;
  g.requested_epsilon = r.epsilon;
  g.requested_delta = r.delta;
  const bool gaussian = release_law_composes_by_zcdp(release_law(r.mechanism));
  g.selection_share = r.public_keys ? mpq_class(0) : r.split.value_or(kDefaultSelectionShare);
  g.aggregates_epsilon = r.epsilon * (1 - g.selection_share);
  g.aggregates_delta = gaussian ? mpq_class(*r.delta * (1 - g.selection_share)) : mpq_class(0);
  for (const auto& q : noisy_quantities(r)) g.noise.push_back({q, quantity_sensitivity(r, q), 0, 0, 0, 0, 0});
  for (const auto& o : quantile_outputs(r)) {
    g.quantiles.push_back({o, grid_points(bounds_of(r, o.column)),
                           quantile_score_sensitivity(o.q, r.bounding.max_rows), 0, 0});
  }
  if (gaussian) {
    calibrate_gaussian(g, r.bounding.max_groups);
  } else {
    calibrate_laplace(g, r.bounding.max_groups);
  }
  // Before any input is read: the bits of each quantile's scores and weights (any group size).
  for (const auto& q : g.quantiles) {
    check_quantile_cost(bounds_of(r, q.output.column), q.output.q, q.epsilon, r.bounding.max_rows,
                        mpz_class(1) << 64);
  }
  g.epsilon = g.aggregates_epsilon;
  // The product-profile route meets eps_agg itself (its delta is the one certified).
  const bool joint = g.aggregates_delta_certified.has_value();
  g.epsilon_is_exact = !gaussian || joint;
  if (gaussian && !joint) g.epsilon = exactdp::to_mpq(g.aggregates_epsilon_certified.upper());
  g.delta = g.aggregates_delta;
  if (!r.public_keys) {
    const mpq_class sel_eps = r.epsilon * g.selection_share;
    const mpq_class sel_delta = gaussian ? mpq_class(*r.delta - g.aggregates_delta) : *r.delta;
    try {
      g.selection = calibrate_partition_selection(r.selection.value_or(SelectionMethod::kOptimal),
                                                  r.bounding.max_groups, sel_eps, sel_delta);
    } catch (const LimitError& e) {  // the share is what made it too small: name --split too
      throw LimitError("split", "split = " + abbreviate(to_string(g.selection_share)) +
                                    " of epsilon for partition selection: " + e.what());
    }
    g.epsilon += sel_eps;
    g.delta += g.selection->delta_bound;
  }
  if (g.epsilon > r.epsilon || g.delta > r.delta.value_or(0)) {
    throw std::logic_error("aggregate calibration: the certified guarantee exceeds the budget");
  }
  return g;
}

}  // namespace exactdp::mechanisms
