// rdp_law_bounds.h — generic certified bounds built from a law's own RDP curve eps(alpha) (an
// upper bound on the Renyi divergence of the law's pair at every order, both pair orders), for
// the laws whose maps are an RDP bound (laws/skellam/, laws/distributed_discrete_gaussian/):
//
//   poisson_subsampled_rdp_bound(q, alpha, eps): the general upper bound of Zhu and Wang
//     ("Poisson Subsampled Renyi Differential Privacy", ICML 2019) on the RDP of the mechanism
//     Poisson-subsampled at rate q under add/remove-one, at an integer order alpha >= 2:
//       1/(alpha-1) log( (1-q)^(alpha-1) (alpha q - q + 1) + C(alpha,2) q^2 (1-q)^(alpha-2) e^eps(2)
//                        + 3 sum_{l=3}^{alpha} C(alpha,l) (1-q)^(alpha-l) q^l e^((l-1) eps(l)) ),
//     for any mechanism with that RDP curve (the form with the factor 3 that the AKL21 and KLS21
//     reference accounting uses). Increasing in every eps(l), so the upper ends of the law's
//     enclosures give an upper bound's enclosure. Orders 2 <= alpha <= 256 (alpha evaluations of
//     eps per order); the caller takes the minimum with the unsampled eps(alpha).
//   rdp_delta_over_orders(eps, epsilon): delta(epsilon) <= min over a fixed grid of orders
//     (alpha - 1 in {2^i, 3 2^(i-1)}, -12 <= i <= 16) of the conversion rdp_to_delta of
//     rdp_accountant.h (CKS20 Proposition 12); a fixed set, so the bound is non-increasing in
//     epsilon and every precision encloses the same number.
// Thread-safety: pure functions (eps is called from the calling thread only).
#pragma once

#include <gmpxx.h>

#include <functional>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// eps(alpha) at `precision`: an enclosure of the law's RDP bound at order alpha > 1.
using RdpCurve = std::function<Interval(const mpq_class& alpha, mpfr_prec_t precision)>;

inline constexpr unsigned long kMaxGeneralSubsampledOrder = 256;

// 0 < q < 1, 2 <= alpha <= kMaxGeneralSubsampledOrder (std::logic_error otherwise).
[[nodiscard]] Interval poisson_subsampled_rdp_bound(const mpq_class& q, unsigned long alpha, const RdpCurve& eps,
                                                    mpfr_prec_t precision);

// The orders at which poisson_subsampled_rdp_bound applies: integers 2..kMaxGeneralSubsampledOrder.
[[nodiscard]] bool is_general_subsampled_order(const mpq_class& alpha);

// A law's Poisson-subsampled RDP at an order of is_general_subsampled_order: the smaller of
// poisson_subsampled_rdp_bound and the unsampled eps(alpha) (std::logic_error at another order;
// `law` names the caller in that message).
[[nodiscard]] Interval subsampled_rdp_of_curve(const mpq_class& q, const mpq_class& alpha, const RdpCurve& eps,
                                               mpfr_prec_t precision, const char* law);

// epsilon >= 0; at most 1.
[[nodiscard]] Interval rdp_delta_over_orders(const RdpCurve& eps, const mpq_class& epsilon, mpfr_prec_t precision);

}  // namespace exactdp::accounting
