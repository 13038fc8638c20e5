// grid_noise.h — exact discrete noise for arrays of double or float (DP-SGD gradients, prices):
// every coordinate x_i is mapped EXACTLY onto the grid g Z (g = 2^-k), an exact integer noise
// Z_i of a registry law is added on the grid, and the result is converted back to the input's
// float type (docs/REAL_VALUED.md; Canonne, Kamath, Steinke, "The Discrete Gaussian for
// Differential Privacy"; why not add noise in floating point: Mironov, "On Significance of the
// Least Significant Bits for Differential Privacy").
//
//   n_i = round_half_even(x_i / g)   exact, from the float's bit pattern (float_grid.h)
//   Z_i ~ discrete Gaussian with variance parameter sigma^2 / g^2   (law "discrete-gaussian")
//       or discrete Laplace with scale / g                          (law "discrete-laplace")
//   y_i = float nearest (n_i + Z_i) g, ties to even; EXACT whenever (n_i + Z_i) g is
//       representable (e.g. |n_i + Z_i| < 2^53 for double, 2^24 for float, and g no finer than
//       the least subnormal); past the largest finite float, +-the largest finite float (never
//       inf). The conversion is post-processing of the exact release (n_i + Z_i): it costs no
//       privacy, and nothing on the sampling path uses floating-point arithmetic (only the
//       input's bits are decoded and the output's bits encoded, both exactly).
//
// double and float appear here only as storage types whose bit patterns are
// decoded and encoded exactly (std::bit_cast and integer operations); no floating-point
// arithmetic is done on any value.
// Privacy (what the accounting must charge; the rounding is NOT free): two neighbouring inputs
// x, x' with ||x - x'||_2 <= Delta_2 have grid images with ||n - n'||_2 <= Delta_2 / g + sqrt(d)
// (each coordinate rounds by at most g / 2, on both sides), so the release is the discrete
// Gaussian mechanism with sensitivity Delta_2 + g sqrt(d) in data units (L1: Delta_1 + g d for
// the Laplace): an accounting of this release must charge that sensitivity, not Delta_2. The
// automatic granularity keeps the inflation small.
//
// Granularity. Given: k with |k| <= kMaxGranularityExponent (k may be negative: g = 2, 4, ...).
// Automatic (automatic_granularity_exponent): the largest power of two g = 2^-k with
// g <= sigma * 2^-kAutomaticGranularityBits (sigma: the Gaussian's standard deviation parameter
// sqrt(sigma2), or the Laplace scale), i.e. k = kAutomaticGranularityBits - floor(log2 sigma),
// computed exactly from the rational. Then 2^18 <= sigma / g < 2^19: the added sensitivity
// g sqrt(d) is at most sqrt(d) 2^-18 sigma (0.004 sigma at d = 10^6 coordinates, 0.012 sigma at
// 10^7), and sigma2 / g^2 < 2^38 and scale / g < 2^19 stay inside the hardened samplers' ranges.
//
// Fast path: |n_i| < 2^62 (|x_i| < 2^62 g) and Z_i in int64 (the sampler's batch: sample_wide);
// then n_i + Z_i is a 128-bit integer and the conversion is a few integer operations. Past it
// (a huge x_i, or a huge draw), the same computation on GMP integers, per coordinate.
//
// Randomness and threads (output reproducible for ANY thread count with a seed):
//   * add_noise(..., BitSource&): one thread, the draws Z_0, Z_1, ... read from `bits` in order.
//   * add_noise(..., seed, threads): the array is cut into chunks of kGridNoiseChunk coordinates;
//     chunk c draws from its own substream, the seed's ChaCha20 stream started at block c 2^64
//     (samplers/seeded_bits.h: nonce c 2^32, so chunks never share keystream), so y is the same
//     for threads = 1, 2, 3, ... Seeded streams are for tests and audits only (SECURITY.md).
//   * add_noise(..., std::nullopt, threads): every thread has its own SystemBits (the OS CSPRNG).
//   Threads take chunks from a shared counter (std::thread), first to check them for NaN/inf
//   (all threads; a barrier, so nothing is drawn or written before every chunk passed), then to
//   add the noise; per call, besides the threads, each thread allocates only its batch buffers
//   (and, when seeded, one seeded source that SeededBits::seek moves to each of its chunks'
//   substreams). The usual case of the double mapping runs on AVX-512 lanes where the CPU has
//   them (float_grid_simd.h; the same bits).
//
// Hardened: the law's isochronous sampler (GridNoiseSpec::hardening; for the discrete Gaussian
// always with HardenedMethod::kRejection, which is the fixed-work method outside
// 2^10 <= sigma2 / g^2 < 2^56: docs/HARDENED.md "The rejection method"); its range is that of
// samplers/hardened_discrete_gaussian.h (1/100 <= sigma2 / g^2 <= 2^100) and
// hardened_discrete_laplace.h (1/100 <= scale / g <= 2^50); outside, ParameterError naming
// "granularity" with the allowed range of k. Only the draws are isochronous: the grid mapping and
// the output conversion branch on the exponent of x_i (SECURITY.md: hardened covers the sampler).
//
// Errors (ParameterError, before any randomness is drawn): law (other than the two above),
// parameter name or value (<= 0), granularity, threads (1..kMaxGridNoiseThreads), out (size
// differs from x, or overlaps x without being x), x (the first NaN or +-inf:
// "x[17] is NaN; allowed: finite values").
// Thread-safety: a GridNoise is immutable and may be shared; a BitSource may not.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <exactdp/laws/law.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/hardening.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::mechanisms {

