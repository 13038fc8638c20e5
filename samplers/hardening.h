// hardening.h — the switch shared by the hardened (isochronous) samplers: how far their law may
// be from the exact law, and the parts of their construction the two laws share.
//
// A sampler that reads a fixed number B of random bits can only output probabilities that are
// multiples of 2^-B, so it cannot follow an irrational law exactly. A hardened sampler follows a
// precisely defined law (its tables, docs/HARDENED.md) whose total-variation distance tau from the
// exact law is certified when the sampler is built: tau_upper() >= tau, and
// tau_upper() <= 2^-tau_bits. A mechanism that is (eps, delta)-DP with the exact law is
// (eps, delta + (1 + e^eps) tau)-DP with the hardened one (accounting/hardened_charge.h).
//
// Use: replace DiscreteGaussianParams / DiscreteLaplaceParams by HardenedDiscreteGaussianParams /
// HardenedDiscreteLaplaceParams (hardened_discrete_gaussian.h, hardened_discrete_laplace.h); the
// same sample_discrete_gaussian / sample_discrete_laplace call then takes the hardened path.
// Nothing ever falls back from one to the other.
#pragma once

#include <gmpxx.h>

#include <cstdint>

namespace exactdp {

inline constexpr unsigned kDefaultTauBits = 64;
inline constexpr unsigned kMinTauBits = 40;
inline constexpr unsigned kMaxTauBits = 128;

struct Hardening {
  // The certified bound: TV(hardened law, exact law) <= 2^-tau_bits, kMinTauBits..kMaxTauBits.
  unsigned tau_bits = kDefaultTauBits;
};

// Throws ParameterError naming tau_bits unless kMinTauBits <= tau_bits <= kMaxTauBits.
void validate_hardening(const Hardening& hardening);

// Throws ParameterError naming `parameter` unless numerator and denominator of value are below
// 2^64 and lower <= value <= upper (`range` is the allowed range as the user reads it).
void validate_hardened_rational(const char* parameter, const mpq_class& value, const mpq_class& lower,
                                const mpq_class& upper, const char* range);

// The mean of a hardened sampler: |mean| <= 2^62, so that mean + noise never overflows int64
// (the noise of every supported parameter is below 2^61 in magnitude). ParameterError naming mean.
[[nodiscard]] std::int64_t hardened_mean(const mpz_class& mean);

}  // namespace exactdp
