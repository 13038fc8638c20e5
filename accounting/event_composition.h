// event_composition.h — the certified epsilon (at a delta) or delta (at an epsilon) of an
// adaptive composition of privacy events by every route that applies, and the answer to use:
// what `exactdp compose --event ...` and exactdp.compose_events compute (both call
// compose_events below; the CLI only parses its options and prints the result).
//
// Routes (every one a theorem; docs/ACCOUNTING_SUBSAMPLED.md and docs/ACCOUNTING.md):
//   rdp    every list whose events all have RDP (rdp_accountant.h);
//   gdp, kov, basic, zcdp   the Accountant's routes (accountant.h), only when no event is
//          Poisson-subsampled;
//   pld    privacy loss distributions (pld/pld_accountant.h): when asked for; under "auto" when
//          no other route applies (its errors then propagate), or for subsampled compositions of
//          at most 10^6 events that it covers, on a capped grid (its refusal is then reported in
//          pld_detail, not thrown);
//   smoothed-pld  Theorem 5 of docs/REAL_VALUED_ACCOUNTING.md (smoothed_pld.h): vector discrete
//          Gaussian events (with Gaussian ones), plain or subsampled, under add/remove-one; when
//          asked for, and under "auto" when some event is a vector discrete Gaussian, at most 10^6
//          events, on the capped grid (its refusal then reported in smoothed_pld_detail);
//   exact  one poisson-gaussian event (count 1) under add/remove: its closed-form profile
//          (subsampled_gaussian_exact.h), the exact value enclosed; likewise one
//          poisson-discrete-gaussian step and discrete Laplace steps; otherwise at most
//          pld::kFewStepsMaxCount steps in total through the wide-mass pld (pld/pld_few_steps.h:
//          a tight certified bracket, not a closed form; under replace-one for poisson-gaussian
//          events through their proven dominating pair, or for plain events), under auto only
//          when some event is subsampled (its refusal then reported in exact_detail, or thrown
//          when no other route answered); when asked for or under auto.
// route "auto" evaluates every route that applies; any other name forces that route.
// The answer is the route with the smallest certified upper end (the first on ties, in the
// order rdp, accountant routes, pld, smoothed-pld, exact).
//
// Errors (all before any route runs, all ParameterError naming the parameter; LimitError for
// the cost limits of composition_limits.h): "delta" / "epsilon" for the target (0 < delta < 1,
// 0 <= epsilon <= 10^6), "route" for an unknown route or one that does not apply to the events,
// "pld-step" for a step given where neither pld route runs or outside 1/N with 1 <= N <= 10^7,
// "event" for an empty list, "tolerance" below 2^-700; errors of a forced route propagate.
// Thread-safety: a pure function.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

struct EventCompositionRequest {
  RdpComposition events;     // (event, count) pairs, counts >= 1
  bool want_epsilon = true;  // true: epsilon at target = delta; false: delta at target = epsilon
  mpq_class target;
  Neighbouring relation = Neighbouring::kAddRemove;
  std::string route = "auto";  // auto, rdp, pld, smoothed-pld, exact, gdp, kov, basic or zcdp
  std::optional<mpq_class> pld_step;  // the pld grid step 1/N; default pld::default_steps_per_unit
  ZivOptions options{};
};

struct EventRouteResult {
  std::string route;  // "rdp", "rdp (exact RDP)", "gdp (exact)", "pld", ...
  Interval value{kDefaultPrecision};
  bool tolerance_met = true;
};

struct EventCompositionResult {
  std::vector<EventRouteResult> routes;  // in evaluation order, at least one
  std::size_t best = 0;                  // the answer: smallest certified upper end
  std::string rdp_detail;  // order and composed RDP, when rdp ran
  std::string pld_detail;  // the grid, or why an optional pld run was not used
  std::string smoothed_pld_detail;  // ln R and the continuous run, or why it was not used
  std::string exact_detail;  // how the exact route answered a few steps (empty for a closed form)
  [[nodiscard]] const EventRouteResult& answer() const { return routes[best]; }
};

// The request's route name, checked: ParameterError naming "route" unless auto, rdp, pld,
// smoothed-pld, exact, gdp, kov, basic or zcdp.
[[nodiscard]] std::string composition_route(const std::string& name);

// "add-remove" or "replace-one"; ParameterError naming "neighbouring" otherwise.
[[nodiscard]] Neighbouring parse_neighbouring(const std::string& name);

// The target: 0 < delta < 1 when epsilon is wanted, else 0 <= epsilon <= 10^6 (ParameterError).
void validate_composition_target(bool want_epsilon, const mpq_class& target);

// The composition by every route that applies (see the top of this file).
[[nodiscard]] EventCompositionResult compose_events(const EventCompositionRequest& request);

}  // namespace exactdp::accounting
