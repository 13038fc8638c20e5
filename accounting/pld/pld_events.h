// pld/pld_events.h — the certified discretisation of one event's privacy loss distribution
// (issue 17): for each event kind an object of pld::DiscretePld (discrete_pld.h) on the
// requested side, for the requested pair order.
//
// Contract of discretize(event, order, side, options):
//   side == kUpper: the returned masses are entrywise >= those of a discrete pair that
//     DOMINATES the event's worst-case pair for `order` (pessimistic rounding of losses up, or
//     the connect-the-dots pair of Doroshenko et al. 2022), every mass rounded UP to the
//     fixed-point scale, the loss range truncated with the cut-off mass moved to +infinity
//     (upper tail) or up onto the first grid point (lower tail);
//   side == kLower: entrywise <= those of a pair DOMINATED by the worst-case pair (losses
//     rounded down, masses rounded DOWN, truncated tails dropped).
// Every probability is computed in MPFR with directed rounding (rounding direction stated per
// event in pld_events.cc).
//
// Events: the plain events of accountant.h (gaussian, discrete gaussian, laplace, discrete
// laplace, pure-dp; zcdp and gdp(mu) as the Gaussian with mu) and the Poisson-subsampled
// events of rdp.h. An event this file cannot discretise throws ParameterError naming "route"
// (the caller then reports that the pld route does not apply).
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/pld/discrete_pld.h>
#include <exactdp/accounting/rdp.h>

namespace exactdp::accounting::pld {

struct DiscretizationOptions {
  unsigned long steps_per_unit = 10000;  // loss grid step 1 / steps_per_unit
  unsigned scale_bits = 60;              // fixed-point scale of the masses (<= 62)
  // Truncation: the loss range kept is where the omitted mass on each side is at most
  // 2^-tail_bits (kUpper moves it to +infinity / onto the first grid point, kLower drops it).
  unsigned tail_bits = 60;
};

[[nodiscard]] DiscretePld discretize(const RdpEvent& event, PairOrder order, Side side,
                                     Neighbouring relation, const DiscretizationOptions& options);

// Both sides at once (they share every cdf evaluation: half the cost of two calls).
struct DiscretePldPair {
  DiscretePld upper, lower;
};
[[nodiscard]] DiscretePldPair discretize_both(const RdpEvent& event, PairOrder order,
                                              Neighbouring relation, const DiscretizationOptions& options);

}  // namespace exactdp::accounting::pld
