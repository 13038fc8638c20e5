// pld/wide_pld.h — privacy loss distributions with WIDE fixed-point masses (GMP integers at
// 2^-scale_bits: 96 to 664 bits in pld_few_steps.h), for the few-step route (pld_few_steps.h), where the
// delta asked about can be far below the 2^-60 resolution of discrete_pld.h's uint64 masses
// (docs/ACCOUNTING_SUBSAMPLED.md "A few subsampled steps").
//
// Two objects, both on the loss grid l_i = i / steps_per_unit:
//   WideChain (the upper end): masses entrywise >= those of a pair that DOMINATES the true one
//     (connect the dots, discrete_pld.h's Side::kUpper), rounded UP; infinity_mass >= the mass at
//     loss +infinity. delta_upper(eps) = sum_{l > eps} (1 - e^(eps - l)) m(l) + m_inf, enclosed
//     and its upper end taken: >= the true delta(eps) (each term's weight is >= 0).
//   WideTestPair (the lower end): p[i] <= P(G_i), q[i] >= Q(G_i) for the groups G_i of a
//     DETERMINISTIC map of outcomes to labels i (one label per loss cell; outcomes of the
//     truncated tails map to a label "dropped" that is not stored). The labelled pair is a
//     post-processing of the true pair, so
//         delta(eps) >= sum_labels (P(G) - e^eps Q(G))^+ >= sum_i (p[i] - e^eps q[i])^+
//     (the dropped label's term is >= 0 and left out; each kept term is increasing in p and
//     decreasing in q). delta_lower(eps) is a sum of such terms over a set of labels (below),
//     rounded DOWN: at most the sum of the positive parts.
// Composition (the product of independent pairs): the labels of the product are sums of labels
// (a dropped part makes the whole dropped: still a deterministic map), so the test pair composes
// by convolving p (products rounded DOWN) and q (rounded UP) over the SAME kept indices; the
// chain by convolving its masses (rounded UP). Both convolutions are exact GMP integer products
// (Kronecker substitution, slots of bits(max a) + bits(max b) + bits(min(na, nb)) bits) before the
// re-rounding from 2^-2s to 2^-s.
// Truncation after each product, on the exact coefficients (units 2^-2s), at most 2^-tail_bits
// per side:
//   chain: the top entries go to +infinity, the bottom ones up onto the first kept entry (losses
//     only raised: still dominating);
//   test pair: entries whose P-mass is small are DROPPED together with their Q-mass (the index is
//     relabelled "dropped": a deterministic map, so the bound above still holds; it loses at most
//     the dropped P-mass in delta).
// The sums are taken at scale_bits + 96 bits (the masses' own bits plus margin), every MPFR
// operation rounded in the direction that keeps the bound.
// epsilon_upper(chain, delta): a rational eps with delta_upper(eps) <= delta (so the true
//   epsilon(delta) <= eps), within 2^-resolution_bits of a grid step of the least such (a
//   downward sweep over the grid epsilons, then bisection inside the last step, where the set
//   {l > eps} is fixed); nullopt when m_inf alone exceeds delta.
// epsilon_lower(test, delta): the entries sorted by decreasing p/q (a double estimate: any
//   order is sound); for each prefix S with p(S) > delta, delta(eps) >= p(S) - e^eps q(S) > delta
//   for eps < log((p(S) - delta) / q(S)), so the true epsilon(delta) >= that; the maximum over
//   the prefixes, rounded DOWN, or 0. delta_lower uses the same prefix sums (the prefix cut where
//   the estimated ratio passes e^eps, and its neighbours): sum over any set of
//   (p - e^eps q) is <= the sum of the positive parts.
// Limits: LimitError naming "count" when a product would hold more than kMaxPoints grid points.
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::accounting::pld {

struct WideChain {
  unsigned long steps_per_unit = 1;
  long first_index = 0;
  unsigned scale_bits = 128;
  std::vector<mpz_class> masses;  // masses[j] at loss (first_index + j) / steps_per_unit
  mpz_class infinity_mass;        // same scale
};

struct WideTestPair {
  unsigned long steps_per_unit = 1;
  long first_index = 0;
  unsigned scale_bits = 128;
  std::vector<mpz_class> p, q;  // same length; label first_index + j (its cell's lower loss)
};

[[nodiscard]] WideChain compose(const WideChain& a, const WideChain& b, unsigned tail_bits);
[[nodiscard]] WideChain self_compose(const WideChain& a, unsigned long k, unsigned tail_bits);
[[nodiscard]] WideTestPair compose(const WideTestPair& a, const WideTestPair& b, unsigned tail_bits);
[[nodiscard]] WideTestPair self_compose(const WideTestPair& a, unsigned long k, unsigned tail_bits);

// Zero entries at both ends dropped (first_index follows; a test pair's entry only when p and q
// are both zero).
void trim_zero_ends(WideChain& c);
void trim_zero_ends(WideTestPair& t);

[[nodiscard]] Real delta_upper(const WideChain& chain, const mpq_class& epsilon);
[[nodiscard]] Real delta_lower(const WideTestPair& test, const mpq_class& epsilon);
[[nodiscard]] std::optional<mpq_class> epsilon_upper(const WideChain& chain, const mpq_class& delta,
                                                     unsigned resolution_bits = 24);
[[nodiscard]] mpq_class epsilon_lower(const WideTestPair& test, const mpq_class& delta);

}  // namespace exactdp::accounting::pld
