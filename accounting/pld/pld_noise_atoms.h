// pld/pld_noise_atoms.h — the atoms (pld_atoms.h) of the discrete Gaussian, discrete Laplace and
// Laplace noise pairs, plain (q = 1) or Poisson-subsampled with rate q, for one pair order
// (pld_events.h dispatches here for every event that is not Gaussian).
//
// Base laws, sensitivity Delta > 0: Q0 = the noise law centred at 0, Q1 = centred at Delta,
// r = dQ1/dQ0. Pairs: kRemove P = (1-q) Q0 + q Q1 against Q = Q0, loss log(1 - q + q r(x));
// kAdd P = Q0 against Q = the mixture, loss -log(1 - q + q r(x)). q = 1 is the plain pair
// (Q1 against Q0), and then both orders have the same loss distribution.
//   discrete Gaussian (sigma2, integer Delta): w(x) = e^(-x^2 / (2 sigma2)), r(x) =
//     e^((2 x Delta - Delta^2) / (2 sigma2)); one atom per integer x in [-X, X + Delta],
//     normaliser Z = sum w enclosed with the geometric tail bound
//     sum_{x > M} w(x) <= w(M+1) / (1 - e^(-(M+1)/sigma2)); X the least multiple of
//     ceil(sigma) / 4 whose every tail (P and Q, both sides) is at most 2^-tail_bits.
//     LimitError naming "sigma2" beyond 2 * 10^6 atoms.
//   discrete Laplace (scale t, integer Delta): w(x) = e^(-|x|/t), Z = (1 + e^(-1/t)) /
//     (1 - e^(-1/t)); r is constant for x <= 0 (e^(-Delta/t)) and x >= Delta (e^(Delta/t)),
//     so those blocks are two atoms with masses in closed form (geometric series), plus one atom
//     per 0 < x < Delta: exact, no tail. LimitError naming "sensitivity" beyond 2 * 10^6.
//   Laplace (scale b, Delta; eps = Delta / b, in units of b): Q0 = Lap(0, 1), Q1 = Lap(eps, 1);
//     blocks x <= 0 (Q0 1/2, Q1 e^(-eps)/2) and x >= eps (Q0 e^(-eps)/2, Q1 1/2) are atoms; the
//     middle, where the loss is continuous and increasing, one atom per grid cell [l_j, l_j+1]
//     of the kRemove loss, its x-interval by X(l) = (log((e^l - (1-q)) / q) + eps) / 2 and its
//     masses Q0 = (e^(-a) - e^(-b))/2, Q1 = (e^(b-eps) - e^(a-eps))/2. LimitError naming
//     "pld-step" beyond 2 * 10^6 cells.
// Every quantity is an outward-rounded interval (interval.h).
#pragma once

#include <gmpxx.h>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/pld/discrete_pld.h>
#include <exactdp/accounting/pld/pld_atoms.h>

namespace exactdp::accounting::pld {

// The discrete Gaussian's weights for the atoms (here and pld_replace_instance.cc):
// w(x) = e^(-x^2 / (2 sigma2)) enclosed, the geometric tail bound
// tail_after(m) >= sum_{x > m} w(x) = w(m+1) / (1 - e^(-(m+1)/sigma2)) (m >= 0), and x_max, the
// least multiple of ceil(sigma)/4 with tail_after(x_max) <= 2^-tail_bits. LimitError naming
// "sigma2" when sigma > 2 * 10^6.
class DiscreteGaussianWeights {
 public:
  DiscreteGaussianWeights(const mpq_class& sigma2, unsigned tail_bits);
  [[nodiscard]] Interval w(long x) const;
  [[nodiscard]] Interval tail_after(long m) const;
  [[nodiscard]] long x_max() const { return x_max_; }

 private:
  mpq_class sigma2_;
  long x_max_ = 1;
};

// The pair's atoms by the base's closed-form noise (law_privacy.h: discrete_gaussian_noise(),
// discrete_laplace_noise(), laplace_noise()), else the law's own base_atoms(), which cover all
// mass (no tails).
[[nodiscard]] AtomPair noise_atoms(const PrivacyEvent& base, const mpq_class& q, PairOrder order,
                                   unsigned long steps_per_unit, unsigned tail_bits);

}  // namespace exactdp::accounting::pld
