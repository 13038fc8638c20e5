// pld/pld_few_steps.h — a FEW composed steps (count <= kFewStepsMaxCount in total) answered
// tight: the pld construction of pld_accountant.h with wide fixed-point masses (wide_pld.h), so
// that the bracket is not dominated by the 2^-60 resolution of the uint64 masses (the "exact"
// route of `exactdp compose` for 2 <= count <= kFewStepsMaxCount; docs/ACCOUNTING_SUBSAMPLED.md
// "A few subsampled steps").
//
// For each pair order (both when an event is subsampled or a registry law, else one; one under
// replace-one, below), each event is discretised by pld::discretize_wide (pld_events.h) and
// self-composed `count` times, the events composed together (wide_pld.h). The answer:
//   delta(eps): [max over orders of delta_lower(test pair), max over orders of delta_upper(chain)];
//   epsilon(delta): [max over orders of epsilon_lower, max over orders of epsilon_upper].
// Both ends are proven bounds (wide_pld.h): the upper end from a dominating pair's masses rounded
// up, the lower end from a post-processing of the composed pair (cells of the loss).
// Precision: masses at 2^-scale_bits, scale_bits = 160 for a delta query and
// max(96, bits(1/delta) + 64) for an epsilon query; truncation (discretisation tails and every
// product) at 2^-(scale_bits - 16) per side. The grid: 1/steps_per_unit when given, else the
// finest of 1/16000, 1/8000, ..., 1/250 that the cost estimate puts within target_seconds (the
// brackets are second order in the step; at sigma = 0.8 and 2, q = 0.01, k = 2..10 they are then
// below 0.1 % wide; BENCHMARKS.md "A few subsampled steps").
// Replace-one (relation kReplaceOne) with Poisson-subsampled events, every one a Poisson-
// subsampled Gaussian: the upper end from the wide chain of the +Delta/-Delta pair
// P = (1-q) N(0,s^2) + q N(+Delta,s^2) against Q = (1-q) N(0,s^2) + q N(-Delta,s^2), proven to
// DOMINATE every replace-one pair (pld_replace_pair.h, docs/ACCOUNTING.md "Replace-one with
// subsampled events"; connect the dots, masses rounded UP), the lower end from the wide test
// pair of the same two records (pld_replace_instance.h: a pair of data sets the relation admits,
// so its cells are a post-processing of an actual neighbouring instance). One pair order: Q is
// P reflected (Q(x) = P(-x)), so both orders have one loss distribution. Plain events under
// replace-one are their own pair (their sensitivity is the relation's), as in the pld route.
// Applies (few_steps_applies): total count 1..kFewStepsMaxCount and, under add/remove, every
// event one the pld route discretises (pld::covers); under replace-one every event a
// Poisson-subsampled Gaussian, or every event plain and covered. Other subsampled laws under
// replace-one keep the pld route's group bound (no dominating pair is proven for them).
// Cost: an estimate is made before anything is discretised (pld_few_steps.cc, from pld_cost.h's
// model), which picks the default grid as above and refuses what is over options' budget
// (default 10 s, 1 GiB) even at 1/250, or at the grid given; under replace-one also a grid on
// which the instance would need more than 2*10^6 cells (pld_replace_instance.h).
// Errors: ParameterError naming "route" when it does not apply, "delta" (0 < delta < 1),
// "epsilon" (>= 0); LimitError naming "pld-step" (the grid given is over the budget), "count"
// (even 1/250 is over it) or "delta" (below 2^-600, or the mass at +infinity above it); the
// limits of the discretisation (pld_events.h).
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <string>

#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting::pld {

inline constexpr unsigned long kFewStepsMaxCount = 32;
inline constexpr unsigned long kFewStepsFinestGrid = 16000;  // the default grid's first try
inline constexpr unsigned long kFewStepsCoarsestGrid = 250;

struct FewStepsOptions {
  unsigned long steps_per_unit = 0;  // 0: the finest default grid estimated within target_seconds
  double target_seconds = 1.5;       // the default grid's aim (estimate)
  double budget_seconds = 10;        // refused beyond, by the estimate
  double budget_bytes = 1024.0 * 1024 * 1024;
};

struct FewStepsAnswer {
  Interval value{kDefaultPrecision};
  std::string grid;  // e.g. "step 1/20000, masses at 2^-160"
};

[[nodiscard]] bool few_steps_applies(const RdpComposition& events, Neighbouring relation);
[[nodiscard]] FewStepsAnswer few_steps_delta(const RdpComposition& events, const mpq_class& epsilon,
                                             Neighbouring relation = Neighbouring::kAddRemove,
                                             const FewStepsOptions& options = {});
[[nodiscard]] FewStepsAnswer few_steps_epsilon(const RdpComposition& events, const mpq_class& delta,
                                               Neighbouring relation = Neighbouring::kAddRemove,
                                               const FewStepsOptions& options = {});

}  // namespace exactdp::accounting::pld
