// pld/pld_events.h — the certified discretisation of one event's privacy loss distribution
// (the pld route): for one pair order, the connect-the-dots upper chain and the two cell-mass
// chains of the lower end, as pld::DiscretePld objects (discrete_pld.h).
//
// Contract of discretize(event, order, relation, options) -> DiscretizedEvent, on the loss grid
// l_i = i / steps_per_unit:
//   upper: masses entrywise >= those of the connect-the-dots pair (Doroshenko et al. 2022), a
//     discrete pair that DOMINATES the event's worst-case pair for `order`, every mass rounded
//     UP to the fixed-point scale; the truncated high-loss tail at +infinity, the low-loss tail
//     on the lowest grid loss (Side::kUpper);
//   test_p, test_q: the event's pair grouped by loss CELL: an outcome x with loss in
//     [l_{ci}, l_{c(i+1)}) is mapped to the index i (c = test_coarsening; their grid step is c/n) (outcomes outside the kept range to the first
//     index or to +infinity). This map is a post-processing, so for every composition and every
//     threshold t, the test "sum of indices >= t" has P(test) - e^eps Q(test) <= delta(eps)
//     (pld_test_bound.h turns this into the lower end). test_p holds the P-mass of every cell
//     rounded DOWN (Side::kLower; tails dropped), test_q its Q-mass rounded UP (Side::kUpper:
//     the Q-mass of the high-loss tail at +infinity, of the low-loss tail on the first index).
// Every probability is enclosed in MPFR with directed rounding (pld_events.cc says how).
//
// Events: Gaussian, GDP, discrete Gaussian, Laplace and discrete Laplace noise, plain or
// Poisson-subsampled (rdp.h) under add/remove. pure-dp and zcdp events (not a noise pair) throw
// ParameterError naming "route" (the caller then reports that the pld route does not apply).
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/pld/discrete_pld.h>
#include <exactdp/accounting/pld/wide_pld.h>
#include <exactdp/accounting/rdp.h>

namespace exactdp::accounting::pld {

struct DiscretizationOptions {
  unsigned long steps_per_unit = 10000;  // loss grid step 1 / steps_per_unit
  unsigned scale_bits = 60;              // fixed-point scale of the masses (<= 62)
  // Truncation: the x-range kept is where the omitted mass on each side is at most
  // 2^-tail_bits (moved to +infinity / onto the first grid point, or dropped, as above).
  unsigned tail_bits = 60;
  // The lower end's cells (test_p, test_q) are this many grid steps wide when that divides
  // steps_per_unit (else one step): the test loses only a fluctuation of order sqrt(steps) x
  // cell width, and a coarser cell makes those two chains this many times shorter to compose.
  unsigned test_coarsening = 4;
  // The most grid points one event's loss range may need (LimitError naming "pld-step" beyond);
  // `compose --route auto` lowers it so that pld never takes long where it was not asked for.
  unsigned long max_grid_points = 50'000'000;
};

// ParameterError naming the option unless 1 <= steps_per_unit <= 10^7 (pld-step 1/steps_per_unit)
// and 8 <= scale_bits <= 62.
void check_discretization_options(const DiscretizationOptions& options);

struct DiscretizedEvent {
  DiscretePld upper;   // Side::kUpper, connect the dots
  DiscretePld test_p;  // Side::kLower, P-mass per loss cell (index = the cell's lower grid loss)
  DiscretePld test_q;  // Side::kUpper, Q-mass per loss cell
};

[[nodiscard]] DiscretizedEvent discretize(const RdpEvent& event, PairOrder order, Neighbouring relation,
                                          const DiscretizationOptions& options);

// The same discretisation with WIDE masses (wide_pld.h) for the few-step route
// (pld_few_steps.h): upper = the connect-the-dots chain, masses rounded UP to 2^-scale_bits (tails
// as above: high to +infinity, low onto the lowest grid loss); test = the loss cells one grid step
// wide (label i for the cell [l_i, l_{i+1}], or for an atom the cell of its loss's lower end), P
// rounded DOWN and Q rounded UP, the truncated tails mapped to the dropped label (not stored).
// tail_bits sets the truncation as above (8 <= tail_bits <= 1000); scale_bits <= 1024.
// Events: as discretize(), under add/remove (a plain event's relation does not matter).
struct WideDiscretizedEvent {
  WideChain upper;
  WideTestPair test;
};
[[nodiscard]] WideDiscretizedEvent discretize_wide(const RdpEvent& event, PairOrder order, unsigned long steps_per_unit,
                                                   unsigned scale_bits, unsigned tail_bits);

// True when the pld route accounts the event under `relation` (a noise law, plain or subsampled;
// a subsampled one under replace-one through pld_accountant.h's replace-one route, since discretize()
// itself takes subsampled events under add/remove only). Parameter ranges are checked by
// discretize() itself.
[[nodiscard]] bool covers(const RdpEvent& event, Neighbouring relation);

// True when both pair orders of `event` have the same loss distribution (every event that is
// not subsampled): the accountant then composes one order only.
[[nodiscard]] bool is_symmetric(const RdpEvent& event);

}  // namespace exactdp::accounting::pld
