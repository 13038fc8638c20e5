// discrete_laplace_fuzzer — sample_discrete_laplace (CKS20 Alg. 2) driven by a fuzzed bit source
// (fuzz_support.h: the fuzz bytes are the random bits, then ChaCha20 keyed by the input).
//
// Input: scale = t/s and a mean (ByteReader), then the bit stream.
// Invariants, draw by draw over a short sequence, each path on a fresh source over the same
// stream:
//   * the default path (the table sampler inside its range, else CKS20), the GMP path and the
//     int64 variant return the same value and consume the same bits;
//   * CKS20 alone (128-bit when params.fast_path()), its GMP path and the independent reference
//     (reference_cks20.h) return the same value and consume the same bits;
//   * fast_path() is exactly the documented condition (t and s below 2^64);
//   * the int64 variant returns std::nullopt exactly when the value does not fit in int64.
// Parameters are bounded (integers of at most 40 bytes) so one input runs in milliseconds.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz/fuzz_support.h"
#include "fuzz/reference_cks20.h"
#include "fuzz/sampler_paths_agree.h"
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>

namespace {

using exactdp::fuzz::ByteReader;
using exactdp::fuzz::FuzzBits;
using exactdp::fuzz::str;
namespace ref = exactdp::fuzz::reference;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader in(data, size);
  const exactdp::fuzz::LawInput input = exactdp::fuzz::read_law_input(in);
  const int draws = input.draws;
  const mpq_class& scale = input.parameter;
  const mpz_class& mean = input.mean;
  const auto params = exactdp::DiscreteLaplaceParams::make(scale, mean);
  const mpz_class& t = scale.get_num();
  const mpz_class& s = scale.get_den();
  const mpz_class k64 = mpz_class(1) << 64;
  FUZZ_CHECK(params.scale() == scale && params.mean() == mean, "params changed scale = %s",
             str(scale).c_str());
  FUZZ_CHECK(params.fast_path() == (t < k64 && s < k64), "scale = %s: fast_path() = %d",
             str(scale).c_str(), params.fast_path());

  // The library's own paths (default, GMP, int64), then CKS20 against the reference.
  exactdp::fuzz::check_library_and_cks20_paths(
      "scale = " + str(scale) + " mean = " + str(mean), params.fast_path(), draws, in, data, size,
      [&](FuzzBits& b) { return exactdp::sample_discrete_laplace(b, params); },
      [&](FuzzBits& b) { return exactdp::sample_discrete_laplace_gmp(b, params); },
      [&](FuzzBits& b) { return exactdp::sample_discrete_laplace_int64(b, params); },
      [&](FuzzBits& b) { return exactdp::sample_discrete_laplace_cks20(b, params); },
      [&](FuzzBits& b) { return exactdp::sample_discrete_laplace_cks20_gmp(b, params); },
      [&](FuzzBits& b) { return mpz_class(ref::discrete_laplace(b, t, s) + mean); });
  return 0;
}
