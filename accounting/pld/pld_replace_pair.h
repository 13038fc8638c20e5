// pld/pld_replace_pair.h — the upper end of the pld route under REPLACE-ONE for the
// Poisson-subsampled Gaussian: the connect-the-dots upper chain of a proven DOMINATING pair
// (docs/ACCOUNTING.md "Replace-one with subsampled events" has the proof).
//
// Theorem (docs/ACCOUNTING.md). Let M run the Gaussian mechanism N(f(B), sigma^2 I) on a Poisson
// sample B (rate q) of the data set, where adding one record moves f by at most Delta in L2 (the
// event's sensitivity; the DP-SGD clipping norm), in any dimension. Then for replace-one
// neighbours D, D' and every eps (positive or negative)
//     H_eps(M(D) || M(D')) <= H_eps(P || Q),   P = (1 - q) N(0,1) + q N(+mu,1),
//                                               Q = (1 - q) N(0,1) + q N(-mu,1),  mu = Delta/sigma,
// where H_eps is the hockey-stick divergence (delta at eps). The pair is attained (one coordinate,
// x adds +Delta, x' adds -Delta: pld_replace_instance.h), so it is tight, and being a dominating
// pair it composes (adaptively) by composing its loss distribution.
//
// discretize_replace_pair(event, options) -> DiscretePld (Side::kUpper) on the loss grid
// l_i = i / steps_per_unit: the loss L(x) = log(dP/dQ)(x) is increasing and odd, so the loss cell
// [l_i, l_{i+1}] is the x-interval [X(l_i), X(l_{i+1})] with X the inverse of L, enclosed in
// closed form (X(l) = log(u) / mu, u the positive root of c u^2 - a (e^l - 1) u - c e^l = 0,
// a = 1 - q, c = q e^(-mu^2/2); X odd) by interval arithmetic at 128 bits. Cell masses are
// differences of normal cdf enclosures (normal_cdf_table.h) at the enclosed x-boundaries; each
// cell is split onto its two grid losses keeping its P- and Q-mass (connect the dots, as in
// pld_events.cc), upper ends rounded UP to 2^-scale_bits. Truncation as pld_replace_instance.h:
// outside [-(x0 + mu), x0 + mu] each law has at most Phi(-x0) <= 2^-tail_bits per side; the
// high-loss side goes to +infinity, the low-loss side onto the lowest grid loss. The pair is
// symmetric (Q is P reflected), so one chain serves both orders.
// Events: Poisson-subsampled Gaussian (q in (0, 1]; q = 1 is the Gaussian with a shift of
// 2 Delta). covers_replace_pair(event) says which events; ParameterError naming "route" for any
// other. LimitError naming "pld-step" beyond options.max_grid_points grid points.
// Cost: one interval inverse (~10 MPFR operations) and three cdf enclosures per grid boundary;
// about twice the boundaries of one add/remove pair order.
// discretize_replace_pair_wide(event, steps_per_unit, scale_bits, tail_bits) -> WideChain
// (wide_pld.h): the same cells, splits and tails with the masses' upper ends rounded UP to
// 2^-scale_bits as GMP integers (8 <= scale_bits <= 1024, 8 <= tail_bits <= 1000), for the
// few-step route under replace-one (pld_few_steps.h).
// Thread-safety: pure functions.
#pragma once

#include <exactdp/accounting/pld/discrete_pld.h>
#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/accounting/pld/wide_pld.h>
#include <exactdp/accounting/rdp.h>

namespace exactdp::accounting::pld {

[[nodiscard]] bool covers_replace_pair(const RdpEvent& event);
[[nodiscard]] DiscretePld discretize_replace_pair(const RdpEvent& event, const DiscretizationOptions& options);
[[nodiscard]] WideChain discretize_replace_pair_wide(const RdpEvent& event, unsigned long steps_per_unit,
                                                     unsigned scale_bits, unsigned tail_bits);

}  // namespace exactdp::accounting::pld
