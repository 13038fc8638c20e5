// pld/pld_wide_compose.h — the wide-mass objects (wide_pld.h) of a whole composition, event by
// event, for the two routes that use them: a few steps (pld_few_steps.h) and long compositions
// at small delta (pld_wide_route.h).
//
// WideSetup fixes the pair order, the grid 1/steps_per_unit, the scale 2^-scale_bits and the
// truncation 2^-tail_bits (discretisation tails and every product). replace_pair: the
// composition is answered through the replace-one pair of records adding +Delta and -Delta
// (every event a Poisson-subsampled Gaussian under replace-one): the upper chain from
// discretize_replace_pair_wide (proven to DOMINATE every replace-one pair, pld_replace_pair.h),
// the test pair from discretize_replace_instance_wide (a pair the relation admits,
// pld_replace_instance.h); otherwise both from discretize_wide (pld_events.h) in `order`.
// compose_wide_upper / compose_wide_test / compose_wide_both: every event's object(s)
// self-composed `count` times and the events composed together (wide_pld.h: exact products,
// directed re-rounding, truncation); _both discretises each event once for the two.
// wide_orders: the pair orders whose compositions bound the relation (both for add/remove with
// a subsampled or asymmetric event, else one; one for the replace-one pair, which is its own
// reflection).
// Errors: ParameterError naming "count" for a count of 0; the discretisations' own.
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include <exactdp/accounting/pld/discrete_pld.h>
#include <exactdp/accounting/pld/wide_pld.h>
#include <exactdp/accounting/rdp_accountant.h>

namespace exactdp::accounting::pld {

struct WideSetup {
  PairOrder order = PairOrder::kRemove;
  bool replace_pair = false;
  unsigned long steps_per_unit = 1;
  unsigned scale_bits = 128;
  unsigned tail_bits = 112;
};

// True when a composition under `relation` is answered through the replace-one pair (some
// event subsampled, relation replace-one).
[[nodiscard]] bool uses_replace_pair(const RdpComposition& events, Neighbouring relation);
[[nodiscard]] std::vector<PairOrder> wide_orders(const RdpComposition& events, Neighbouring relation);

[[nodiscard]] WideChain compose_wide_upper(const RdpComposition& events, const WideSetup& setup);
[[nodiscard]] WideTestPair compose_wide_test(const RdpComposition& events, const WideSetup& setup);
struct WideComposed {
  WideChain upper;
  WideTestPair test;
};
[[nodiscard]] WideComposed compose_wide_both(const RdpComposition& events, const WideSetup& setup);

}  // namespace exactdp::accounting::pld
