// pld/discrete_pld.h — a privacy loss distribution (PLD) on a uniform grid of losses, with
// masses as fixed-point integers bounded in ONE stated direction: the common type of the
// certified PLD accountant (docs/ACCOUNTING.md "pld route").
//
// A pair (P, Q) of distributions has privacy loss L = log(dP/dQ)(X), X ~ P (+infinity where
// Q has no mass), and hockey-stick divergence
//     delta(eps) = E_P[(1 - exp(eps - L))^+]                                   (*)
// which is increasing in every mass of L's distribution (each term's weight is >= 0).
// Composition of pairs = independent sum of losses = convolution of the loss distributions;
// convolution of non-negative sequences is monotone in every entry. Hence:
//   * Side::kUpper: a sequence of masses that is entrywise >= the masses of a DOMINATING pair's
//     loss distribution (a pair whose delta(eps) is >= the true pair's for every eps, e.g. the
//     pessimistic or connect-the-dots discretisation) gives, by (*), delta_upper(eps) >= the
//     true delta(eps); composing kUpper objects by convolution (rounding masses UP after each
//     product) stays kUpper.
//   * Side::kLower: masses entrywise <= those of a pair DOMINATED by the true one (losses
//     rounded down, masses rounded down, truncated tails dropped) give delta_lower(eps) <= true
//     delta(eps); convolution with masses rounded DOWN stays kLower.
// The accountant's answer is [delta from the kLower chain, delta from the kUpper chain].
//
// Grid: the loss of masses[j] is (first_index + j) / steps_per_unit, an exact rational.
// Scale: masses[j] * 2^-scale_bits is the bounded probability (so a mass of 1 is 2^scale_bits;
// scale_bits <= 62 keeps every mass, also upper bounds slightly above 1, inside uint64).
// infinity_mass: the (bounded, same side, same scale) probability of loss +infinity. For kUpper
// it also receives every truncated upper tail; for kLower it may be 0.
// tilted (kUpper only; the lower end's Q chain, pld_test_bound.h): masses[j] bounds
// m_j e^(l_j + o) instead of m_j, o = tilt_half_steps / (2 steps_per_unit) (the infinity mass
// stays untilted). Each discretised step tilts by its cell's lower loss plus half a step (the
// cell's true mean loss is inside, so the tilted masses stay close to P's, without a drift of
// half a step per composed step); offsets add under composition. Tilting is multiplicative, so
// the convolution of tilted sequences is the tilted convolution; it keeps RELATIVE precision
// where a law's mass is tiny at high losses (Q there is about e^(-l) P, so the tilted masses
// are about P's). anywhere_mass D (tilted chains): the true tilted law is the kept masses plus
// a non-negative measure of total at most D placed ANYWHERE on the grid; its share of
// Q(index >= t) is at most D e^(-l_t - o). Composition truncates tilted chains into D
// (pld_composition.cc): moving truncated mass to a grid point instead would be unsound (an
// untilted Q-mass at a very negative loss is huge).
#pragma once

#include <cstdint>
#include <vector>

namespace exactdp::accounting::pld {

enum class Side { kUpper, kLower };

// Which pair of an add/remove relation is discretised: L = log(dP/dQ)(X), X ~ P, with
//   kRemove: P = the mechanism's output law on the LARGER dataset (e.g. the Poisson-subsampled
//            Gaussian's mixture (1-q) N(0, s^2) + q N(Delta, s^2)), Q = on the smaller (N(0, s^2));
//   kAdd:    the reverse (P = N(0, s^2), Q = the mixture).
// A bound for the relation takes the larger delta of the two orders' compositions at each eps.
// For an event that is not subsampled and symmetric (Gaussian, Laplace and their discrete
// analogues, pure-DP randomized response) both orders have the same loss distribution.
enum class PairOrder { kRemove, kAdd };

struct DiscretePld {
  Side side = Side::kUpper;
  unsigned long steps_per_unit = 10000;  // grid step 1 / steps_per_unit
  long first_index = 0;                  // loss of masses[0] is first_index / steps_per_unit
  unsigned scale_bits = 60;              // masses are integers m meaning m * 2^-scale_bits
  std::vector<std::uint64_t> masses;
  std::uint64_t infinity_mass = 0;       // mass at loss +infinity, same side and scale
  bool tilted = false;                   // masses[j] bounds m_j e^(l_j) (see above)
  std::uint64_t anywhere_mass = 0;       // tilted chains: unplaced tilted mass (see above)
  long tilt_half_steps = 0;              // tilted chains: the offset o in half grid steps
};

}  // namespace exactdp::accounting::pld
