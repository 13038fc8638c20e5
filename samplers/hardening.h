// hardening.h — the switch shared by the hardened (isochronous) samplers: how far their law may
// be from the exact law.
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
// (What their make() shares is internal: samplers/internal/hardened_setup.h.)
#pragma once

namespace exactdp {

inline constexpr unsigned kDefaultTauBits = 64;
inline constexpr unsigned kMinTauBits = 40;
inline constexpr unsigned kMaxTauBits = 128;

// The parameter ranges of the hardened samplers (their make() throws ParameterError outside):
// discrete Gaussian 1/100 <= sigma2 <= 2^kHardenedMaxSigma2Log2, discrete Laplace
// 1/100 <= scale <= 2^kHardenedMaxScaleLog2, numerator and denominator below
// 2^kHardenedMaxValueBits. Every draw then fits in int64 with |noise| < 2^61 (checked when the
// tables are built).
inline constexpr long kHardenedMaxSigma2Log2 = 100;
inline constexpr long kHardenedMaxScaleLog2 = 50;
inline constexpr unsigned kHardenedMaxValueBits = 128;

// How the hardened discrete Gaussian hides its timing (docs/HARDENED.md):
//   kFixedWork: every draw runs the same instructions and reads the same bits (the convolution of
//     table scans), whatever the output and whatever the random bits;
//   kRejection: for 2^10 <= sigma2 < 2^56 and tau_bits <= 64, proposals that each run the same
//     instructions, repeated until one is accepted; the number of proposals is independent of the
//     output (within tau), so the time reveals nothing about it. Several times faster at large
//     sigma2 (grid noise uses it); outside that range the same as kFixedWork. The discrete Laplace
//     has one method (kFixedWork).
enum class HardenedMethod { kFixedWork, kRejection };

struct Hardening {
  // The certified bound: TV(hardened law, exact law) <= 2^-tau_bits, kMinTauBits..kMaxTauBits.
  unsigned tau_bits = kDefaultTauBits;
  HardenedMethod method = HardenedMethod::kFixedWork;
};

}  // namespace exactdp
