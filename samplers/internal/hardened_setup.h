// internal/hardened_setup.h — what every hardened sampler's make() starts from (not installed;
// the public switch is hardening.h).
#pragma once

#include <gmpxx.h>

#include <cstdint>

#include <exactdp/samplers/hardening.h>
#include <exactdp/samplers/internal/hardened_tables.h>

namespace exactdp::internal {

// The checked public parameters and the budget of the sampler's tables for tau <= 2^-tau_bits.
// Thresholds are W = tau_bits + 16 bits wide and every table is cut where the tail left out is
// at most 2^-(tau_bits + 8), so that the at most 2 L + 1 <= 49 components of a sampler (tables,
// convolution steps; L <= 24 levels at sigma2 <= 2^100) add up to well below 2^-tau_bits.
struct HardenedSetup {
  mpq_class value;          // the law's parameter (sigma2 or scale), canonical
  std::int64_t mean = 0;    // |mean| <= 2^62: mean + noise never overflows (|noise| < 2^61)
  unsigned tau_bits = kDefaultTauBits;
  FixedWidth width;
  long tail_log2 = 0;
};

// Throws ParameterError naming tau_bits (kMinTauBits..kMaxTauBits), `parameter` (numerator and
// denominator below 2^kHardenedMaxValueBits, 1/100 <= value <= upper; `range` as the user reads
// it) or mean.
[[nodiscard]] HardenedSetup prepare_hardened(const char* parameter, const mpq_class& value,
                                             const mpq_class& upper, const char* range,
                                             const mpz_class& mean, Hardening hardening);

// The last step of make(): std::logic_error unless tau_upper <= 2^-tau_bits (the budget above
// guarantees it; this check makes the guarantee unconditional).
void require_tau_within_target(const mpq_class& tau_upper, unsigned tau_bits);

}  // namespace exactdp::internal
