// c_api_grid_noise.cc — exactdp_add_noise_f64 / _f32 of the C interface (exactdp.h): the grid
// noise of mechanisms/grid_noise/grid_noise.h for double and float arrays.
//
// Order of checks: pointers (EXACTDP_E_NULL), flags, the spec (law, parameter, value,
// granularity: GridNoise::make), seed (all-zero refused), then threads, out and in (add_noise,
// which checks every input before anything is drawn or written). *granularity_used is written
// only on success.
// double and float appear here only as storage types whose bit patterns are
// decoded and encoded exactly (std::bit_cast and integer operations); no floating-point
// arithmetic is done on any value.
#include <sodium.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/exactdp.h>
#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::internal {
namespace {

struct GridCall {
  const char* law;
  const char* parameter;
  const char* value;
  const int* granularity_exponent;
  int flags;
  const unsigned char* seed;
  unsigned threads;
};

mechanisms::GridNoise grid_noise_of(const GridCall& c) {
  require_non_null(c.law, "law");
  require_non_null(c.parameter, "parameter");
  require_non_null(c.value, "value");
  mechanisms::GridNoiseSpec spec;
  if (hardened_flag(c.flags)) spec.hardening = Hardening{};
  spec.law = c.law;
  spec.parameter = c.parameter;
  spec.value = rational_argument(c.parameter, c.value);
  if (c.granularity_exponent != nullptr) spec.granularity_exponent = *c.granularity_exponent;
  return mechanisms::GridNoise::make(spec);
}

std::optional<Seed> seed_of(const unsigned char* seed) {
  if (seed == nullptr) return std::nullopt;
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = seed[i];
  if (sodium_is_zero(s.data(), s.size()) == 1) {
    throw ParameterError("seed", "seed: the all-zero seed is refused (a key everyone knows, or a buffer never filled)");
  }
  return s;
}

// Wipes the caller's seed copy on every exit.
struct SeedWipe {
  std::optional<Seed>& seed;
  ~SeedWipe() {
    if (seed) sodium_memzero(seed->data(), seed->size());
  }
};

template <class Float>
int add_noise_c(const GridCall& c, const Float* in, Float* out, std::size_t n, int* granularity_used) {
  if (n > 0) {
    require_non_null(in, "in");
    require_non_null(out, "out");
  }
  const mechanisms::GridNoise noise = grid_noise_of(c);
  std::optional<Seed> seed = seed_of(c.seed);
  const SeedWipe wipe{seed};
  try {
    mechanisms::add_noise(noise, std::span<const Float>(in, n), std::span<Float>(out, n), seed, c.threads);
  } catch (const ParameterError& e) {
    if (e.parameter() != "x") throw;
    throw ParameterError("in", "in" + std::string(e.what()).substr(1));  // "x[17] is NaN ..." -> "in[17] ..."
  }
  if (granularity_used != nullptr) *granularity_used = static_cast<int>(noise.granularity_exponent());
  return EXACTDP_OK;
}

}  // namespace
}  // namespace exactdp::internal

using exactdp::internal::guard;

namespace {

// One body for both C entry points: T is the caller's float type, handled as bit patterns.
template <typename T>
int add_noise_entry(const exactdp::internal::GridCall& c, const T* in, T* out, size_t n, int* granularity_used) {
  return guard([&] { return exactdp::internal::add_noise_c(c, in, out, n, granularity_used); });
}

}  // namespace

extern "C" {

int exactdp_add_noise_f64(const char* law, const char* parameter, const char* value, const int* granularity_exponent,
                          int flags, const unsigned char* seed, unsigned threads, const double* in, double* out,
                          size_t n, int* granularity_used) {
  return add_noise_entry({law, parameter, value, granularity_exponent, flags, seed, threads}, in, out, n,
                         granularity_used);
}

int exactdp_add_noise_f32(const char* law, const char* parameter, const char* value, const int* granularity_exponent,
                          int flags, const unsigned char* seed, unsigned threads, const float* in, float* out,
                          size_t n, int* granularity_used) {
  return add_noise_entry({law, parameter, value, granularity_exponent, flags, seed, threads}, in, out, n,
                         granularity_used);
}

}  // extern "C"
