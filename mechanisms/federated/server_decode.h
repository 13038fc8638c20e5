// server_decode.h — the server's side of a federated round (federated_plan.h; KLS21 Algorithm 2):
// the modular sum of the clients' vectors, its centred representative, the inverse rotation and
// the rescaling to data units.
//
//   add_modular:  sum_j <- (sum_j + client_j) mod 2^bits (secure aggregation, simulated);
//   decode_server: s_j in [-2^(bits-1), 2^(bits-1)) with s_j = sum_j mod 2^bits, then
//     y = S H s / 2^h (R^T = S H / 2^h: H is symmetric and H H = D I), out_i = the float nearest
//     y_i g for i < d (ties to even; exact when representable). Without wrap-around (the plan's
//     wrap_probability) out is the sum of the clients' rotated-back rounded vectors plus the
//     rotated-back noise sum, in data units.
//
// decode_server uses `sum` as its workspace (overwritten); it allocates nothing. Its uint32_t form
// (bits <= 32) reads `sum` and works in the caller's `work` (D words, overwritten): for the same
// residues it writes the same floats as the uint64_t form.
// Errors (ParameterError, before anything is written): bits (over 32, the uint32_t form only),
// sum (size != padded dimension, an entry not below 2^bits: "sum[3] = 300 is not below the
// modulus 2^8"), out (size != dimension), work (size != padded dimension);
// add_modular: client (size, an entry not below the modulus).
// double and float appear here only as storage types whose bit patterns are encoded exactly.
#pragma once

#include <cstdint>
#include <span>

#include <exactdp/mechanisms/federated/federated_plan.h>

namespace exactdp::mechanisms {

void add_modular(const FederatedPlan& plan, std::span<std::uint64_t> sum, std::span<const std::uint64_t> client);

template <class Float>
void decode_server(const FederatedPlan& plan, std::span<std::uint64_t> sum, std::span<Float> out);

template <class Float>
void decode_server(const FederatedPlan& plan, std::span<const std::uint32_t> sum, std::span<std::uint64_t> work,
                   std::span<Float> out);

}  // namespace exactdp::mechanisms
