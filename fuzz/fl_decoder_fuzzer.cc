// fl_decoder_fuzzer — the federated server decoder (mechanisms/federated/server_decode.h) on
// arbitrary parameters (fl_setup.h) and arbitrary 64-bit words as the modular sum. Input: the
// setup bytes, one byte choosing double or float (bit 0), whether the words are reduced modulo
// 2^bits first (bit 1) and whether they are cut to uint32_t residues for the uint32_t form (bit 2),
// then the words (D of them, zeros past the end).
// Invariants:
//   * never a crash or hang; a refusal is a ParameterError naming a parameter of the spec;
//   * a word not below 2^bits is refused naming "sum" and its FIRST such index, nothing written;
//   * otherwise every output is finite, and it is the float nearest its exact value: the
//     decoder's workspace holds H s (s the centred residues), checked against an independent
//     Walsh-Hadamard transform on GMP integers, and y_i against the exact rational s_i' 2^-(k+h);
//   * the uint32_t form (bits <= 32, else refused naming "bits") answers as the uint64_t form on
//     the same residues: the same floats, or the same refusal, its workspace untouched then.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fuzz/fl_setup.h"
#include "fuzz/fuzz_support.h"
#include "tests/mechanisms/grid_reference.h"
#include <exactdp/mechanisms/federated/hadamard.h>
#include <exactdp/mechanisms/federated/server_decode.h>

namespace {

using exactdp::fuzz::ByteReader;
namespace mech = exactdp::mechanisms;
namespace ts = exactdp::test_support;

// H s on GMP integers, s the centred residues (the reference of the decoder's transform).
std::vector<mpz_class> reference_transform(const mech::FederatedPlan& plan, const std::vector<std::uint64_t>& sum) {
  const unsigned bits = plan.spec().bits;
  std::vector<mpz_class> v(sum.size());
  for (std::size_t j = 0; j < sum.size(); ++j) {
    v[j] = mpz_class(static_cast<unsigned long>(sum[j]));
    if (sum[j] >= (std::uint64_t{1} << (bits - 1))) v[j] -= mpz_class(1) << bits;
  }
  for (std::size_t len = 1; len < v.size(); len <<= 1) {
    for (std::size_t start = 0; start < v.size(); start += 2 * len) {
      for (std::size_t j = start; j < start + len; ++j) {
        const mpz_class u = v[j];
        v[j] = u + v[j + len];
        v[j + len] = u - v[j + len];
      }
    }
  }
  return v;
}

template <class Float>
void run(const mech::FederatedPlan& plan, const std::vector<std::uint64_t>& sum) {
  std::size_t first_bad = sum.size();
  for (std::size_t j = 0; j < sum.size() && first_bad == sum.size(); ++j) {
    if ((sum[j] & ~plan.modulus_mask()) != 0) first_bad = j;
  }
  std::vector<Float> y(plan.dimension(), Float(7));
  std::vector<std::uint64_t> work = sum;
  try {
    mech::decode_server<Float>(plan, work, y);
    FUZZ_CHECK(first_bad == sum.size(), "sum[%zu] is not below the modulus but was accepted", first_bad);
  } catch (const exactdp::ParameterError& e) {
    const std::string prefix = "sum[" + std::to_string(first_bad) + "] = ";
    FUZZ_CHECK(e.parameter() == "sum" && std::string(e.what()).rfind(prefix, 0) == 0, "refused: %s", e.what());
    for (Float v : y) FUZZ_CHECK(v == Float(7), "out written although the sum was refused");
    return;
  }
  const std::vector<mpz_class> reference = reference_transform(plan, sum);
  const long k = plan.granularity_exponent() + static_cast<long>(plan.half_log2());
  for (std::size_t i = 0; i < y.size(); ++i) {
    mpz_class v = reference[i];
    if (mech::rotation_negates(plan.signs(), i)) v = -v;
    FUZZ_CHECK(std::isfinite(y[i]), "y[%zu] is not finite", i);
    FUZZ_CHECK(ts::is_nearest_float(y[i], mpq_class(v) * ts::power_of_two(-k)), "y[%zu] is not the float nearest", i);
  }
}

// The uint32_t form on words that fit uint32_t: the same answer as the uint64_t form.
template <class Float>
void run_narrow(const mech::FederatedPlan& plan, const std::vector<std::uint64_t>& sum) {
  const std::vector<std::uint32_t> narrow(sum.begin(), sum.end());  // every word < 2^32 here
  std::vector<std::uint64_t> wide = sum;
  std::vector<std::uint64_t> work(sum.size(), 0);
  std::vector<Float> y(plan.dimension(), Float(7));
  std::vector<Float> want(plan.dimension(), Float(7));
  std::string refused;
  try {
    mech::decode_server<Float>(plan, narrow, work, y);
  } catch (const exactdp::ParameterError& e) {
    refused = e.what();
    for (Float v : y) FUZZ_CHECK(v == Float(7), "out written although refused: %s", e.what());
    for (std::uint64_t w : work) FUZZ_CHECK(w == 0, "work written although refused: %s", e.what());
    if (plan.spec().bits > 32) {
      FUZZ_CHECK(e.parameter() == "bits", "bits > 32 refused naming %s", e.parameter().c_str());
      return;
    }
  }
  FUZZ_CHECK(plan.spec().bits <= 32, "uint32_t residues accepted at bits = %u", plan.spec().bits);
  try {
    mech::decode_server<Float>(plan, std::span<std::uint64_t>(wide), std::span<Float>(want));
    FUZZ_CHECK(refused.empty(), "uint32_t form refused what the uint64_t form decodes: %s", refused.c_str());
  } catch (const exactdp::ParameterError& e) {
    FUZZ_CHECK(refused == e.what(), "refusals differ: '%s' vs '%s'", refused.c_str(), e.what());
    return;
  }
  for (std::size_t i = 0; i < y.size(); ++i) FUZZ_CHECK(y[i] == want[i], "y[%zu] differs from the uint64_t form", i);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  exactdp::fuzz::init_sodium_once();
  ByteReader in(data, size);
  const mech::FederatedSpec spec = exactdp::fuzz::read_fl_spec(in);
  const std::uint8_t mode = in.u8();
  const auto plan = exactdp::fuzz::make_fl_plan(spec);
  if (!plan) return 0;
  std::vector<std::uint64_t> sum(plan->padded_dimension());
  for (std::uint64_t& w : sum) {
    w = in.u64();
    if ((mode & 2) != 0) w &= plan->modulus_mask();
    if ((mode & 4) != 0) w &= 0xffffffffU;
  }
  if ((mode & 4) != 0) {
    if ((mode & 1) == 0) {
      run_narrow<double>(*plan, sum);
    } else {
      run_narrow<float>(*plan, sum);
    }
    return 0;
  }
  if ((mode & 1) == 0) {
    run<double>(*plan, sum);
  } else {
    run<float>(*plan, sum);
  }
  return 0;
}
