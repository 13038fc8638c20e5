// server_decode.cc — add_modular and decode_server (server_decode.h): the centred representative,
// the inverse rotation on 64-bit words and the exact conversion to floats.
// double and float appear here only as storage types whose bit patterns are encoded exactly
// (std::bit_cast and integer operations); no floating-point arithmetic is done on any value.
#include <exactdp/mechanisms/federated/server_decode.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/federated/hadamard.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>

namespace exactdp::mechanisms {
namespace {

void check_residues(const FederatedPlan& plan, std::span<const std::uint64_t> v, const char* name) {
  if (v.size() != plan.padded_dimension()) {
    throw ParameterError(name, std::string(name) + " has " + std::to_string(v.size()) +
                                   " entries; allowed: the padded dimension " + std::to_string(plan.padded_dimension()));
  }
  const std::uint64_t mask = plan.modulus_mask();
  for (std::size_t j = 0; j < v.size(); ++j) {
    if ((v[j] & ~mask) != 0) {
      throw ParameterError(name, std::string(name) + "[" + std::to_string(j) + "] = " + std::to_string(v[j]) +
                                     " is not below the modulus 2^" + std::to_string(plan.spec().bits));
    }
  }
}

}  // namespace

void add_modular(const FederatedPlan& plan, std::span<std::uint64_t> sum, std::span<const std::uint64_t> client) {
  check_residues(plan, client, "client");
  check_residues(plan, sum, "sum");
  const std::uint64_t mask = plan.modulus_mask();
  for (std::size_t j = 0; j < sum.size(); ++j) sum[j] = (sum[j] + client[j]) & mask;
}

template <class Float>
void decode_server(const FederatedPlan& plan, std::span<std::uint64_t> sum, std::span<Float> out) {
  check_residues(plan, sum, "sum");
  if (out.size() != plan.dimension()) {
    throw ParameterError("out", "out has " + std::to_string(out.size()) + " entries; allowed: the dimension " +
                                    std::to_string(plan.dimension()));
  }
  const std::uint64_t half = std::uint64_t{1} << (plan.spec().bits - 1);
  const std::uint64_t modulus = plan.modulus_mask() + 1;
  for (std::uint64_t& s : sum) s = s >= half ? s - modulus : s;  // two's complement of s - 2^bits
  walsh_hadamard(sum);  // |result| <= 2^(bits - 1) D <= 2^62: exact
  const long k = plan.granularity_exponent() + static_cast<long>(plan.half_log2());
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto v = static_cast<std::int64_t>(sum[i]);
    if (rotation_negates(plan.signs(), i)) v = -v;
    const bool negative = v < 0;
    const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    out[i] = encode_grid_value<Float>(negative, magnitude, k);
  }
}

template void decode_server<double>(const FederatedPlan&, std::span<std::uint64_t>, std::span<double>);
template void decode_server<float>(const FederatedPlan&, std::span<std::uint64_t>, std::span<float>);

}  // namespace exactdp::mechanisms
