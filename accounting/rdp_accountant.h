// rdp_accountant.h — certified RDP accounting: composition of RdpEvents (rdp.h) over a set of
// integer orders, conversion to (epsilon, delta)-DP, and DP-SGD noise calibration.
//
// Composition (Mironov 2017 Prop. 1): the RDP of an adaptive composition is at most the sum of
// the RDPs at each order; for the events marked exact in rdp.h it EQUALS the sum for the product
// of the worst-case pairs. Computed as sum count_i * rdp_i(alpha) with outward rounding.
//
// Conversion (Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm. 21; the same expression follows
// from Canonne-Kamath-Steinke 2020 Prop. 12 solved for epsilon): an (alpha, tau)-RDP mechanism
// is (epsilon, delta)-DP for 0 < delta < 1 with
//     epsilon(alpha) = tau + log((alpha-1)/alpha) - (log delta + log alpha) / (alpha - 1),
// and, for a target epsilon >= 0 (CKS20 Prop. 12),
//     delta(alpha)   = exp((alpha-1)(tau - epsilon) + (alpha-1) log(1 - 1/alpha) - log alpha).
// Both are increasing in tau, so evaluating them on the certified tau interval with outward
// rounding encloses the theorem's value at that alpha. epsilon is clamped below at 0 ((eps,
// delta)-DP with eps < 0 implies it at 0) and delta above at 1. Minimising over the order set
// keeps the bound valid (any alpha gives a theorem): the answer interval is
//     [min_alpha lower(alpha), min_alpha upper(alpha)],
// which contains min_alpha of the theorem's values; its UPPER end is the certified bound to use.
// The LOWER end is the same route's value, not a lower bound on the mechanism's true epsilon
// (RDP conversion is not tight); the PLD route gives a meaningful lower end.
//
// Orders: default_rdp_orders() = 2..64, 72..128 step 8, 144..256 step 16, 320..512 step 64,
// 768, 1024, 1536, 2048, 3072, 4096 (every order is a valid choice; the set only affects
// tightness; orders an event does not take, e.g. above 256 for poisson-laplace, are left out).
// With the default (empty) set the orders are first SELECTED at 64 bits by a search over real
// orders alpha > 1 (rdp_order_search.h: those integers and Opacus' / dp_accounting's fractional
// orders 1.1..10.9 as candidates, then golden-section search on a 2^-20 grid between the best
// candidate's neighbours); nothing about a selection needs to be certified: every order gives a
// theorem. The certified set is the search's best order and the best candidate; it is fixed
// BEFORE the Ziv loop, so every precision encloses the minimum over the same set.
//
// Precision: the whole minimum is recomputed by the Ziv driver (ziv.h) until its relative
// width meets options.tolerance.
// Limits: counts >= 1, sum of counts <= 10^12, at least one event; delta in (0, 1);
// epsilon in [0, 10^9]. Errors: ParameterError naming the parameter.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <utility>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

using RdpComposition = std::vector<std::pair<RdpEvent, unsigned long>>;  // event, count

[[nodiscard]] const std::vector<unsigned long>& default_rdp_orders();

// The composed RDP sum_i count_i rdp_i(alpha), outward rounded at `precision`; alpha an integer
// or (where every event supports_order) a fraction.
[[nodiscard]] Interval composed_rdp(const RdpComposition& events, const mpq_class& alpha,
                                    Neighbouring relation, mpfr_prec_t precision);

// The conversions at one order alpha > 1, from a tau interval (rounded outward, see above).
[[nodiscard]] Interval rdp_to_epsilon(const Interval& tau, const mpq_class& alpha,
                                      const mpq_class& delta);
[[nodiscard]] Interval rdp_to_delta(const Interval& tau, const mpq_class& alpha,
                                    const mpq_class& epsilon);

struct RdpAnswer {
  Certified value;            // epsilon or delta; value.value.upper() is the bound to use
  mpq_class order = 0;        // the order whose upper end is the smallest (may be fractional)
  Interval rdp_at_order{kDefaultPrecision};  // the composed RDP there
  bool exact_rdp = false;     // every event's RDP is exact (rdp.h), so rdp_at_order is too
};

// Smallest certified epsilon over `orders` (if empty: the orders of the real-order search, above)
// at delta.
[[nodiscard]] RdpAnswer rdp_epsilon(const RdpComposition& events, const mpq_class& delta,
                                    Neighbouring relation = Neighbouring::kAddRemove,
                                    const ZivOptions& options = {},
                                    const std::vector<unsigned long>& orders = {});
// Smallest certified delta over `orders` at epsilon.
[[nodiscard]] RdpAnswer rdp_delta(const RdpComposition& events, const mpq_class& epsilon,
                                  Neighbouring relation = Neighbouring::kAddRemove,
                                  const ZivOptions& options = {},
                                  const std::vector<unsigned long>& orders = {});

// ---- DP-SGD calibration -----------------------------------------------------------------------
// The noise multiplier sigma (noise N(0, sigma^2 C^2) on a sum of per-example gradients clipped
// to norm C: a poisson-gaussian event with sigma, sensitivity 1, rate q, `steps` times) whose
// certified RDP epsilon at delta is <= epsilon. Certified bisection over sigma (the RDP of the
// sampled Gaussian decreases in sigma at every order, so the route's epsilon over a FIXED order
// set is monotone). The set: the integer default orders plus the fractional orders rdp_epsilon's
// real-order search picks at the sigma_upper of a coarse search over the integers alone:
//   epsilon_at(sigma.upper) <= target is PROVEN  (sigma_to_use = sigma_upper),
//   epsilon_at(sigma.lower) >  target is PROVEN  (no smaller sigma on this route reaches it).
// The bracket is narrowed to relative width <= `width` (default 10^-6).
struct DpSgdCalibration {
  mpq_class sigma_lower, sigma_upper;  // exact rationals
  Interval epsilon_at_upper{kDefaultPrecision};  // <= target (upper end)
  Interval epsilon_at_lower{kDefaultPrecision};  // > target (lower end)
  mpq_class order_at_upper = 0;  // the order that proves sigma_upper (may be fractional)
  bool width_met = true;
};
// Limits: 0 < q <= 1, 1 <= steps <= 10^9, 0 < epsilon <= 10^4, 0 < delta < 1; sigma searched in
// [10^-3, 10^6] (LimitError naming epsilon when the target is not reachable there).
[[nodiscard]] DpSgdCalibration calibrate_dp_sgd(const mpq_class& q, unsigned long steps,
                                                const mpq_class& epsilon, const mpq_class& delta,
                                                const mpq_class& width = mpq_class(1, 1'000'000));

}  // namespace exactdp::accounting
