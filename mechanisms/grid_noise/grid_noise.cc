// grid_noise.cc — GridNoise::make: the spec checked, the granularity chosen and the law's sampler
// built on the grid (grid_noise.h). add_noise itself is in grid_noise_apply.cc.
#include <exactdp/mechanisms/grid_noise/grid_noise.h>

#include <gmp.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>

namespace exactdp::mechanisms {
namespace {

constexpr const char* kGaussian = "discrete-gaussian";
constexpr const char* kLaplace = "discrete-laplace";

// floor(log2 q) for a rational q > 0, exactly.
long floor_log2(const mpq_class& q) {
  const auto num_bits = static_cast<long>(mpz_sizeinbase(q.get_num_mpz_t(), 2));
  const auto den_bits = static_cast<long>(mpz_sizeinbase(q.get_den_mpz_t(), 2));
  const long e = num_bits - den_bits;  // 2^(e - 1) < q < 2^(e + 1)
  return q >= power_of_two(e) ? e : e - 1;
}

std::string power_text(long k) { return "2^" + std::to_string(-k); }

const laws::Law& grid_law(const std::string& name) {
  const laws::Law& law = laws::law_named(name);  // naming "law" when unknown
  if (law.name() != kGaussian && law.name() != kLaplace) {
    throw ParameterError("law", "law = " + name + " has no grid noise: allowed discrete-gaussian, discrete-laplace");
  }
  return law;
}

// The parameter's value as sigma2 (Gaussian) or scale (Laplace), data units.
mpq_class law_value(const laws::Law& law, const GridNoiseSpec& spec) {
  const bool gaussian = law.name() == kGaussian;
  const bool known = gaussian ? (spec.parameter == "sigma" || spec.parameter == "sigma2") : spec.parameter == "scale";
  if (!known) {
    throw ParameterError(spec.parameter, "parameter '" + abbreviate(spec.parameter) + "' does not apply to " +
                                             law.name() + ": allowed " + (gaussian ? "sigma or sigma2" : "scale"));
  }
  if (sgn(spec.value) <= 0) {
    throw ParameterError::out_of_range(spec.parameter, abbreviate(to_string(spec.value)), spec.parameter + " > 0");
  }
  return spec.parameter == "sigma" ? mpq_class(spec.value * spec.value) : spec.value;
}

long checked_exponent(long k) {
  if (k < -kMaxGranularityExponent || k > kMaxGranularityExponent) {
    throw ParameterError::out_of_range("granularity", "2^" + std::to_string(-k),
                                       "2^-4096 <= granularity <= 2^4096 (an exact power of two)");
  }
  return k;
}

// Whether the hardened sampler takes this grid parameter (the ranges of
// samplers/hardened_discrete_gaussian.h and hardened_discrete_laplace.h: 1/100 <= v <= 2^100
// resp. 2^50, numerator and denominator below 2^128).
bool hardened_accepts(bool gaussian, const mpq_class& v) {
  const mpq_class high = power_of_two(gaussian ? kHardenedMaxSigma2Log2 : kHardenedMaxScaleLog2);
  return v >= mpq_class(1, 100) && v <= high && mpz_sizeinbase(v.get_num_mpz_t(), 2) <= 128 &&
         mpz_sizeinbase(v.get_den_mpz_t(), 2) <= 128;
}

// The granularities 2^-k for which the hardened sampler takes value * 2^(step k), as text: an
// interval of k (the numerator grows and the denominator shrinks with k), or, when none does,
// why. Only powers of two move: the odd parts of value's numerator and denominator stay, so a
// value such as 10^100 = 2^100 5^100 (5^100: 233 bits) fits no granularity.
std::string hardened_exponents(bool gaussian, const mpq_class& value) {
  const long step = gaussian ? 2 : 1;  // sigma2 / g^2 = sigma2 4^k, scale / g = scale 2^k
  const long k0 = automatic_granularity_exponent(value, gaussian);
  std::optional<long> k_min;
  std::optional<long> k_max;
  // Every k whose value lies in [1/100, 2^100] is within 128 steps of the automatic one.
  for (long k = k0 - 128; k <= k0 + 128; ++k) {
    if (!hardened_accepts(gaussian, value * power_of_two(step * k))) continue;
    if (!k_min) k_min = k;
    k_max = k;
  }
  if (!k_min) {
    return "no granularity: a power of two changes only the powers of two in " +
           std::string(gaussian ? "sigma2" : "scale") +
           ", and its odd numerator or denominator has 128 bits or more; use plain noise, or a " +
           std::string(gaussian ? "sigma2" : "scale") + " whose odd part is smaller (e.g. a power of two)";
  }
  const bool automatic_inside = k0 >= *k_min && k0 <= *k_max;
  return power_text(*k_max) + " <= granularity <= " + power_text(*k_min) +
         (automatic_inside ? " (the automatic granularity is inside)" : "");
}

std::unique_ptr<laws::Sampler> grid_sampler(const laws::Law& law, const mpq_class& grid_value, const mpq_class& value,
                                            long k, const std::optional<Hardening>& hardening) {
  const bool gaussian = law.name() == kGaussian;
  const char* name = gaussian ? "sigma2" : "scale";
  const laws::LawParameters p = law.parse_values({{name, grid_value}}, laws::Use::kSample);
  std::optional<Hardening> chosen = hardening;
  if (chosen) chosen->method = HardenedMethod::kRejection;  // the Gaussian's faster method (hardening.h)
  try {
    return law.make_sampler(p, chosen);
  } catch (const ParameterError& e) {
    if (!hardening || e.parameter() != name) throw;
    throw ParameterError("granularity",
                         "granularity = " + power_text(k) + " gives " + (gaussian ? "sigma2 / g^2" : "scale / g") +
                             " = " + abbreviate(to_string(grid_value)) + ", outside the hardened sampler's range (" +
                             e.what() + "); allowed with hardened: " + hardened_exponents(gaussian, value));
  }
}

}  // namespace

long automatic_granularity_exponent(const mpq_class& value, bool square) {
  const long log2_value = floor_log2(value);
  // floor(log2 sqrt(v)) = floor(floor(log2 v) / 2) (floor division, also for negative logs).
  const long log2_sigma = square ? (log2_value >= 0 ? log2_value / 2 : -((-log2_value + 1) / 2)) : log2_value;
  return kAutomaticGranularityBits - log2_sigma;
}

GridNoise GridNoise::make(const GridNoiseSpec& spec) {
  GridNoise g;
  g.law_ = &grid_law(spec.law);
  const bool gaussian = g.law_->name() == kGaussian;
  const mpq_class value = law_value(*g.law_, spec);  // sigma2 or scale
  g.k_ = checked_exponent(spec.granularity_exponent ? *spec.granularity_exponent
                                                    : automatic_granularity_exponent(value, gaussian));
  g.grid_parameter_ = value * power_of_two(gaussian ? 2 * g.k_ : g.k_);
  g.sampler_ = grid_sampler(*g.law_, g.grid_parameter_, value, g.k_, spec.hardening);
  return g;
}

mpq_class GridNoise::granularity() const { return power_of_two(-k_); }

}  // namespace exactdp::mechanisms
