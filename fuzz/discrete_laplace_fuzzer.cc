// discrete_laplace_fuzzer — sample_discrete_laplace (CKS20 Alg. 2) driven by a fuzzed bit source
// (fuzz_support.h: the fuzz bytes are the random bits, then ChaCha20 keyed by the input).
//
// Input: scale = t/s and a mean (ByteReader), then the bit stream.
// Invariants, draw by draw over a short sequence, each path on a fresh source over the same
// stream:
//   * the default path (128-bit when params.fast_path()), the GMP path, the int64 variant and the
//     independent reference (reference_cks20.h) return the same value and consume the same bits;
//   * fast_path() is exactly the documented condition (t and s below 2^64);
//   * the int64 variant returns std::nullopt exactly when the value does not fit in int64.
// Parameters are bounded (integers of at most 40 bytes) so one input runs in milliseconds.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz/fuzz_support.h"
#include "fuzz/reference_cks20.h"
#include "samplers/discrete_laplace.h"

namespace {

using exactdp::fuzz::ByteReader;
using exactdp::fuzz::FuzzBits;
using exactdp::fuzz::str;
namespace ref = exactdp::fuzz::reference;

constexpr std::size_t kMaxParamBytes = 40;

unsigned long long ull(std::uint64_t v) { return static_cast<unsigned long long>(v); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader in(data, size);
  const int draws = 1 + in.u8() % 4;
  const mpz_class t_in = in.positive(kMaxParamBytes);
  const mpz_class s_in = in.positive(kMaxParamBytes);
  const mpz_class mean = in.integer(kMaxParamBytes);
  mpq_class scale(t_in, s_in);
  scale.canonicalize();
  const auto params = exactdp::DiscreteLaplaceParams::make(scale, mean);
  const mpz_class& t = scale.get_num();
  const mpz_class& s = scale.get_den();
  const mpz_class k64 = mpz_class(1) << 64;
  FUZZ_CHECK(params.scale() == scale && params.mean() == mean, "params changed scale = %s",
             str(scale).c_str());
  FUZZ_CHECK(params.fast_path() == (t < k64 && s < k64), "scale = %s: fast_path() = %d",
             str(scale).c_str(), params.fast_path());

  FuzzBits b_lib(in.rest(), in.rest_size(), data, size);
  FuzzBits b_gmp(in.rest(), in.rest_size(), data, size);
  FuzzBits b_ref(in.rest(), in.rest_size(), data, size);
  FuzzBits b_i64(in.rest(), in.rest_size(), data, size);
  for (int i = 0; i < draws; ++i) {
    const mpz_class v_lib = exactdp::sample_discrete_laplace(b_lib, params);
    const mpz_class v_gmp = exactdp::sample_discrete_laplace_gmp(b_gmp, params);
    const mpz_class v_ref = ref::discrete_laplace(b_ref, t, s) + mean;
    const std::optional<std::int64_t> v_i64 = exactdp::sample_discrete_laplace_int64(b_i64, params);
    FUZZ_CHECK(v_lib == v_gmp && b_lib.bits_consumed() == b_gmp.bits_consumed(),
               "scale = %s mean = %s (fast %d), draw %d: default %s (%llu bits) vs gmp %s (%llu bits)",
               str(scale).c_str(), str(mean).c_str(), params.fast_path(), i, str(v_lib).c_str(),
               ull(b_lib.bits_consumed()), str(v_gmp).c_str(), ull(b_gmp.bits_consumed()));
    FUZZ_CHECK(v_gmp == v_ref && b_gmp.bits_consumed() == b_ref.bits_consumed(),
               "scale = %s mean = %s, draw %d: gmp %s (%llu bits) vs reference %s (%llu bits)",
               str(scale).c_str(), str(mean).c_str(), i, str(v_gmp).c_str(),
               ull(b_gmp.bits_consumed()), str(v_ref).c_str(), ull(b_ref.bits_consumed()));
    const bool fits = mpz_fits_slong_p(v_gmp.get_mpz_t()) != 0;
    FUZZ_CHECK(v_i64.has_value() == fits && (!fits || mpz_class(static_cast<long>(*v_i64)) == v_gmp) &&
                   b_i64.bits_consumed() == b_gmp.bits_consumed(),
               "scale = %s mean = %s, draw %d: int64 variant %s (%llu bits) vs %s (%llu bits)",
               str(scale).c_str(), str(mean).c_str(), i,
               v_i64 ? std::to_string(*v_i64).c_str() : "nullopt", ull(b_i64.bits_consumed()),
               str(v_gmp).c_str(), ull(b_gmp.bits_consumed()));
  }
  return 0;
}
