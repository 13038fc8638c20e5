// c_api_grid_noise.cc — exactdp_add_noise_f64 / _f32 of the C interface (exactdp.h): the
// operation add-noise (operations/add_noise.h) for double and float arrays.
//
// Order of checks: pointers (EXACTDP_E_NULL), flags, the request (law, parameter, value,
// granularity, threads: plan_add_noise), seed (all-zero refused), then out and in (add_noise,
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
#include <exactdp/operations/add_noise.h>
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

// The operation's request (operations/add_noise.h: the checks and the threads limit); NULL text
// is EXACTDP_E_NULL naming it.
operations::AddNoisePlan plan_of(const GridCall& c) {
  require_non_null(c.law, "law");
  require_non_null(c.parameter, "parameter");
  require_non_null(c.value, "value");
  operations::AddNoiseRequest request;
  request.hardened = hardened_flag(c.flags);
  request.law = c.law;
  request.parameter = c.parameter;
  request.value = c.value;
  if (c.granularity_exponent != nullptr) request.granularity_exponent = *c.granularity_exponent;
  request.threads = std::to_string(c.threads);
  request.input = "in";
  return operations::plan_add_noise(request);
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
  const operations::AddNoisePlan plan = plan_of(c);
  std::optional<Seed> seed = seed_of(c.seed);
  const SeedWipe wipe{seed};
  operations::add_noise(plan, std::span<const Float>(in, n), std::span<Float>(out, n), seed);
  if (granularity_used != nullptr) *granularity_used = static_cast<int>(plan.noise.granularity_exponent());
  return EXACTDP_OK;
}

}  // namespace
}  // namespace exactdp::internal

using exactdp::internal::guard;

namespace {

// One body for both C entry points: T is the caller's float type, handled as bit patterns.
template <typename T>
int add_noise_entry(const exactdp::internal::GridCall& c, const T* in, T* out, size_t n, int* granularity_used) {
  return guard([&] {
    const exactdp::internal::MpfrCacheRelease release;  // the grid sampler's setup uses MPFR
    return exactdp::internal::add_noise_c(c, in, out, n, granularity_used);
  });
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
