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

#include <exactdp/samplers/internal/hardened_tables.h>

namespace exactdp {

inline constexpr unsigned kDefaultTauBits = 64;
inline constexpr unsigned kMinTauBits = 40;
inline constexpr unsigned kMaxTauBits = 128;

struct Hardening {
  // The certified bound: TV(hardened law, exact law) <= 2^-tau_bits, kMinTauBits..kMaxTauBits.
  unsigned tau_bits = kDefaultTauBits;
};

namespace internal {

// What every hardened sampler's make() starts from: the checked public parameters and the
// budget of its tables for tau <= 2^-tau_bits. Thresholds are W = tau_bits + 16 bits wide and
// every table is cut where the tail left out is at most 2^-(tau_bits + 8), so that the at most
// 19 components of a sampler (tables, convolution steps) add up to well below 2^-tau_bits.
struct HardenedSetup {
  mpq_class value;          // the law's parameter (sigma2 or scale), canonical
  std::int64_t mean = 0;    // |mean| <= 2^62: mean + noise never overflows (|noise| < 2^61)
  unsigned tau_bits = kDefaultTauBits;
  FixedWidth width;
  long tail_log2 = 0;
};

// Throws ParameterError naming tau_bits (kMinTauBits..kMaxTauBits), `parameter` (numerator and
// denominator below 2^64, 1/100 <= value <= upper; `range` as the user reads it) or mean.
[[nodiscard]] HardenedSetup prepare_hardened(const char* parameter, const mpq_class& value,
                                             const mpq_class& upper, const char* range,
                                             const mpz_class& mean, Hardening hardening);

// The last step of make(): std::logic_error unless tau_upper <= 2^-tau_bits (the budget above
// guarantees it; this check makes the guarantee unconditional).
void require_tau_within_target(const mpq_class& tau_upper, unsigned tau_bits);

}  // namespace internal

}  // namespace exactdp
