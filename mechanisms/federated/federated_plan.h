// federated_plan.h — the parameters of one round of distributed-noise federated learning with
// secure aggregation (Kairouz, Liu, Steinke, "The Distributed Discrete Gaussian Mechanism for
// Federated Learning with Secure Aggregation", ICML 2021, Algorithms 1 and 2), made exact
// (docs/FEDERATED.md, "The client pipeline"). Client and server build the same plan from the same
// public parameters; client_encode.h and server_decode.h run it.
//
// Units. The lattice has granularity g = 2^-k (data units). A client's update x (floats, length d)
// is mapped exactly to lattice integers, clipped to L2 norm C = c / g, padded to D = 4^h >= d
// coordinates, rotated by R = H S / 2^h (H the D x D Sylvester-Hadamard matrix of +-1, S the
// diagonal of public random signs): R is orthogonal and 2^h R is an integer matrix, so the rotated
// vector is exactly a vector of dyadic rationals a / 2^h. Conditional randomized rounding makes it
// integer (exact Bernoulli(f / 2^h) per coordinate, f the fractional numerator); the client adds
// its noise share (discrete Gaussian N_Z(0, sigma2 / g^2) or Skellam Sk(mu / g^2) per coordinate:
// sigma2 and mu are in data units, mu / g^2 is the Skellam parameter on the lattice, variance
// 2 mu in data units) and reduces modulo 2^bits.
//
// Why D = 4^h and not a power of two: H / sqrt(2^m) has the irrational entries 2^-(m/2) when m is
// odd; for m = 2h they are the dyadic 2^-h and every step is exact integer arithmetic. Padding to
// a power of four costs at most 4x the coordinates (d = 10^6 pads to 2^20).
//
// The norm check (KLS21's conditional rounding, with its bound proved by Hoeffding): for a
// rotated vector x with ||x||_2 <= C, the rounded vector x~ has E||x~||^2 <= C^2 + D/4 and
// ||x~||^2 - ||x||^2 is a sum of independent terms of ranges |2 floor(x_j) + 1| <= 2|x_j| + 1,
// whose squares sum to at most (2C + 2^h)^2; so
//   P[||x~||^2 > norm_bound] <= exp(-2 (norm_bound - C^2 - D/4)^2 / (2C + 2^h)^2) = retry bound,
// with norm_bound the least integer >= C^2 + D/4 + sqrt(2 ln(1/beta)) (C + 2^(h-1)) (so the retry
// bound is <= beta), or floor((C + 2^h)^2) when that is smaller (always met: retry bound 0). A
// client redraws the rounding until the check passes, at most kMaxRoundingAttempts times, then
// sends the zero vector (norm 0: the privacy holds either way; probability <= retry bound^64).
// The sensitivity of the sum to one client (added or removed) is sqrt(norm_bound) lattice units
// in L2; every coordinate moves by at most isqrt(norm_bound).
//
// Wrap-around (modular clipping): the server's centred representative equals the true sum of a
// coordinate when it lies in [-2^(bits-1), 2^(bits-1)). With at most n clients the signal part is
// at most A = n isqrt(norm_bound) in absolute value, and the noise sum N is sub-Gaussian: for the
// discrete Gaussian, E e^(tN) <= e^(t^2 n sigma2_L / 2) (Canonne, Kamath, Steinke 2020), so
// P[N >= a] <= exp(-a^2 / (2 n sigma2_L)); for Skellam, N ~ Sk(n mu_L) and P[N >= a] <=
// exp(-a t + 2 n mu_L (cosh t - 1)) at t ~ asinh(a / (2 n mu_L)). The bound reported is
// min(1, 2 D tail(2^(bits-1) - A) + n D tau) (tau: the hardened sampler's total variation bound;
// 0 for plain), an upper end of an outward-rounded MPFR computation. Dropout only lowers it.
// A plan whose bound exceeds max_wrap is refused naming `bits` with the bound.
//
// Limits (checked in make, before any draw; SECURITY.md "Limits"): 1 <= d <= 2^24 (so D <= 2^24),
// C <= 2^40, bits + 2h <= 63 (the decoder's integer transform), 8 <= bits <= 62, 1 <= clients <=
// 2^32, 0 <= dropout < 1, 2^-64 <= beta <= 1/2, 0 < max_wrap <= 1, |k| <= 4096; the noise value
// > 0 and within its law's range (hardened: 1/100 <= sigma2 / g^2 <= 2^100; Skellam has no
// hardened sampler: refused naming "hardened").
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/laws/law.h>
#include <exactdp/samplers/hardening.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::mechanisms {

