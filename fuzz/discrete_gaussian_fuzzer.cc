// discrete_gaussian_fuzzer — sample_discrete_gaussian (CKS20 Alg. 3) driven by a fuzzed bit
// source (fuzz_support.h: the fuzz bytes are the random bits, then ChaCha20 keyed by the input).
//
// Input: sigma2 = p/q and a mean (ByteReader), then the bit stream.
// Invariants, draw by draw over a short sequence, each path on a fresh source over the same
// stream:
//   * the default path (the table sampler up to 10^4, the bucketed envelope sampler above, CKS20 beyond its size limit), the GMP path and the
//     int64 variant return the same value and consume the same bits;
//   * CKS20 alone (128-bit when params.fast_path(), with its hand-overs to GMP), its GMP path and
//     the independent reference (reference_cks20.h) return the same value and consume the same
//     bits;
//   * t() = floor(sqrt(floor(sigma2))) + 1 exactly, and fast_path() is the documented condition
//     (p and q t below 2^64, 2 p q t^2 below 2^128);
//   * the int64 variant returns std::nullopt exactly when the value does not fit in int64.
// Parameters are bounded (integers of at most 40 bytes) so one input runs in milliseconds.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz/fuzz_support.h"
#include "fuzz/reference_cks20.h"
#include "fuzz/sampler_paths_agree.h"
#include <exactdp/samplers/discrete_gaussian.h>
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
  const mpq_class& sigma2 = input.parameter;
  const mpz_class& mean = input.mean;
  const auto params = exactdp::DiscreteGaussianParams::make(sigma2, mean);
  FUZZ_CHECK(params.sigma2() == sigma2 && params.mean() == mean, "params changed sigma2 = %s",
             str(sigma2).c_str());
  mpz_class floor_sigma2, t;
  mpz_fdiv_q(floor_sigma2.get_mpz_t(), sigma2.get_num().get_mpz_t(), sigma2.get_den().get_mpz_t());
  mpz_sqrt(t.get_mpz_t(), floor_sigma2.get_mpz_t());
  t += 1;
  FUZZ_CHECK(params.t() == t && t * t > floor_sigma2 && (t - 1) * (t - 1) <= floor_sigma2,
             "sigma2 = %s: t() = %s, expected %s", str(sigma2).c_str(), str(params.t()).c_str(),
             str(t).c_str());
  // discrete_gaussian.h: fast when p and q t fit in 64 bits and 2 p q t^2 in 128 bits.
  const mpz_class k64 = mpz_class(1) << 64, k128 = mpz_class(1) << 128;
  const mpz_class& p = sigma2.get_num();
  const mpz_class& q = sigma2.get_den();
  const bool eligible = p < k64 && q * t < k64 && 2 * p * q * t * t < k128;
  FUZZ_CHECK(params.fast_path() == eligible, "sigma2 = %s: fast_path() = %d, documented %d",
             str(sigma2).c_str(), params.fast_path(), eligible);

  // The library's own paths (default, GMP, int64), then CKS20 against the reference.
  exactdp::fuzz::check_library_and_cks20_paths(
      "sigma2 = " + str(sigma2) + " mean = " + str(mean), params.fast_path(), draws, in, data, size,
      [&](FuzzBits& b) { return exactdp::sample_discrete_gaussian(b, params); },
      [&](FuzzBits& b) { return exactdp::sample_discrete_gaussian_gmp(b, params); },
      [&](FuzzBits& b) { return exactdp::sample_discrete_gaussian_int64(b, params); },
      [&](FuzzBits& b) { return exactdp::sample_discrete_gaussian_cks20(b, params); },
      [&](FuzzBits& b) { return exactdp::sample_discrete_gaussian_cks20_gmp(b, params); },
      [&](FuzzBits& b) { return mpz_class(ref::discrete_gaussian(b, sigma2) + mean); });
  return 0;
}
