// smoothed_pld.h — the smoothed-pld route: Theorem 5 of docs/REAL_VALUED_ACCOUNTING.md (with its
// mixed-event form there) for compositions of vector discrete Gaussian releases, through the pld
// route of the continuous Gaussians they are compared with.
//
// Events covered (under add/remove-one only): a registry law with gaussian_smoothing()
// (law_privacy.h: vector-discrete-gaussian), plain or Poisson-subsampled, and continuous Gaussian
// events (gaussian, poisson-gaussian), in any mix, each with its own parameters. With
//   ln R = sum over law events of count * dim * ln r(t)      (lattice_log_ratio, grid_noise.h;
//                                                             a Gaussian event adds 0)
// and G the composition in which each law event is replaced by the continuous Gaussian of its
// smoothing (sigma 1, sensitivity mu, the same rate q; plain when not subsampled):
//   delta(eps) <= min(1, R delta_G(eps - 2 ln R)),   epsilon(delta) <= epsilon_G(delta / R) + 2 ln R,
// with delta_G / epsilon_G the pld route's certified upper ends (pld_accountant.h) at the target
// rounded down to a rational (eps - 2 ln R and delta / R; a smaller target only loosens G's bound).
// Answers: [G's proven lower end, the certified upper end]: the upper end is the bound to use; the
// lower end bounds the continuous composition G, NOT this one (it is what G would cost).
// Errors: ParameterError naming "route" (smoothed_pld_refusal's reason; or eps <= 2 ln R), and
// the pld route's own errors and limits. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>

#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

struct SmoothedPldAnswer {
  Interval value{kDefaultPrecision};      // epsilon or delta; upper end: the certified bound
  Interval log_ratio{kDefaultPrecision};  // ln R, enclosed
  mpq_class target_used;                  // the target given to G: delta / R or eps - 2 ln R, rounded down
  pld::PldAnswer gaussian;                // G's answer at target_used
};

// nullopt when the route applies to the events under `relation`; else why not (a sentence).
[[nodiscard]] std::optional<std::string> smoothed_pld_refusal(const RdpComposition& events, Neighbouring relation);
// Whether some event is a law event with gaussian_smoothing() (what makes `auto` run the route).
[[nodiscard]] bool has_smoothed_event(const RdpComposition& events);

[[nodiscard]] SmoothedPldAnswer smoothed_pld_epsilon(const RdpComposition& events, const mpq_class& delta,
                                                     const pld::PldOptions& options = {});
[[nodiscard]] SmoothedPldAnswer smoothed_pld_delta(const RdpComposition& events, const mpq_class& epsilon,
                                                   const pld::PldOptions& options = {});

}  // namespace exactdp::accounting
