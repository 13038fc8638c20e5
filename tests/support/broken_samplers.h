// broken_samplers.h — DELIBERATELY WRONG samplers, for tests that prove the statistical checks can
// fail (a check that cannot fail is a defect). Tests only: never ship these.
//
// Each is a small self-contained re-implementation of CKS20 Algorithms 1-3 on machine integers
// with one bug switched on (BrokenCks20::Bug), or a textbook floating-point sampler:
//   kModuloUniform      Alg. 2 draws U = bits(k) mod t (k = bit length of t): modulo bias.
//   kParityFlipK3       Alg. 1 returns the wrong parity when its loop stops at K >= 3.
//   kNoZeroRejection    Alg. 2 keeps (B = 1, Y = 0): P[0] doubled.
//   kDoubleExp          Alg. 3 accepts when a 53-bit uniform double < std::exp(-gamma) (double):
//                       probabilities off by about 2^-53 only (see docs/AUDIT.md: undetectable).
//   kMismatchedT        Alg. 3 proposes Lap(t + 1) but accepts with the formula for t ("wrong t").
//   kNone               the correct algorithm (checks the re-implementation itself).
// rounded_gaussian / rounded_laplace: round(continuous noise) from doubles (Box-Muller /
// inverse cdf). textbook_laplace_mechanism: Mironov (2012)'s floating-point Laplace mechanism.
// Doubles are allowed here (tests/support); the broken samplers exist to be caught.
#pragma once

#include <gmpxx.h>

#include <cmath>
#include <numbers>
#include <cstdint>
#include <stdexcept>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/uniform.h>

namespace exactdp::test_support {

class BrokenCks20 {
 public:
  enum class Bug { kNone, kModuloUniform, kParityFlipK3, kNoZeroRejection, kDoubleExp, kMismatchedT };

  explicit BrokenCks20(Bug bug) : bug_(bug) {}

  // Bernoulli(exp(-num/den)) (CKS20 Alg. 1 with the bug, if any).
  bool bernoulli_exp(BitSource& bits, uint128 num, uint128 den) const {
    const uint128 whole = num / den;
    for (uint128 i = 0; i < whole; ++i) {
      if (!bernoulli_exp_fraction(bits, 1, 1)) return false;
    }
    return bernoulli_exp_fraction(bits, num - whole * den, den);
  }

  // Discrete Laplace with scale t/s (CKS20 Alg. 2 with the bug, if any).
  std::int64_t discrete_laplace(BitSource& bits, std::uint64_t t, std::uint64_t s) const {
    for (;;) {
      const std::uint64_t u = uniform_in_alg2(bits, t);
      if (!bernoulli_exp_fraction(bits, u, t)) continue;
      std::uint64_t v = 0;
      while (bernoulli_exp_fraction(bits, 1, 1)) ++v;
      const uint128 x = static_cast<uint128>(u) + static_cast<uint128>(t) * v;
      const auto y = static_cast<std::int64_t>(x / s);
      const bool b = bits.bit();
      if (b && y == 0 && bug_ != Bug::kNoZeroRejection) continue;
      return b ? -y : y;
    }
  }

  // Discrete Gaussian with sigma2 = p/q (CKS20 Alg. 3 with the bug, if any).
  std::int64_t discrete_gaussian(BitSource& bits, std::uint64_t p, std::uint64_t q) const {
    mpz_class fl = p / q, root;
    mpz_sqrt(root.get_mpz_t(), fl.get_mpz_t());
    const std::uint64_t t = mpz_get_ui(root.get_mpz_t()) + 1;
    const std::uint64_t proposal_t = bug_ == Bug::kMismatchedT ? t + 1 : t;
    for (;;) {
      const std::int64_t y = discrete_laplace(bits, proposal_t, 1);
      const uint128 ay = static_cast<uint128>(y < 0 ? -y : y);
      const uint128 a = ay * q * t;
      const uint128 diff = a >= p ? a - p : p - a;
      const uint128 num = diff * diff;
      const uint128 den = static_cast<uint128>(2) * p * q * t * t;
      bool accept = false;
      if (bug_ == Bug::kDoubleExp) {
        const double gamma = static_cast<double>(num) / static_cast<double>(den);
        const double u = static_cast<double>(bits.bits(53)) * 0x1p-53;
        accept = u < std::exp(-gamma);
      } else {
        accept = bernoulli_exp(bits, num, den);
      }
      if (accept) return y;
    }
  }

 private:
  bool bernoulli_exp_fraction(BitSource& bits, uint128 num, uint128 den) const {
    if (num == 0) return true;
    uint128 k = 1;
    for (;; ++k) {
      if (!(sample_uniform_below(bits, den * k) < num)) break;
    }
    const bool odd = (k & 1) != 0;
    return (bug_ == Bug::kParityFlipK3 && k >= 3) ? !odd : odd;
  }

  std::uint64_t uniform_in_alg2(BitSource& bits, std::uint64_t t) const {
    if (bug_ != Bug::kModuloUniform) return sample_uniform_below(bits, t);
    unsigned k = 0;
    while (k < 63 && (std::uint64_t{1} << k) < t) ++k;  // bit length of t - 1, i.e. 2^k >= t
    if ((std::uint64_t{1} << k) == t) ++k;              // make the bias visible for powers of 2 too
    return bits.bits(k) % t;
  }

  Bug bug_;
};

// A uniform double in (0, 1]: (k + 1) / 2^53.
inline double uniform_double(BitSource& bits) {
  return static_cast<double>(bits.bits(53) + 1) * 0x1p-53;
}

// round(sqrt(sigma2) * N(0, 1)) with Box-Muller in double precision.
inline std::int64_t rounded_gaussian(BitSource& bits, double sigma2) {
  const double u1 = uniform_double(bits), u2 = uniform_double(bits);
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  return static_cast<std::int64_t>(std::llround(std::sqrt(sigma2) * z));
}

// round(continuous Laplace with scale b) by the inverse cdf in double precision.
inline std::int64_t rounded_laplace(BitSource& bits, double b) {
  const double magnitude = -b * std::log(uniform_double(bits));
  return static_cast<std::int64_t>(std::llround(bits.bit() ? -magnitude : magnitude));
}

// Mironov (2012): the textbook floating-point Laplace mechanism, x + Lap(b) with
// Lap(b) = -b * sign * log(U), U a uniform double in (0, 1], all in double precision.
inline double textbook_laplace_mechanism(BitSource& bits, double x, double b) {
  const double u = uniform_double(bits);
  const double noise = -b * std::log(u);
  return bits.bit() ? x - noise : x + noise;
}

// 1 when y is an output the textbook Laplace noise itself (mechanism at x = 0) can produce, i.e.
// |y| = fl(-b log u) for some u = k / 2^53; 0 otherwise. Checks the few k whose log lands next to
// |y| (the inverse exp(-|y|/b) is accurate to far better than one step of u).
inline int textbook_noise_feasible(double y, double b) {
  const double m = std::fabs(y);
  const double u_star = std::exp(-m / b);
  const double k_star = std::floor(u_star * 0x1p53);
  for (double k = k_star - 4; k <= k_star + 4; k += 1) {
    if (k < 1 || k > 0x1p53) continue;
    if (-b * std::log(k * 0x1p-53) == m) return 1;
  }
  return 0;
}

}  // namespace exactdp::test_support
