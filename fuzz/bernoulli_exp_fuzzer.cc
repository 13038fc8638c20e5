// bernoulli_exp_fuzzer — uniform integers, Bernoulli(p) and Bernoulli(exp(-gamma)) driven by a
// fuzzed bit source (fuzz_support.h: the fuzz bytes are the random bits, then ChaCha20).
//
// Input: parameter bytes (read by ByteReader), then the bit stream.
// Invariants, for every draw of a short sequence on fresh sources over the same stream:
//   uniform below n: the 64-bit, 128-bit and GMP versions and the reference return the same
//     value < n and consume the same bits;
//   Bernoulli(p): the library and the reference agree in value and bits; p = 0 and p = 1 draw
//     no bits and return 0 and 1;
//   Bernoulli(exp(-gamma)): sample_bernoulli_exp (fast path when eligible), the GMP path and the
//     reference agree in value and bits; gamma = 0 returns 1 and draws no bits.
// Parameters are bounded (at most 48-byte integers) so one input runs in well under a millisecond.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_support.h"
#include "fuzz/reference_cks20.h"
#include <exactdp/samplers/bernoulli.h>
#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/uniform.h>

namespace {

using exactdp::uint128;
using exactdp::fuzz::ByteReader;
using exactdp::fuzz::FuzzBits;
using exactdp::fuzz::str;
namespace ref = exactdp::fuzz::reference;

constexpr std::size_t kMaxParamBytes = 48;

mpz_class to_mpz(uint128 v) {
  mpz_class out(static_cast<unsigned long>(v >> 64));
  out <<= 64;
  out += static_cast<unsigned long>(static_cast<std::uint64_t>(v));
  return out;
}

bool fits_uint128(const mpz_class& v) { return sgn(v) >= 0 && mpz_sizeinbase(v.get_mpz_t(), 2) <= 128; }

uint128 to_uint128(const mpz_class& v) {
  mpz_class high = v >> 64;
  mpz_class low = v - (high << 64);
  return (static_cast<uint128>(mpz_get_ui(high.get_mpz_t())) << 64) | mpz_get_ui(low.get_mpz_t());
}

void fuzz_uniform(ByteReader& in, const std::uint8_t* data, std::size_t size, int draws) {
  const mpz_class n = in.positive(kMaxParamBytes);
  FuzzBits b_gmp(in.rest(), in.rest_size(), data, size);
  FuzzBits b_ref(in.rest(), in.rest_size(), data, size);
  FuzzBits b_128(in.rest(), in.rest_size(), data, size);
  FuzzBits b_64(in.rest(), in.rest_size(), data, size);
  const bool use_128 = fits_uint128(n);
  const bool use_64 = mpz_sizeinbase(n.get_mpz_t(), 2) <= 64;
  for (int i = 0; i < draws; ++i) {
    const mpz_class v_gmp = exactdp::sample_uniform_below(b_gmp, n);
    const mpz_class v_ref = ref::uniform_below(b_ref, n);
    FUZZ_CHECK(v_gmp >= 0 && v_gmp < n, "uniform: %s not below n = %s", str(v_gmp).c_str(), str(n).c_str());
    FUZZ_CHECK(v_gmp == v_ref && b_gmp.bits_consumed() == b_ref.bits_consumed(),
               "uniform n = %s: gmp %s (%llu bits) vs reference %s (%llu bits)", str(n).c_str(),
               str(v_gmp).c_str(), static_cast<unsigned long long>(b_gmp.bits_consumed()),
               str(v_ref).c_str(), static_cast<unsigned long long>(b_ref.bits_consumed()));
    if (use_128) {
      const uint128 v = exactdp::sample_uniform_below(b_128, to_uint128(n));
      FUZZ_CHECK(to_mpz(v) == v_gmp && b_128.bits_consumed() == b_gmp.bits_consumed(),
                 "uniform n = %s: 128-bit %s vs gmp %s", str(n).c_str(), str(to_mpz(v)).c_str(),
                 str(v_gmp).c_str());
    }
    if (use_64) {
      const std::uint64_t v = exactdp::sample_uniform_below(b_64, static_cast<std::uint64_t>(mpz_get_ui(n.get_mpz_t())));
      FUZZ_CHECK(mpz_class(static_cast<unsigned long>(v)) == v_gmp && b_64.bits_consumed() == b_gmp.bits_consumed(),
                 "uniform n = %s: 64-bit %llu vs gmp %s", str(n).c_str(),
                 static_cast<unsigned long long>(v), str(v_gmp).c_str());
    }
  }
}

void fuzz_bernoulli(ByteReader& in, const std::uint8_t* data, std::size_t size, int draws) {
  const mpz_class b = in.positive(kMaxParamBytes);
  mpz_class a = in.natural(kMaxParamBytes);
  if (a > b) a = a % (b + 1);
  mpq_class p(a, b);
  p.canonicalize();
  const auto params = exactdp::BernoulliParams::make(p);
  FUZZ_CHECK(params.p() == p, "BernoulliParams changed p = %s", str(p).c_str());
  FuzzBits b_lib(in.rest(), in.rest_size(), data, size);
  FuzzBits b_ref(in.rest(), in.rest_size(), data, size);
  for (int i = 0; i < draws; ++i) {
    const bool v_lib = exactdp::sample_bernoulli(b_lib, params);
    const bool v_ref = ref::bernoulli(b_ref, p.get_num(), p.get_den());
    FUZZ_CHECK(v_lib == v_ref && b_lib.bits_consumed() == b_ref.bits_consumed(),
               "bernoulli p = %s: library %d (%llu bits) vs reference %d (%llu bits)", str(p).c_str(),
               v_lib, static_cast<unsigned long long>(b_lib.bits_consumed()), v_ref,
               static_cast<unsigned long long>(b_ref.bits_consumed()));
  }
  if (p == 0 || p == 1) {
    FUZZ_CHECK(b_lib.bits_consumed() == 0, "bernoulli p = %s drew bits", str(p).c_str());
  }
}

void fuzz_bernoulli_exp(ByteReader& in, const std::uint8_t* data, std::size_t size, int draws) {
  const mpz_class num = in.natural(kMaxParamBytes);
  const mpz_class den = in.positive(kMaxParamBytes);
  mpq_class gamma(num, den);
  gamma.canonicalize();
  const auto params = exactdp::BernoulliExpParams::make(gamma);
  FUZZ_CHECK(params.gamma() == gamma, "BernoulliExpParams changed gamma = %s", str(gamma).c_str());
  // bernoulli_exp.h: the fast path runs when numerator and denominator fit in 128 bits.
  const bool eligible = fits_uint128(gamma.get_num()) && fits_uint128(gamma.get_den());
  FUZZ_CHECK(params.fast_path() == eligible, "gamma = %s: fast_path() = %d, documented %d",
             str(gamma).c_str(), params.fast_path(), eligible);
  FuzzBits b_lib(in.rest(), in.rest_size(), data, size);
  FuzzBits b_gmp(in.rest(), in.rest_size(), data, size);
  FuzzBits b_ref(in.rest(), in.rest_size(), data, size);
  for (int i = 0; i < draws; ++i) {
    const bool v_lib = exactdp::sample_bernoulli_exp(b_lib, params);
    const bool v_gmp = exactdp::sample_bernoulli_exp_gmp(b_gmp, params);
    const bool v_ref = ref::bernoulli_exp(b_ref, gamma.get_num(), gamma.get_den());
    FUZZ_CHECK(v_lib == v_gmp && b_lib.bits_consumed() == b_gmp.bits_consumed(),
               "bernoulli_exp gamma = %s (fast %d): default %d (%llu bits) vs gmp %d (%llu bits)",
               str(gamma).c_str(), params.fast_path(), v_lib,
               static_cast<unsigned long long>(b_lib.bits_consumed()), v_gmp,
               static_cast<unsigned long long>(b_gmp.bits_consumed()));
    FUZZ_CHECK(v_gmp == v_ref && b_gmp.bits_consumed() == b_ref.bits_consumed(),
               "bernoulli_exp gamma = %s: gmp %d (%llu bits) vs reference %d (%llu bits)",
               str(gamma).c_str(), v_gmp, static_cast<unsigned long long>(b_gmp.bits_consumed()),
               v_ref, static_cast<unsigned long long>(b_ref.bits_consumed()));
  }
  if (gamma == 0) {
    FUZZ_CHECK(b_lib.bits_consumed() == 0, "bernoulli_exp gamma = 0 drew bits");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader in(data, size);
  const std::uint8_t mode = in.u8();
  const int draws = 1 + in.u8() % 4;
  switch (mode % 4) {
    case 0:
      fuzz_uniform(in, data, size, draws);
      break;
    case 1:
      fuzz_bernoulli(in, data, size, draws);
      break;
    default:
      fuzz_bernoulli_exp(in, data, size, draws);
      break;
  }
  return 0;
}
