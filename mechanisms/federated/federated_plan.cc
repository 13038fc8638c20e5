// federated_plan.cc — FederatedPlan::make: the spec checked in a fixed order (dimension, clip,
// granularity, bits, clients, dropout, beta, max_wrap, the noise law and its value), the noise
// sampler built on the lattice, the rotation's signs drawn from the public seed, and the bounds of
// federated_bounds.cc; the wrap-around bound last (it needs all of them).
#include <exactdp/mechanisms/federated/federated_plan.h>

#include <gmpxx.h>

#include <bit>
#include <cstddef>
#include <string>

#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>
#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::mechanisms {
namespace {

// h with 4^h the least power of four >= d (d >= 1).
unsigned half_log2_of(std::size_t d) {
  const auto m = static_cast<unsigned>(std::bit_width(d - 1));  // 2^m >= d
  return (m + 1) / 2;
}

void check_counts(const FederatedSpec& s) {
  if (s.dimension < 1 || s.dimension > kMaxFederatedDimension) {
    throw LimitError("dimension", "dimension = " + std::to_string(s.dimension) +
                                      " is out of range: allowed 1 <= dimension <= 2^24 (16777216)");
  }
  if (sgn(s.clip) <= 0) throw ParameterError::out_of_range("c", abbreviate(to_string(s.clip)), "c > 0");
  if (s.bits < kMinFederatedBits || s.bits > kMaxFederatedBits) {
    throw ParameterError::out_of_range("bits", std::to_string(s.bits), "8 <= bits <= 62");
  }
  if (s.clients < 1 || s.clients > kMaxFederatedClients) {
    throw ParameterError::out_of_range("clients", std::to_string(s.clients), "1 <= clients <= 2^32");
  }
  if (sgn(s.dropout) < 0 || s.dropout >= 1) {
    throw ParameterError::out_of_range("dropout", abbreviate(to_string(s.dropout)), "0 <= dropout < 1");
  }
  if (s.beta < power_of_two(-64) || s.beta > mpq_class(1, 2)) {
    throw ParameterError::out_of_range("beta", abbreviate(to_string(s.beta)), "2^-64 <= beta <= 1/2");
  }
  if (sgn(s.max_wrap) <= 0 || s.max_wrap > 1) {
    throw ParameterError::out_of_range("max_wrap", abbreviate(to_string(s.max_wrap)), "0 < max_wrap <= 1");
  }
}

// The standard deviation's square of one client's share, data units.
mpq_class share_variance(const FederatedSpec& s) {
  return s.noise == kClientSkellam ? mpq_class(2 * s.noise_value) : s.noise_value;
}

void check_noise(const FederatedSpec& s) {
  const char* name = client_noise_parameter(s.noise);
  if (s.hardening && s.noise == kClientSkellam) {
    throw ParameterError("hardened", "hardened: the skellam law has no isochronous sampler; allowed: plain (hardened off) "
                                     "for skellam, or noise = discrete-gaussian");
  }
  if (sgn(s.noise_value) <= 0) throw ParameterError::out_of_range(name, abbreviate(to_string(s.noise_value)), std::string(name) + " > 0");
}

long checked_granularity(const FederatedSpec& s) {
  const long k = s.granularity_exponent ? *s.granularity_exponent
                                        : automatic_granularity_exponent(share_variance(s), true) +
                                              (kFederatedGranularityBits - kAutomaticGranularityBits);
  if (k < -kMaxGranularityExponent || k > kMaxGranularityExponent) {
    throw ParameterError::out_of_range("granularity", "2^" + std::to_string(-k), "2^-4096 <= granularity <= 2^4096");
  }
  return k;
}

std::shared_ptr<const laws::Sampler> lattice_sampler(const FederatedSpec& s, const mpq_class& lattice_value, long k) {
  const laws::Law& law = laws::law_named(s.noise);
  const char* name = client_noise_parameter(s.noise);
  std::optional<Hardening> hardening = s.hardening;
  if (hardening && s.noise == kClientGaussian) hardening->method = HardenedMethod::kRejection;
  try {
    return law.make_sampler(law.parse_values({{name, lattice_value}}, laws::Use::kSample), hardening);
  } catch (const ParameterError& e) {
    if (e.parameter() != name) throw;
    throw ParameterError(name, std::string(name) + " / g^2 = " + abbreviate(to_string(lattice_value)) +
                                   " on the lattice of granularity g = 2^" + std::to_string(-k) + ": " + e.what());
  }
}

std::vector<std::uint64_t> rotation_signs(const Seed& seed, std::size_t padded) {
  SeededBits bits(seed);
  std::vector<std::uint64_t> words((padded + 63) / 64);
  for (std::size_t w = 0; w < words.size(); ++w) {
    const std::size_t take = std::min<std::size_t>(64, padded - 64 * w);
    words[w] = take == 64 ? bits.bits(64) : bits.bits(static_cast<unsigned>(take));
  }
  return words;
}

}  // namespace

