// fl_encoder_fuzzer — the federated client encoder (mechanisms/federated/client_encode.h) on
// arbitrary parameters (fl_setup.h) and arbitrary float bit patterns (NaN with any payload,
// +-inf, subnormals, the largest values). Input: the setup bytes, one byte choosing double or
// float (bit 0) and noise off (bit 1: the exact pipeline alone), then the values' bit patterns
// (d of them, zeros past the end) and the bits of the rounding and the noise (FuzzBits).
// Invariants:
//   * never a crash or hang; a refusal is a ParameterError naming a parameter of the spec;
//   * an update holding NaN or +-inf is refused naming "x" and its FIRST such index, with out
//     untouched;
//   * otherwise every output word is below 2^bits, 1 <= attempts <= 64, and with the noise off
//     (and a modulus above every coordinate's bound) the decoded vector (decode_server of the one
//     encoding) has squared lattice norm <= norm_bound, exactly on rationals (0 when zeroed).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/fl_setup.h"
#include "fuzz/fuzz_support.h"
#include <exactdp/mechanisms/federated/client_encode.h>
#include <exactdp/mechanisms/federated/server_decode.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>

namespace {

using exactdp::fuzz::ByteReader;
namespace mech = exactdp::mechanisms;

template <class Float>
std::vector<Float> read_values(ByteReader& in, std::size_t n) {
  std::vector<Float> x(n);
  for (Float& v : x) v = exactdp::fuzz::read_float_bits<Float>(in);
  return x;
}

template <class Float>
void check_decoded_norm(const mech::FederatedPlan& plan, std::vector<std::uint64_t> sum, bool zeroed) {
  std::vector<Float> y(plan.dimension());
  mech::decode_server<Float>(plan, sum, y);
  // The floats may round; the workspace holds the exact H s after the decode (signs aside).
  mpq_class norm2 = 0;
  const long h = static_cast<long>(plan.half_log2());
  for (std::size_t i = 0; i < plan.padded_dimension(); ++i) {
    const mpq_class v(mpz_class(static_cast<long>(static_cast<std::int64_t>(sum[i]))), mpz_class(1) << h);
    norm2 += v * v;  // the rotation is orthogonal: ||R^T x~|| = ||x~||, padding included
  }
  if (zeroed) FUZZ_CHECK(norm2 == 0, "a zeroed client decodes to a nonzero vector");
  FUZZ_CHECK(norm2 <= mpq_class(plan.norm_bound()), "decoded lattice norm^2 %s > norm_bound %s",
             norm2.get_str().c_str(), plan.norm_bound().get_str().c_str());
}

template <class Float>
void run(const mech::FederatedPlan& plan, ByteReader& in, bool noise, const std::uint8_t* data, std::size_t size,
         std::size_t used) {
  const std::vector<Float> x = read_values<Float>(in, plan.dimension());
  const std::size_t offset = std::min(size, used + plan.dimension() * sizeof(Float));
  exactdp::fuzz::FuzzBits bits(data + offset, size - offset, data, size);
  std::vector<std::uint64_t> out(plan.padded_dimension(), 7);
  std::size_t first_bad = x.size();
  for (std::size_t i = 0; i < x.size() && first_bad == x.size(); ++i) {
    if (!mech::is_finite_bits(x[i])) first_bad = i;
  }
  try {
    const mech::EncodeReport r = mech::encode_client<Float>(plan, x, out, bits, noise);
    FUZZ_CHECK(first_bad == x.size(), "x[%zu] is not finite but was accepted", first_bad);
    FUZZ_CHECK(r.attempts >= 1 && r.attempts <= mech::kMaxRoundingAttempts, "attempts %u", r.attempts);
    for (std::uint64_t w : out) FUZZ_CHECK((w & ~plan.modulus_mask()) == 0, "a word not below 2^%u", plan.spec().bits);
    // The centred residues are the rounded vector itself when no coordinate can reach 2^(bits-1).
    const bool centred = plan.coordinate_bound() < (mpz_class(1) << (plan.spec().bits - 1));
    if (!noise && centred) check_decoded_norm<Float>(plan, out, r.zeroed);
  } catch (const exactdp::ParameterError& e) {
    const std::string prefix = "x[" + std::to_string(first_bad) + "] is ";
    FUZZ_CHECK(e.parameter() == "x" && std::string(e.what()).rfind(prefix, 0) == 0, "refused: %s", e.what());
    for (std::uint64_t w : out) FUZZ_CHECK(w == 7, "out written although the update was refused");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  exactdp::fuzz::init_sodium_once();
  ByteReader in(data, size);
  mech::FederatedSpec spec = exactdp::fuzz::read_fl_spec(in);
  const std::uint8_t mode = in.u8();
  const bool noise = (mode & 2) == 0;
  const auto plan = exactdp::fuzz::make_fl_plan(spec);
  if (!plan) return 0;
  const std::size_t used = exactdp::fuzz::kFlSetupBytes + 1;
  if ((mode & 1) == 0) {
    run<double>(*plan, in, noise, data, size, used);
  } else {
    run<float>(*plan, in, noise, data, size, used);
  }
  return 0;
}