inline constexpr long kAutomaticGranularityBits = 18;      // sigma / g >= 2^18
inline constexpr std::size_t kGridNoiseChunk = 1U << 16;  // coordinates per seeded substream
inline constexpr unsigned kMaxGridNoiseThreads = 256;

struct GridNoiseSpec {
  std::string law = "discrete-gaussian";  // or "discrete-laplace"
  // "sigma" (standard deviation parameter) or "sigma2" (its square) for the discrete Gaussian,
  // "scale" for the discrete Laplace; in data units.
  std::string parameter = "sigma";
  mpq_class value = 1;
  std::optional<long> granularity_exponent;  // k (g = 2^-k); nullopt: automatic
  std::optional<Hardening> hardening;        // nullopt: the exact sampler
};

// k = kAutomaticGranularityBits - floor(log2 sigma), from sigma (square = false) or from sigma^2
// (square = true; floor(log2 sigma) = floor(floor(log2 sigma2) / 2)). value > 0.
[[nodiscard]] long automatic_granularity_exponent(const mpq_class& value, bool square);

class GridNoise {
 public:
  // Validates the spec and builds the law's sampler on the grid (ParameterError naming law,
  // the parameter, granularity or tau_bits).
  [[nodiscard]] static GridNoise make(const GridNoiseSpec& spec);

  [[nodiscard]] long granularity_exponent() const noexcept { return k_; }  // g = 2^-k
  [[nodiscard]] mpq_class granularity() const;                              // 2^-k exactly
  // The law's noise parameter in grid units: sigma2 / g^2 (Gaussian) or scale / g (Laplace).
  [[nodiscard]] const mpq_class& grid_parameter() const noexcept { return grid_parameter_; }
  [[nodiscard]] const laws::Law& law() const noexcept { return *law_; }
  [[nodiscard]] const laws::Sampler& sampler() const noexcept { return *sampler_; }

 private:
  GridNoise() = default;
  const laws::Law* law_ = nullptr;
  long k_ = 0;
  mpq_class grid_parameter_;
  std::shared_ptr<const laws::Sampler> sampler_;
};

// y = x + noise on the grid (see above). y may be x itself (in place); x.size() == y.size().
void add_noise(const GridNoise& noise, std::span<const double> x, std::span<double> y, BitSource& bits);
void add_noise(const GridNoise& noise, std::span<const float> x, std::span<float> y, BitSource& bits);
// seed: the chunked seeded substreams; nullopt: the OS CSPRNG, one SystemBits per thread.
void add_noise(const GridNoise& noise, std::span<const double> x, std::span<double> y,
               const std::optional<Seed>& seed, unsigned threads);
void add_noise(const GridNoise& noise, std::span<const float> x, std::span<float> y,
               const std::optional<Seed>& seed, unsigned threads);

}  // namespace exactdp::mechanisms