const char* client_noise_parameter(const std::string& noise) {
  if (noise == kClientGaussian) return "sigma2";
  if (noise == kClientSkellam) return "mu";
  throw ParameterError("noise", "noise = " + abbreviate(noise) + " is not a client noise: allowed " +
                                    std::string(kClientGaussian) + ", " + kClientSkellam);
}

FederatedPlan FederatedPlan::make(const FederatedSpec& spec) {
  check_counts(spec);
  check_noise(spec);
  FederatedPlan p;
  p.spec_ = spec;
  p.k_ = checked_granularity(spec);
  p.half_log2_ = half_log2_of(spec.dimension);
  p.lattice_clip_ = spec.clip * power_of_two(p.k_);
  if (p.lattice_clip_ > power_of_two(kMaxFederatedClipLog2)) {
    throw LimitError("c", "c / granularity = " + abbreviate(to_string(p.lattice_clip_)) +
                              " lattice steps is over the limit 2^40: allowed c <= 2^40 granularity (a coarser granularity, or a smaller c)");
  }
  if (spec.bits + 2 * p.half_log2_ > 63) {
    throw ParameterError::out_of_range("bits", std::to_string(spec.bits),
                                       "bits <= " + std::to_string(63 - 2 * p.half_log2_) + " for dimension " +
                                           std::to_string(spec.dimension) + " (padded to 4^" +
                                           std::to_string(p.half_log2_) + "): bits + log2(padded dimension) <= 63");
  }
  p.lattice_noise_ = spec.noise_value * power_of_two(2 * p.k_);
  p.sampler_ = lattice_sampler(spec, p.lattice_noise_, p.k_);
  rounding_norm_bound(p.lattice_clip_, p.half_log2_, spec.beta, p.norm_bound_, p.retry_probability_);
  mpz_sqrt(p.coordinate_bound_.get_mpz_t(), p.norm_bound_.get_mpz_t());
  const mpq_class tau = p.sampler_->hardened() ? p.sampler_->tau_upper() : mpq_class(0);
  p.wrap_probability_ = wrap_bound(p.skellam(), p.lattice_noise_, spec.clients, p.coordinate_bound_, p.half_log2_,
                                   spec.bits, tau);
  if (!upper_at_most(p.wrap_probability_, spec.max_wrap)) {
    throw ParameterError("bits", "bits = " + std::to_string(spec.bits) + " is too small for the noise: the wrap-around probability bound is " +
                                     decimal_upper(p.wrap_probability_.upper(), 6) + " > max_wrap = " +
                                     abbreviate(to_string(spec.max_wrap)) + "; allowed: a larger bits (or less noise, or fewer clients)");
  }
  p.signs_ = rotation_signs(spec.rotation_seed, p.padded_dimension());
  return p;
}

}  // namespace exactdp::mechanisms
