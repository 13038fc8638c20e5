// pld/pld_replace_instance.h — the lower end of the pld route under REPLACE-ONE for Poisson-
// subsampled events (docs/ACCOUNTING.md "Replace-one with subsampled events").
//
// Under replace-one a subsampled event's sensitivity Delta bounds what ONE record adds to the
// query (the DP-SGD clipping norm): x may add +Delta and its replacement x' may add -Delta. That
// pair of records is one the relation admits, so the delta of its composed pair is a LOWER bound
// on the relation's worst case (the upper bound is pld_replace_pair.h for the Gaussian, where
// this pair is proven to dominate, pld_group_bound.h otherwise). In units of the noise,
// with N the noise law (centred at 0) and N_c = N shifted by c:
//     P = (1 - q) N + q N_(+Delta)   (x sampled or not)     against
//     Q = (1 - q) N + q N_(-Delta)   (x' sampled or not).
// For the noises here (Gaussian, discrete Gaussian, Laplace, discrete Laplace: log-concave and
// symmetric) the loss log(dP/dQ)(x) is non-decreasing and odd in x, so both orders have one loss
// distribution.
//
// discretize_replace_instance(event, options) -> TestChains (pld_atoms.h): the pair's outcomes
// grouped into atoms, each atom mapped to a loss cell, P-masses rounded DOWN, Q-masses UP and
// tilted (pld_test_bound.h turns the composed chains into the lower end):
//   * continuous noise (Gaussian, Laplace): the x-axis is cut at approximations x_i of the loss
//     inverse X(l_i) (MPFR, round to nearest). An approximate cut is still a fixed map of
//     outcomes, so the test stays a post-processing: only the cell masses must be certified, and
//     they are (cdf enclosures at the exact cut points; normal cdf by normal_cdf_table.h).
//     Gaussian tails beyond +-(x0 + mu), Phi(-x0) <= 2^-tail_bits, as in pld_events.cc.
//   * discrete noise: one atom per integer (and, for the discrete Laplace, one for each block
//     x <= -Delta and x >= Delta where the loss is constant), masses as outward intervals.
// Events: Poisson-subsampled Gaussian, discrete Gaussian, Laplace, discrete Laplace (q in (0, 1];
// q = 1 is the plain mechanism with a shift of 2 Delta). ParameterError naming "route" otherwise;
// the limits of pld_events.h / pld_noise_atoms.h (LimitError naming the parameter).
// discretize_replace_instance_wide(event, steps_per_unit, scale_bits, tail_bits) -> WideTestPair
// (wide_pld.h): the same atoms as a wide test pair (pld_atoms.h, discretize_atoms_wide_test: each
// atom labelled by its cell, P rounded DOWN and Q UP to 2^-scale_bits, the tails dropped), for the
// few-step route under replace-one (pld_few_steps.h). 8 <= scale_bits <= 1024, 8 <= tail_bits <= 1000.
// Thread-safety: pure functions.
#pragma once

#include <exactdp/accounting/pld/pld_atoms.h>
#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/accounting/pld/wide_pld.h>
#include <exactdp/accounting/rdp.h>

namespace exactdp::accounting::pld {

[[nodiscard]] TestChains discretize_replace_instance(const RdpEvent& event, const DiscretizationOptions& options);
[[nodiscard]] WideTestPair discretize_replace_instance_wide(const RdpEvent& event, unsigned long steps_per_unit,
                                                            unsigned scale_bits, unsigned tail_bits);

}  // namespace exactdp::accounting::pld
