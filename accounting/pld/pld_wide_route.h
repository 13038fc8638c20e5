// pld/pld_wide_route.h — long compositions at small delta (DP-SGD over 10^4 to 10^6 steps,
// delta down to 10^-12): the pld route's epsilon with WIDE fixed-point masses (wide_pld.h), so
// that neither the rounding of the masses nor the truncation of the tails piles up over the
// compositions into a share of delta (docs/ACCOUNTING.md "Long compositions at small delta").
//
// Why: with the 2^-60 masses of discrete_pld.h every product rounds each of its N coefficients by
// up to one unit and moves up to 2^-44 per side into +infinity; repeated squaring doubles what
// the earlier levels left, so after k steps about k (N 2^-60 + 2^-43) of mass is misplaced: at
// k = 10^5 and N = 5*10^4 about 10^-8, the whole of a delta of 10^-8 (the bracket was
// [8.41, 8.88] where the peers answer 8.585; at 10^-9 the mass at +infinity alone was above
// delta). Here the budget is set from the query instead:
//   tail_bits  = max(60, bits(1/delta) + bits(k) + 16): every product moves at most
//                2^-tail_bits per side (and each event's discretisation drops as much), 2k of
//                them in effect: at most delta / 2^15 in all, and never more per product than
//                the 60-bit route moves;
//   scale_bits = tail_bits + bits(N) + 2 for the upper chain: its rounding, about 2k N 2^-s,
//                stays below delta / 2^16 (N the estimated composed support);
//   the test pair of the lower end at scale_bits + ceil(eps_upper log2 e) + 4: its Q masses are
//                multiplied by e^eps, so they need that many more bits to keep delta's.
// For each pair order (pld_wide_compose.h: both for subsampled add/remove, one for symmetric
// events and the replace-one pair) the connect-the-dots chain is composed and its epsilon_upper
// taken; the lower end is the test pair (one grid step per cell) of the order with the largest
// upper end only (a lower bound from any pair the relation admits is a lower bound). Both ends
// are proven bounds, as in the 60-bit route; the grid is options.discretization.steps_per_unit.
// Applies (wide_route_wanted): 2^-600 <= delta < k 2^-36 (k the total count, where the 60-bit
// route's misplaced mass reaches about 2^-10 delta), every event one the pld route discretises under
// add/remove (pld::covers), under replace-one every event a Poisson-subsampled Gaussian or every
// event plain.
// Cost: estimated before anything is discretised from pld_cost.h's support model (widened for
// the finer truncation) at ~2*10^-8 s per point and bit of every product and ~2 us per point of
// each query (kSecondsPerPointBit, kSecondsPerQueryPoint in pld_wide_route.cc; measured there);
// wide_pld_epsilon returns nullopt when the estimate is over options.cost_budget, and the caller
// answers with the 60-bit route.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <optional>

#include <exactdp/accounting/pld/pld_accountant.h>

namespace exactdp::accounting::pld {

[[nodiscard]] bool wide_route_wanted(const RdpComposition& events, const mpq_class& delta, Neighbouring relation);

// The estimate wide_pld_epsilon checks against options.cost_budget before any work (seconds of
// CPU, peak bytes; ParameterError naming "delta" outside 0 < delta < 1).
struct WideRouteCost {
  double seconds = 0, bytes = 0;
};
[[nodiscard]] WideRouteCost estimate_wide_route(const RdpComposition& events, const mpq_class& delta,
                                                Neighbouring relation, const PldOptions& options);

// The answer, or nullopt when the cost estimate is over options.cost_budget. Errors: as
// pld_epsilon (pld_accountant.h); LimitError naming "delta" when no epsilon is certifiable.
[[nodiscard]] std::optional<PldAnswer> wide_pld_epsilon(const RdpComposition& events, const mpq_class& delta,
                                                        Neighbouring relation, const PldOptions& options);

// Delta queries (pld_delta) of compositions of at least 2^10 events: the same construction at
// epsilon, sized as an epsilon query at delta = 2^-64 (no delta is known before the answer:
// truncation 2^-(80 + bits(k)) per product, so the misplaced mass stays below 2^-79 where the
// 60-bit route's reaches k 2^-43); delta = [max over orders of delta_upper, delta_lower of the
// test pair of the order with the largest upper end] (wide_pld.h). nullopt when the estimate is
// over options.cost_budget (the caller answers with the 60-bit route). wide_delta_route_wanted:
// the count and the events as wide_route_wanted's.
[[nodiscard]] bool wide_delta_route_wanted(const RdpComposition& events, Neighbouring relation);
[[nodiscard]] std::optional<PldAnswer> wide_pld_delta(const RdpComposition& events, const mpq_class& epsilon,
                                                      Neighbouring relation, const PldOptions& options);

}  // namespace exactdp::accounting::pld
