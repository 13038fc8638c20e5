// federated.h — the operation `federated`: one round of distributed-noise federated learning with
// secure aggregation (mechanisms/federated/federated_plan.h; docs/FEDERATED.md, "The client
// pipeline"). The C interface (c_api/c_api_federated.cc) and Python (python/src/federated.cc,
// exactdp.federated) build a FederatedRequest from their arguments and run the plan's encoder and
// decoder; every check and limit is here (and in FederatedPlan::make), run before any bit is drawn
// or any output written.
//
// Example:
//   FederatedRequest r{.dimension = "1000", .clip = "1", .bits = "20", .clients = "100",
//                      .noise_value = "1/100"};
//   const FederatedReport report = plan_federated(r);
//   encode_client<float>(*report.plan, x, out, bits);
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/mechanisms/federated/federated_plan.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::operations {

// A Skellam share costs about 20 ns a coordinate where the lattice's mu is at most 10^7 (the
// Poisson table) and about 1.5 microseconds above (docs/FEDERATED.md, "The sampler"): above 10^7
// the padded dimension is capped so that one encoding stays within 10 s of CPU (SECURITY.md,
// "Limits"); up to 10^7 the cap is the plan's (2^24), as for the discrete Gaussian.
inline constexpr std::size_t kMaxSkellamPaddedDimension = std::size_t{1} << 20;

struct FederatedRequest {
  std::string dimension{};                  // d, an integer 1..2^24
  std::string clip{};                       // c > 0 (data units)
  std::optional<std::string> granularity{};  // k (g = 2^-k), an integer; nullopt: automatic
  std::string bits = "32";                  // 8..62
  std::string clients = "1";                // 1..2^32
  std::string dropout = "0";                // 0 <= dropout < 1
  std::string noise = mechanisms::kClientGaussian;  // or kClientSkellam
  std::string noise_value{};                // sigma2 (discrete Gaussian) or mu (Skellam), data units
  std::string beta = "1/2";                 // 2^-64..1/2
  std::string max_wrap = "1/1000000";       // 0 < max_wrap <= 1
  Seed rotation_seed{};                     // public
  bool hardened = true;                     // the isochronous discrete Gaussian (refused for Skellam)
};

// The round's accountant event, typed: each face builds its event from these fields (Python: the
// exactdp.events class of `law`); FederatedReport::event is their compose --event text.
struct FederatedEvent {
  std::string law;           // "distributed-discrete-gaussian" or "skellam"
  std::string noise;         // exact text: sigma2 of one client's share (lattice units), or skellam's
                             // mu of the surviving clients' sum
  std::uint64_t clients{};   // n (distributed-discrete-gaussian only)
  std::string dropout;       // exact text (distributed-discrete-gaussian only)
  std::string sensitivity;   // the rounded vectors' L2 bound (lattice units), exact text
  std::size_t dim{};         // D, the padded dimension
};

// The compose --event text of e: "distributed-discrete-gaussian:sigma2=...,clients=...,
// dropout=...,sensitivity=...,dim=D" or "skellam:mu=...,sensitivity=...,dim=D".
[[nodiscard]] std::string event_text(const FederatedEvent& e);

struct FederatedReport {
  std::shared_ptr<const mechanisms::FederatedPlan> plan;
  std::string norm_bound;          // the rounded vector's squared L2 norm bound, integer text
  std::string sensitivity;         // a rational upper bound on sqrt(norm_bound) (lattice units)
  std::string retry_probability;   // upper bound on one rounding attempt failing, decimal
  std::string wrap_probability;    // upper bound on any coordinate wrapping, decimal
  std::string hardened_tau;        // n D tau, the total variation the hardened shares add, decimal
  // The accountant event of the round: the law of the surviving clients' shares, dim = D, L2 =
  // sensitivity: distributed-discrete-gaussian, or skellam with mu = m mu_g (m = ceil(n (1 -
  // dropout)) survivors, mu_g the lattice's mu); event_fields typed, event their text (compose
  // --event syntax); both nullopt with the reason when the law is not in the build.
  std::optional<FederatedEvent> event_fields;
  std::optional<std::string> event;
  std::string no_event_reason;
};

// The delta of `rounds` rounds of the plan whose accounting with the exact shares' law gives
// (epsilon, delta): hardened shares (n D draws a round, each within tau_upper of the exact law in
// total variation) move the run by at most rounds n D tau_upper, charged as
// accounting/hardened_charge.h does: delta + (1 + e^epsilon) rounds n D tau_upper, enclosed (the
// upper end is the guarantee); delta itself with plain shares. Texts read exactly; checks, in
// this order: epsilon (0..10^6), delta ([0, 1]), rounds (1..10^9), each a ParameterError naming it.
[[nodiscard]] Interval hardened_run_delta(const FederatedReport& report, const std::string& epsilon,
                                          const std::string& delta, const std::string& rounds);

// Checks, in this order: the texts (dimension, clip as c, granularity, bits, clients, dropout,
// noise, the noise value as sigma2 or mu, beta, max_wrap), FederatedPlan::make (hardened refused
// for Skellam naming "hardened"), then the Skellam dimension limit (LimitError naming
// "dimension", where the lattice's mu is above 10^7).
[[nodiscard]] FederatedReport plan_federated(const FederatedRequest& request);

}  // namespace exactdp::operations
