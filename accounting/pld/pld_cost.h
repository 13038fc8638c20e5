// pld/pld_cost.h — the cost model of the pld route: from the events, their counts, the grid
// step and the neighbouring relation, an ESTIMATE of the work and memory of pld_epsilon /
// pld_delta (pld_accountant.h), made before anything is discretised or convolved, so that a
// request that would run for minutes or exhaust memory is refused at once.
//
// The model (calibrated on this code, BENCHMARKS.md "Cost-limit refusals"; an estimate, not a
// bound, so plain doubles are used: it decides only whether to start):
//   * per event and pair order, the loss range W the discretisation covers (the same tail
//     truncation as pld_events.cc / pld_noise_atoms.cc) and the standard deviation s of the
//     loss under P (by quadrature over the noise, 2,000 points);
//   * grid points of one event: n W (n = steps per unit); ~15 us each (the Gaussian fast path)
//     or ~50 us per atom and ~1 us per grid point (the atom path);
//   * support of k composed copies: n min(k W, W + 16 s sqrt(k)) (the 2^-44 truncation of every
//     product keeps about 8 standard deviations per side); every product costs ~0.3 us per
//     point of its result (GMP's exact multiplication, unpacking, re-rounding), the
//     self-composition by squaring makes ~log2(k) of them; epsilon_at / delta_at sweep the
//     result (~0.5 us a point);
//   * memory: ~128 bytes per point of the largest product (the mass vectors, both packed
//     operands, the product and GMP's scratch).
// Events discretised from a law's own atoms (no closed-form noise, no exact mu) have a bounded
// number of atoms and are not estimated; pure-dp and zcdp events are not pld events (the route
// refuses them itself).
//
// check_pld_cost refuses (LimitError, so ParameterError: exit 2 in the CLI, "not used" with the
// reason under `compose --route auto`) when
//   * one event's grid exceeds options.discretization.max_grid_points (the replace-one
//     instance's, about twice as wide, 2 * 10^6 cells: pld_replace_instance.h): names
//     "pld-step";
//   * the estimated composed support exceeds options.max_composed_points, or the whole is over
//     the time or memory budget: names "pld-step" when the default grid
//     (default_steps_per_unit) would fit, "count" otherwise.
// Default budget: 10 s of CPU and 1 GiB (SECURITY.md, "Limits").
// Thread-safety: pure functions.
#pragma once

#include <cstddef>

#include <exactdp/accounting/rdp_accountant.h>

namespace exactdp::accounting::pld {

struct PldOptions;

struct PldCostBudget {
  double max_seconds = 10.0;
  double max_bytes = 1024.0 * 1024.0 * 1024.0;
};

struct PldCostEstimate {
  double grid_points = 0;       // the largest one event's discretisation needs
  double instance_points = 0;   // replace-one with subsampled events: the instance's cells (~2x)
  double composed_points = 0;   // the largest composed support
  double seconds = 0;           // discretisation + products + sweeps, all pair orders and chains
  double bytes = 0;             // peak
  double discretize_seconds = 0;
};

[[nodiscard]] PldCostEstimate estimate_pld_cost(const RdpComposition& events, Neighbouring relation,
                                                const PldOptions& options);

// LimitError naming "pld-step" or "count" (see above) when the estimate is over options'
// limits or budget; returns the estimate otherwise.
PldCostEstimate check_pld_cost(const RdpComposition& events, Neighbouring relation, const PldOptions& options);

}  // namespace exactdp::accounting::pld
