#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>

#include <stdexcept>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

void calibrate_laplace(AggregateGuarantee& g) {
  const mpq_class n(static_cast<unsigned long>(g.noise.size()));
  for (auto& q : g.noise) {
    q.scale = n * mpq_class(q.sensitivity.l1) / g.aggregates_epsilon;
    q.scale.canonicalize();
    q.epsilon = mpq_class(q.sensitivity.l1) / q.scale;
    q.epsilon.canonicalize();
  }
  g.aggregates_route = "pure-dp-l1";
  g.aggregates_epsilon_certified = exactdp::Interval(g.aggregates_epsilon, exactdp::kDefaultPrecision);
}

void calibrate_gaussian(AggregateGuarantee& g) {
  const mpq_class n(static_cast<unsigned long>(g.noise.size()));
  const mpq_class rho_share = max_zcdp_rho(g.aggregates_epsilon, g.aggregates_delta) / n;
  accounting::Accountant accountant;
  for (auto& q : g.noise) {
    const mpq_class l2sq(q.sensitivity.l2_squared);
    q.sigma2 = accounting::round_up_significant(l2sq / (2 * rho_share), 3);
    q.rho = l2sq / (2 * q.sigma2);
    q.rho.canonicalize();
    accountant.compose(accounting::PrivacyEvent::zcdp(q.rho));
  }
  const accounting::AccountantAnswer answer = accountant.get_epsilon(g.aggregates_delta);
  if (!exactdp::upper_at_most(answer.value, g.aggregates_epsilon)) {
    throw std::logic_error("aggregate calibration: the composed epsilon exceeds its share");
  }
  g.aggregates_route = answer.route;
  g.aggregates_epsilon_certified = answer.value;
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
  for (const auto& q : noisy_quantities(r)) g.noise.push_back({q, quantity_sensitivity(r, q), 0, 0, 0, 0});
  if (gaussian) {
    calibrate_gaussian(g);
  } else {
    calibrate_laplace(g);
  }
  g.epsilon = g.aggregates_epsilon;
  g.epsilon_is_exact = !gaussian;
  if (gaussian) g.epsilon = exactdp::to_mpq(g.aggregates_epsilon_certified.upper());
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