inline constexpr std::size_t kMaxFederatedDimension = std::size_t{1} << 24;
inline constexpr long kMaxFederatedClipLog2 = 40;  // C = c / g <= 2^40
inline constexpr unsigned kMinFederatedBits = 8;
inline constexpr unsigned kMaxFederatedBits = 62;
inline constexpr std::uint64_t kMaxFederatedClients = std::uint64_t{1} << 32;
inline constexpr unsigned kMaxRoundingAttempts = 64;
// The automatic granularity: the largest g = 2^-k with g <= sigma * 2^-kFederatedGranularityBits
// (sigma: the standard deviation of one client's share).
inline constexpr long kFederatedGranularityBits = 6;

// The client noise laws (registry spellings) and their parameter's name.
inline constexpr const char* kClientGaussian = "discrete-gaussian";
inline constexpr const char* kClientSkellam = "skellam";
// "sigma2" for the discrete Gaussian, "mu" for Skellam; ParameterError naming "noise" otherwise.
[[nodiscard]] const char* client_noise_parameter(const std::string& noise);

struct FederatedSpec {
  std::size_t dimension = 0;                 // d
  mpq_class clip = 1;                        // c, data units, > 0
  std::optional<long> granularity_exponent;  // k (g = 2^-k); nullopt: automatic
  unsigned bits = 32;                        // modulus 2^bits
  std::uint64_t clients = 1;                 // n
  mpq_class dropout = 0;                     // expected fraction of clients that drop out
  std::string noise = kClientGaussian;       // or kClientSkellam
  mpq_class noise_value = 1;                 // sigma2 (discrete Gaussian) or mu (Skellam), data units
  mpq_class beta = mpq_class(1, 2);          // the rounding's retry bound target
  mpq_class max_wrap = mpq_class(1, 1000000);  // the largest wrap-around bound accepted
  Seed rotation_seed{};                      // public: the rotation's signs
  std::optional<Hardening> hardening;        // nullopt: the exact sampler
};

class FederatedPlan {
 public:
  // Validates the spec (ParameterError/LimitError naming the parameter) and computes every bound.
  [[nodiscard]] static FederatedPlan make(const FederatedSpec& spec);

  [[nodiscard]] const FederatedSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] std::size_t dimension() const noexcept { return spec_.dimension; }
  [[nodiscard]] std::size_t padded_dimension() const noexcept { return std::size_t{1} << (2 * half_log2_); }
  [[nodiscard]] unsigned half_log2() const noexcept { return half_log2_; }  // h: D = 4^h
  [[nodiscard]] long granularity_exponent() const noexcept { return k_; }
  [[nodiscard]] const mpq_class& lattice_clip() const noexcept { return lattice_clip_; }        // C
  [[nodiscard]] const mpz_class& norm_bound() const noexcept { return norm_bound_; }            // on ||x~||^2
  [[nodiscard]] const mpz_class& coordinate_bound() const noexcept { return coordinate_bound_; }  // isqrt
  // The noise law's parameter on the lattice: sigma2 / g^2 or mu / g^2.
  [[nodiscard]] const mpq_class& lattice_noise() const noexcept { return lattice_noise_; }
  [[nodiscard]] const Interval& retry_probability() const noexcept { return retry_probability_; }
  [[nodiscard]] const Interval& wrap_probability() const noexcept { return wrap_probability_; }
  [[nodiscard]] const laws::Sampler& sampler() const noexcept { return *sampler_; }
  [[nodiscard]] bool skellam() const noexcept { return spec_.noise == kClientSkellam; }
  // The rotation's signs, bit j of word j / 64 set for -1.
  [[nodiscard]] const std::vector<std::uint64_t>& signs() const noexcept { return signs_; }
  [[nodiscard]] std::uint64_t modulus_mask() const noexcept {
    return spec_.bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << spec_.bits) - 1;
  }

 private:
  FederatedPlan() = default;
  FederatedSpec spec_;
  unsigned half_log2_ = 0;
  long k_ = 0;
  mpq_class lattice_clip_;
  mpz_class norm_bound_;
  mpz_class coordinate_bound_;
  mpq_class lattice_noise_;
  Interval retry_probability_;
  Interval wrap_probability_;
  std::shared_ptr<const laws::Sampler> sampler_;
  std::vector<std::uint64_t> signs_;
};

// The certified bounds of the plan, on their own (federated_bounds.cc).
// norm_bound: see above; retry: its one-attempt failure bound (upper end meaningful).
void rounding_norm_bound(const mpq_class& clip, unsigned half_log2, const mpq_class& beta, mpz_class& norm_bound,
                         Interval& retry);
// The wrap-around bound for `clients` clients each adding the law's share (lattice parameter
// `noise`) to vectors of per-coordinate bound `coordinate_bound`, D = 4^half_log2, modulus 2^bits;
// tau: the hardened sampler's total-variation bound (0 for plain).
[[nodiscard]] Interval wrap_bound(bool skellam, const mpq_class& noise, std::uint64_t clients,
                                  const mpz_class& coordinate_bound, unsigned half_log2, unsigned bits,
                                  const mpq_class& tau);

}  // namespace exactdp::mechanisms
