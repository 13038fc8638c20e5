// float_array_fuzzer — the grid noise of float arrays (mechanisms/grid_noise/grid_noise.h) on
// arbitrary bit patterns: NaN (any payload), +-inf, -0.0, subnormals, the largest values.
//
// Input: byte 0 chooses double or float (bit 0), the law (bit 1), the thread count (1..3, bits
// 2-6) and the hardened (isochronous) samplers (bit 7); bytes 1-2 the granularity exponent k
// (biased to |k| <= 1100, up to +-4096); byte 3 the noise in grid units (sigma / g or scale / g =
// 2^(b % 48 - 16)); the rest are the array's bit patterns (at most 2048 values). Invariants:
//   * never a crash or hang; the only exception is ParameterError;
//   * hardened: a noise outside the hardened samplers' range (sigma2 / g^2 or scale / g below
//     1/100) is refused with ParameterError naming "granularity"; inside it, the same checks as
//     below, the draws replayed one by one through the hardened sampler (a batch gives exactly the
//     values and bits of single draws);
//   * an array holding NaN or +-inf is refused with ParameterError naming "x" and the FIRST such
//     index ("x[i] is NaN; allowed: finite values"), and the output is left untouched;
//   * otherwise every output is finite, and the grid mapping and the output conversion agree with
//     an independent exact computation (tests/mechanisms/grid_reference.h, GMP rationals): the
//     draws Z_i are replayed from the same seed through the law's own sampler (sample(), one by
//     one), and y_i must be the float nearest (round_half_even(x_i / g) + Z_i) g, ties to even
//     (saturated at +-the largest finite float).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"
#include "tests/mechanisms/grid_reference.h"
#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>
#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using exactdp::fuzz::ByteReader;
namespace mech = exactdp::mechanisms;
namespace ts = exactdp::test_support;

constexpr std::size_t kMaxValues = 2048;

struct Setup {
  bool is_double = true;
  bool gaussian = true;
  bool hardened = false;
  unsigned threads = 1;
  long k = 0;
  long noise_exponent = 0;  // sigma / g = 2^noise_exponent (scale / g for the Laplace)
};

Setup read_setup(ByteReader& in) {
  Setup s;
  const std::uint8_t mode = in.u8();
  s.is_double = (mode & 1) == 0;
  s.gaussian = (mode & 2) == 0;
  s.threads = 1 + ((mode >> 2) & 31) % 3;
  s.hardened = (mode >> 7) != 0;
  const auto raw = static_cast<std::uint16_t>((in.u8() << 8) | in.u8());
  s.k = (raw & 0x8000) != 0 ? static_cast<long>(raw % 8193) - 4096 : static_cast<long>(raw % 2201) - 1100;
  s.noise_exponent = static_cast<long>(in.u8() % 48) - 16;
  return s;
}

mech::GridNoise make_noise(const Setup& s) {
  mech::GridNoiseSpec spec;
  spec.law = s.gaussian ? "discrete-gaussian" : "discrete-laplace";
  spec.parameter = s.gaussian ? "sigma" : "scale";
  spec.value = ts::power_of_two(s.noise_exponent - s.k);  // data units: 2^e g
  spec.granularity_exponent = s.k;
  if (s.hardened) spec.hardening = exactdp::Hardening{};
  return mech::GridNoise::make(spec);
}

// The hardened samplers stop at sigma2 / g^2 >= 1/100 (scale / g >= 1/100): below, make()
// must refuse, naming the granularity. Returns whether the noise was built.
std::optional<mech::GridNoise> make_checked(const Setup& s) {
  const bool in_range = !s.hardened || s.noise_exponent >= (s.gaussian ? -3 : -6);
  try {
    mech::GridNoise noise = make_noise(s);
    FUZZ_CHECK(in_range, "hardened noise 2^%ld (grid units) was accepted below its range", s.noise_exponent);
    return noise;
  } catch (const exactdp::ParameterError& e) {
    FUZZ_CHECK(!in_range && e.parameter() == "granularity", "refused %s: %s", e.parameter().c_str(), e.what());
    return std::nullopt;
  }
}

template <class Float>
std::vector<Float> read_values(ByteReader& in, std::size_t remaining) {
  std::vector<Float> x(std::min(remaining / sizeof(Float), kMaxValues));
  for (Float& v : x) v = exactdp::fuzz::read_float_bits<Float>(in);
  return x;
}

template <class Float>
void check_refusal(const mech::GridNoise& noise, const std::vector<Float>& x, const exactdp::Seed& seed,
                   unsigned threads, std::size_t first_bad) {
  std::vector<Float> y(x.size(), Float(7));
  try {
    mech::add_noise(noise, x, y, seed, threads);
    FUZZ_CHECK(false, "x[%zu] is not finite but the array was accepted", first_bad);
  } catch (const exactdp::ParameterError& e) {
    const std::string prefix = "x[" + std::to_string(first_bad) + "] is ";
    FUZZ_CHECK(e.parameter() == "x" && std::string(e.what()).rfind(prefix, 0) == 0, "message: %s", e.what());
  }
  for (Float v : y) FUZZ_CHECK(v == Float(7), "output written although the input was refused");
}

template <class Float>
void check_values(const mech::GridNoise& noise, const std::vector<Float>& x, const exactdp::Seed& seed,
                  unsigned threads) {
  std::vector<Float> y(x.size());
  mech::add_noise(noise, x, y, seed, threads);
  exactdp::SeededBits replay(seed);  // one chunk: the seed's stream from its start
  const long k = noise.granularity_exponent();
  mpz_class z;
  for (std::size_t i = 0; i < x.size(); ++i) {
    noise.sampler().sample(replay, z);
    FUZZ_CHECK(std::isfinite(y[i]), "y[%zu] is not finite", i);
    const mpz_class n = ts::reference_grid_index(x[i], k);
    std::int64_t fast = 0;
    if (mech::grid_index_fast(x[i], k, fast)) {
      FUZZ_CHECK(n == mpz_class(static_cast<long>(fast)), "grid index of x[%zu] at k = %ld", i, k);
    }
    const mpq_class target = mpq_class(n + z) * ts::power_of_two(-k);
    FUZZ_CHECK(ts::is_nearest_float(y[i], target), "y[%zu] is not the float nearest (n + Z) g (k = %ld, n + Z = %s)",
               i, k, mpz_class(n + z).get_str().c_str());
  }
}

template <class Float>
void run(ByteReader& in, std::size_t remaining, const Setup& s) {
  const std::vector<Float> x = read_values<Float>(in, remaining);
  const std::optional<mech::GridNoise> built = make_checked(s);
  if (!built) return;
  const mech::GridNoise& noise = *built;
  exactdp::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<unsigned char>(0x5a ^ (i * 7));
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!mech::is_finite_bits(x[i])) {
      check_refusal(noise, x, seed, s.threads, i);
      return;
    }
  }
  check_values(noise, x, seed, s.threads);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  exactdp::fuzz::init_sodium_once();
  ByteReader in(data, size);
  const Setup s = read_setup(in);
  const std::size_t remaining = size > 4 ? size - 4 : 0;
  if (s.is_double) {
    run<double>(in, remaining, s);
  } else {
    run<float>(in, remaining, s);
  }
  return 0;
}
