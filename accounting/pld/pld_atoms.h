// pld/pld_atoms.h — the certified discretisation of a pair given as ATOMS: outcomes (or groups
// of outcomes with one loss range) with enclosed P-mass, Q-mass and loss. Used for the
// discrete Gaussian, the discrete Laplace and the Laplace (whose continuous middle part enters
// as one atom per loss cell) and their Poisson-subsampled pairs (pld_events.h).
//
// An atom is a set of outcomes whose losses log(dP/dQ) all lie in the enclosure `loss`, with
// P(set) in `p` and Q(set) in `q`. Tails: outcomes not covered by any atom, on the low-loss side
// (P-mass <= p_low, Q-mass <= q_low, losses below every atom's) and on the high-loss side
// (P-mass <= p_high, losses >= high_loss_from, so Q-mass <= e^(-high_loss_from) p_high).
//
// discretize_atoms(pair, options) -> DiscretizedEvent (pld_events.h), on the grid l_i = i/n:
//   upper: connect the dots per atom between l_a = floor(n loss.lower)/n and
//     l_b = ceil(n loss.upper)/n (the atom's outcomes all have losses in [l_a, l_b]): b at
//     l_b, a = p - b at l_a with b = (p e^(-l_a) - q) / (e^(-l_a) - e^(-l_b)) — merging the
//     split atoms gives the atom back, so the split pair dominates (Doroshenko et al. 2022);
//     an atom with l_a == l_b keeps its mass there. Upper ends, rounded UP. High tail to
//     +infinity, low tail onto the lowest grid loss.
//   test_p / test_q: each atom mapped to the cell floor(n loss.lower / c) (c = test_coarsening;
//     any fixed map of outcomes is a post-processing), P rounded DOWN, Q rounded UP and tilted
//     by e^(l_T + c/(2n)); the tails to the first / last cell (pld_test_bound.h).
// discretize_atoms_test(pair, options) -> TestChains: test_p / test_q alone. For it an atom's
//   `loss` is only the KEY that maps the atom to its cell (and the cell's tilt): the test is a
//   post-processing for ANY fixed map of outcomes, so the chains stay proven bounds for the test
//   even when `loss` is a nominal value (pld_replace_one.cc builds atoms whose x-boundaries are
//   approximate inverses of the loss). The upper chain needs true loss enclosures: only
//   discretize_atoms makes it.
// discretize_atoms_wide(pair, n, scale_bits) -> WideDiscretizedEvent (pld_events.h): the upper
//   chain as discretize_atoms' with GMP masses rounded UP; the test pair with cells one grid step
//   wide (c = 1), P DOWN, Q UP, untilted, the tails dropped (wide_pld.h).
// discretize_atoms_wide_test(pair, n, scale_bits) -> WideTestPair: that test pair alone; like
//   discretize_atoms_test, `loss` need only be a key (any fixed map of outcomes to labels is a
//   post-processing: wide_pld.h), so it serves the replace-one instance (pld_replace_instance.h).
// Throws LimitError naming "pld-step" beyond 5 * 10^7 grid points.
#pragma once

#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/pld/pld_events.h>

namespace exactdp::accounting::pld {

struct Atom {
  Interval p, q, loss;
};

struct AtomPair {
  std::vector<Atom> atoms;
  Interval p_low{0L, kDefaultPrecision}, q_low{0L, kDefaultPrecision};  // low-loss tail
  Interval p_high{0L, kDefaultPrecision};                                  // high-loss tail
  Interval high_loss_from{0L, kDefaultPrecision};
};

[[nodiscard]] DiscretizedEvent discretize_atoms(const AtomPair& pair, const DiscretizationOptions& options);

struct TestChains {
  DiscretePld test_p;  // Side::kLower
  DiscretePld test_q;  // Side::kUpper, tilted
};
[[nodiscard]] WideDiscretizedEvent discretize_atoms_wide(const AtomPair& pair, unsigned long steps_per_unit,
                                                         unsigned scale_bits);

[[nodiscard]] WideTestPair discretize_atoms_wide_test(const AtomPair& pair, unsigned long steps_per_unit,
                                                     unsigned scale_bits);

[[nodiscard]] TestChains discretize_atoms_test(const AtomPair& pair, const DiscretizationOptions& options);

}  // namespace exactdp::accounting::pld
