// peeling_budget.h — the per-round budget of a peeling (Cai–Wang–Zhang "The cost of privacy",
// Algorithm 2) for a target (epsilon, delta), by three composition routes, certified.
//
// One round of peeling.h (report-noisy-max of |v_j| with discrete Laplace noise of scale b, then
// the chosen value with fresh noise of scale b) on a vector of per-coordinate sensitivity Lambda
// (grid units) is eps0-DP with eps0 = 3 Lambda / b: 2 Lambda / b for the argmax (the scores
// |v_j| move in either direction: selection.h) and Lambda / b for the value (discrete Laplace
// mechanism). s rounds compose adaptively; route_epsilon gives the certified total:
//   kBasic     s eps0 (exact; delta = 0);
//   kAdvanced  min(s eps0, DRV10 bound at delta) — the paper's Lemma on Peeling calibrates
//              b = 2 lambda sqrt(3 s ln(1/delta)) / epsilon with this route in mind;
//   kOptimal   the KOV optimal composition at delta (never above the other two).
// calibrate_route returns the LARGEST eps0 (found by 40 bisection steps on exact rationals, so
// within a relative 2^-40 of the largest admissible; never above it) whose certified total has
// upper end <= epsilon, and b = 3 Lambda g / eps0 in data units.
// Errors: ParameterError naming epsilon (0 < epsilon <= 1000), delta (0 < delta < 1, required by
// kAdvanced and kOptimal), rounds (1 <= s <= 10^6) or sensitivity (> 0).
// Thread-safety: pure functions. Cost: ~40 certified evaluations (KOV: O(s) each).
#pragma once

#include <gmpxx.h>

#include <optional>

#include <exactdp/core/interval.h>
#include <exactdp/mechanisms/estimation/estimation_guarantee.h>

namespace exactdp::mechanisms {

inline const mpq_class kMaxEstimationEpsilon{1000};

// Throws ParameterError unless 0 < epsilon <= 1000 and (if given) 0 < delta < 1.
void validate_privacy_target(const mpq_class& epsilon, const std::optional<mpq_class>& delta);

// The certified total epsilon of `rounds` eps0-DP rounds by `route` at delta.
[[nodiscard]] Interval route_epsilon(CompositionRoute route, const mpq_class& eps0, unsigned long rounds,
                                     const std::optional<mpq_class>& delta);

// The largest admissible eps0 for the route; noise_scale = 3 sensitivity / eps0, where
// `sensitivity` is the per-coordinate sensitivity in DATA units (Lambda g).
[[nodiscard]] RouteBudget calibrate_route(CompositionRoute route, const mpq_class& epsilon,
                                          const std::optional<mpq_class>& delta, unsigned long rounds,
                                          const mpq_class& sensitivity);

// The default route: kOptimal with a delta, kBasic without.
[[nodiscard]] CompositionRoute default_route(const std::optional<mpq_class>& delta);

// The routes to report: the chosen one first, then the others that apply (all three with a
// delta; only kBasic without). Each calibrated with calibrate_route.
[[nodiscard]] std::vector<RouteBudget> calibrate_routes(CompositionRoute chosen, const mpq_class& epsilon,
                                                        const std::optional<mpq_class>& delta,
                                                        unsigned long rounds, const mpq_class& sensitivity);

}  // namespace exactdp::mechanisms
