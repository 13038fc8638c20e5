// add_noise.h — the operation `add-noise`: exact discrete noise on the grid 2^-k Z for float64 and
// float32 arrays (mechanisms/grid_noise/grid_noise.h holds the contract: the exact mapping to the
// grid, the laws, the automatic granularity, the chunked seeded substreams). Python
// (python/src/grid_noise.cc, exactdp.add_noise) and the C interface (c_api/c_api_grid_noise.cc,
// exactdp_add_noise_f64 / _f32) build an AddNoiseRequest; every check and limit is here, before a
// coordinate is read or a bit drawn: the law and its noise parameter, the granularity (|k| <=
// 4096), the hardened sampler's range, threads (1..256); then add_noise checks every input value
// before anything is drawn or written. double and float appear here only as the storage types of
// the caller's arrays, handled as bit patterns by the mechanism.
//
// Example:
//   const AddNoisePlan plan = plan_add_noise({.law = "discrete-gaussian", .parameter = "sigma",
//                                             .value = "1/2", .threads = "4"});
//   add_noise(plan, std::span<const double>(x), std::span<double>(y), seed);   // seed: optional
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::operations {

struct AddNoiseRequest {
  std::string law = "discrete-gaussian";     // or "discrete-laplace"
  std::string parameter = "sigma";           // sigma or sigma2 (discrete-gaussian), scale (discrete-laplace)
  std::string value{};                       // its exact text, > 0, in data units
  std::optional<long> granularity_exponent{};  // k: the grid 2^-k Z; none: automatic
  bool hardened = false;                     // the isochronous samplers (samplers/hardening.h)
  std::string threads = "1";                 // 1..kMaxGridNoiseThreads
  std::string input = "x";                   // the face's name of the input array, for messages: x, in
};

struct AddNoisePlan {
  mechanisms::GridNoise noise;  // the law's sampler on the grid
  unsigned threads = 1;
  std::string input;
};

// Checks, in this order: law, parameter, value, granularity, the hardened range
// (mechanisms::GridNoise::make), then threads. ParameterError naming the parameter.
[[nodiscard]] AddNoisePlan plan_add_noise(const AddNoiseRequest& request);

// The draws' cost limit (draw_cost.h): `values` draws of the law at its grid parameter (sigma2 / g^2
// or scale / g) estimated over kMaxDrawSeconds is a LimitError naming granularity. add_noise checks
// it first; a face that acts between the checks and the draws (Python's accountant charge) calls it
// before acting.
void check_add_noise_cost(const AddNoisePlan& plan, std::size_t values);

// y = x + noise (y may be x itself; x.size() == y.size()). seed: the chunked seeded substreams
// (the same output for any thread count); nullopt: the OS CSPRNG. A bad input value (NaN, inf)
// is a ParameterError naming it by the request's input name ("in[17] is NaN ...").
void add_noise(const AddNoisePlan& plan, std::span<const double> x, std::span<double> y,
               const std::optional<Seed>& seed);
void add_noise(const AddNoisePlan& plan, std::span<const float> x, std::span<float> y,
               const std::optional<Seed>& seed);

}  // namespace exactdp::operations
