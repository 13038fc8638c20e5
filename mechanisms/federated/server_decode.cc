// server_decode.cc — add_modular and decode_server (server_decode.h): the centred representative,
// the inverse rotation on 64-bit words and the exact conversion to floats; uint32_t residues are
// checked as they are and widened into the caller's workspace.
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

template <class Residue>
void check_residues(const FederatedPlan& plan, std::span<const Residue> v, const char* name) {
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

void check_output(const FederatedPlan& plan, std::size_t size) {
  if (size != plan.dimension()) {
    throw ParameterError("out", "out has " + std::to_string(size) + " entries; allowed: the dimension " +
                                    std::to_string(plan.dimension()));
  }
}

// The decoding of checked residues, in place in `work`.
template <class Float>
void decode_checked(const FederatedPlan& plan, std::span<std::uint64_t> work, std::span<Float> out) {
  const std::uint64_t half = std::uint64_t{1} << (plan.spec().bits - 1);
  const std::uint64_t modulus = plan.modulus_mask() + 1;
  for (std::uint64_t& s : work) s = s >= half ? s - modulus : s;  // two's complement of s - 2^bits
  walsh_hadamard(work);  // |result| <= 2^(bits - 1) D <= 2^62: exact
  const long k = plan.granularity_exponent() + static_cast<long>(plan.half_log2());
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto v = static_cast<std::int64_t>(work[i]);
    if (rotation_negates(plan.signs(), i)) v = -v;
    const bool negative = v < 0;
    const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    out[i] = encode_grid_value<Float>(negative, magnitude, k);
  }
}

}  // namespace

void add_modular(const FederatedPlan& plan, std::span<std::uint64_t> sum, std::span<const std::uint64_t> client) {
  check_residues(plan, client, "client");
  check_residues<std::uint64_t>(plan, sum, "sum");
  const std::uint64_t mask = plan.modulus_mask();
  for (std::size_t j = 0; j < sum.size(); ++j) sum[j] = (sum[j] + client[j]) & mask;
}

template <class Float>
void decode_server(const FederatedPlan& plan, std::span<std::uint64_t> sum, std::span<Float> out) {
  check_residues<std::uint64_t>(plan, sum, "sum");
  check_output(plan, out.size());
  decode_checked(plan, sum, out);
}

template <class Float>
void decode_server(const FederatedPlan& plan, std::span<const std::uint32_t> sum, std::span<std::uint64_t> work,
                   std::span<Float> out) {
  const unsigned bits = plan.spec().bits;
  if (bits > 32) {
    throw ParameterError("bits", "bits = " + std::to_string(bits) + " does not fit uint32_t residues: allowed bits <= 32 "
                                                                    "(or the uint64_t decoder)");
  }
  check_residues(plan, sum, "sum");
  check_output(plan, out.size());
  if (work.size() != sum.size()) {
    throw ParameterError("work", "work has " + std::to_string(work.size()) + " entries; allowed: the padded dimension " +
                                     std::to_string(sum.size()));
  }
  for (std::size_t j = 0; j < sum.size(); ++j) work[j] = sum[j];
  decode_checked(plan, work, out);
}

template void decode_server<double>(const FederatedPlan&, std::span<std::uint64_t>, std::span<double>);
template void decode_server<float>(const FederatedPlan&, std::span<std::uint64_t>, std::span<float>);
template void decode_server<double>(const FederatedPlan&, std::span<const std::uint32_t>, std::span<std::uint64_t>,
                                    std::span<double>);
template void decode_server<float>(const FederatedPlan&, std::span<const std::uint32_t>, std::span<std::uint64_t>,
                                   std::span<float>);

}  // namespace exactdp::mechanisms
