// rdp_order_search.h — which orders the rdp route certifies: a search over REAL orders alpha > 1
// (not a fixed grid), done at 64 bits; the route then certifies the minimum over the few orders
// it returns (rdp_accountant.h). Nothing about a selection needs to be certified: every order
// alpha > 1 gives a theorem (Balle et al. 2020 Thm. 21 / CKS20 Prop. 12), so the search only has
// to be good; the bound at the order it returns is certified by the caller.
//
// Candidates: default_rdp_orders() (integers 2..4096) and the fractional orders the common
// floating-point accountants use by default, 1.1, 1.2, ..., 10.9 (Opacus' RDP accountant:
// [1 + x/10 for x in 1..99] + 12..63; dp_accounting's RdpAccountant: the same fractions +
// 11..63, 128, 256, 512, 1024 — every integer there is a default order), as exact fractions
// k/10. Only the orders every event supports (RdpEvent::supports_order) are used; a fractional
// candidate drops out when an event takes integer orders only.
//
// 1. Scan (64 bits): every integer candidate <= 64 is evaluated; above 64 the integers are
//    scanned upward until 4 successive ones are worse than the best (the converted value grows
//    with the order there in practice: RDP grows, the conversion's penalty shrinks). Then every
//    fractional candidate is evaluated unless it is PROVEN no better than the best so far: the
//    composed RDP is nondecreasing in the order (van Erven and Harremoes 2014, Thm. 3), so the
//    conversion of the composed RDP at floor(alpha) (0 below 2) bounds the value at alpha from
//    below. So the best candidate is at least as good as every peer order up to 64 (Opacus'
//    whole set) and every larger one the scan reached.
// 2. Refinement (64 bits) on the bracket between the best candidate's two neighbours (the lower
//    end is 1, itself excluded, when best is the smallest candidate), over rationals on a grid of
//    2^-20 when the candidate is below kFractionalRefinementBelow (64) and every event takes
//    fractional orders; otherwise over the integers: successive parabolic interpolation (at most 12 steps) until the vertex
//    lands on the best point, else golden-section search on what is left of the bracket. The
//    converted value is smooth and unimodal in practice; where it is not, the search only finds
//    a worse point, never an invalid one.
// 3. The orders returned: the search's best point and the best candidate (one if they agree),
//    so the certified answer is at most the certified value at the best candidate.
//
// Budget: at most kMaxRdpOrderEvaluations evaluations at 64 bits in all (each one composed RDP
// at one order, rdp.h's costs), then the search stops with the best point found so far.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <functional>
#include <vector>

#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/rdp_fractional.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// A conversion of the composed RDP tau at order alpha: rdp_to_epsilon / rdp_to_delta at the
// fixed target (smaller is better).
using RdpConversion = std::function<Interval(const Interval& tau, const mpq_class& alpha)>;

// The most evaluations at 64 bits one selection makes (scan and golden-section together).
inline constexpr int kMaxRdpOrderEvaluations = 320;
// Step 2 refines over fractional orders only when the best candidate is below this; above, over
// the integers between its neighbours (then one integer at a time from the best while better).
// There a fractional order of a Poisson-subsampled event costs 0.3-1.5 s (the three-region
// series; one event at sigma = 5, q = 0.01 took 13 s to select order 229.6) and an integer one
// milliseconds. Where the converted value is flat at its minimum, the best integer is within
// second order of the best real order (about 10^-6 of epsilon at order 128); where it rises
// steeply just past it (the RDP turning towards the plain Gaussian's), the integer below gives
// up to the slope times 1 (0.3 % of epsilon at that event: order 229).
inline constexpr unsigned long kFractionalRefinementBelow = 128;
// The golden-section grid for fractional orders: multiples of 2^-kRdpOrderGridBits.
inline constexpr int kRdpOrderGridBits = 20;

// The candidates of step 1, ascending: default_rdp_orders() and k/10 for k = 11..109.
[[nodiscard]] const std::vector<mpq_class>& rdp_candidate_orders();

// Steps 1-3 above: one or two orders, the best point first. ParameterError naming "order" when
// no candidate applies to every event (an event without RDP throws its own error, naming "route").
// fractional_below: step 2 searches fractional orders only when the best candidate is below it,
// else the integers between the candidate's neighbours (kFractionalRefinementBelow by default).
[[nodiscard]] std::vector<mpq_class> select_rdp_orders(const RdpComposition& events, Neighbouring relation,
                                                       const RdpConversion& convert,
                                                       const mpq_class& fractional_below = mpq_class(kFractionalRefinementBelow));

}  // namespace exactdp::accounting
