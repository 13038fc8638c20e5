// aggregate_calibration.h — calibrate_aggregate: the budget split, the noise of every noisy
// quantity and the certified guarantee of the whole `exactdp aggregate` release
// (docs/AGGREGATE.md, "Budget and composition").
//
// Split: without --keys, partition selection (partition_selection.h; the request's method,
// optimal by default) gets the share s of epsilon
// (--split, default 1/3) and the aggregates the rest; of delta, selection gets all of it with
// discrete Laplace aggregates (they need none) and the share s with discrete Gaussian ones.
// With --keys there is no selection (s = 0, --split refused).
// Aggregates: the n noisy quantities (aggregate_request.h) share the aggregates' budget equally:
//   discrete Laplace: quantity i gets scale t_i = n L1_i / eps_agg, so its privacy loss is at most
//     L1_i / t_i = eps_agg / n; basic composition: exactly eps_agg-DP (route "pure-dp-l1").
//   discrete Gaussian: rho_max = max_zcdp_rho(eps_agg, delta_agg) (release_calibration.h); quantity
//     i gets sigma2_i = L2_i^2 / (2 rho_max / n) rounded up to 3 significant digits, hence is
//     (L2_i^2 / (2 sigma2_i))-zCDP (CKS20 Prop. 5 with the L2 norm over groups: the Renyi
//     divergence of independent discrete Gaussians adds over coordinates); the quantities are
//     composed by the project's accountant (accounting/accountant.h), whose certified epsilon at
//     delta_agg must be <= eps_agg. Then, without quantiles, every sigma2_i is lowered by one
//     common factor to the optimum of a certified profile of the product of the L0 n discrete
//     Gaussians shifted by their per-group bounds (joint_gaussian_calibration.h; route
//     "product-profile (exact)" or "product-profile (smoothed)": delta(eps_agg) certified
//     <= delta_agg), for any n and L0 when every sigma2_i >= 2; otherwise the zCDP split stays.
// Quantiles (aggregate_quantile.h) take equal shares alongside the noisy quantities (n + m shares
// for n quantities and m quantiles); quantile j's exponential mechanism is eps_j-DP per group
// and a unit changes at most L0 groups:
//   discrete Laplace: eps_j = eps_agg / ((n + m) L0) exactly (basic composition);
//   discrete Gaussian: an eps-DP exponential mechanism is eps-bounded-range, hence
//     (eps^2 / 8)-zCDP (Cesar and Rogers, "Bounding, concentrating, and truncating: unifying
//     privacy loss composition for data analytics", ALT 2021, Lemma 3.2), and the L0 groups'
//     mechanisms are independent: rho_j = L0 eps_j^2 / 8 with eps_j the lower end of
//     sqrt(8 rho_share / L0) rounded down to 3 significant digits, composed by the accountant.
// Whole release: the selected key set is released first, the aggregates on it second; for every
// fixed key set the aggregates have the bounds above, so adaptive basic composition gives
//   epsilon <= eps_sel + eps_agg(certified),  delta <= delta_sel(bound) + delta_agg,
// both computed as exact rationals from the certified upper ends and checked <= the request.
// Errors: ParameterError naming epsilon, delta or split. Thread-safety: pure function.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/mechanisms/aggregate/aggregate_request.h>
#include <exactdp/mechanisms/aggregate/partition_selection.h>

namespace exactdp::mechanisms {

inline const mpq_class kDefaultSelectionShare(1, 3);

struct QuantityNoise {
  NoisyQuantity quantity;
  QuantitySensitivity sensitivity;
  mpq_class scale;    // discrete Laplace t (grid steps); 0 for the Gaussian
  mpq_class sigma2;   // discrete Gaussian sigma2 (grid steps); 0 for Laplace
  mpq_class epsilon;  // Laplace: L1 / t, exact
  mpq_class rho;      // Gaussian: L2^2 / (2 sigma2), exact
  mpq_class zcdp_sigma2;  // Gaussian, product-profile routes: the zCDP split's sigma2 it replaced; else 0
};

struct QuantileNoise {
  AggregateOutput output;   // kind kQuantile: column and q
  mpz_class candidates;     // grid points
  mpz_class sensitivity;    // of the score, per group: Linf max(a, b - a)
  mpq_class epsilon;        // of the exponential mechanism, per group
  mpq_class rho;            // Gaussian: L0 epsilon^2 / 8 (zCDP of the whole quantile); 0 for Laplace
};

struct AggregateGuarantee {
  std::string mechanism = "discrete-laplace";  // a law of release_law_names()
  mpq_class requested_epsilon;
  std::optional<mpq_class> requested_delta;
  mpq_class selection_share;  // s (0 with --keys)
  std::optional<PartitionSelection> selection;
  mpq_class aggregates_epsilon;  // the aggregates' share of epsilon
  mpq_class aggregates_delta;    // and of delta (0 with discrete Laplace)
  std::vector<QuantityNoise> noise;
  std::vector<QuantileNoise> quantiles;
  std::string aggregates_route;  // "pure-dp-l1" or the accountant's route
  exactdp::Interval aggregates_epsilon_certified{exactdp::kDefaultPrecision};
  // product-profile routes: the product's certified delta at aggregates_epsilon (upper <= aggregates_delta)
  std::optional<exactdp::Interval> aggregates_delta_certified;
  mpq_class epsilon;  // an exact upper bound on the whole release's epsilon, <= requested
  mpq_class delta;    // an exact upper bound on the whole release's delta, <= requested
  bool epsilon_is_exact = false;  // the bound is the exact composed value (no rounding)
};

[[nodiscard]] AggregateGuarantee calibrate_aggregate(const AggregateRequest& request);

}  // namespace exactdp::mechanisms
