// pld/pld_composition.h — exact composition of discretised privacy loss distributions
// (discrete_pld.h) and the certified delta / epsilon they imply (the pld route).
//
// compose(a, b): the convolution of the two mass sequences, EXACT: the uint64 masses are packed
// into one GMP integer per operand (Kronecker substitution) at slots of
// bits(max a) + bits(max b) + bits(min(na, nb)) bits (<= 148), so no carry crosses a slot:
// every product coefficient is below min(na, nb) max(a) max(b)), multiplied by GMP (schoolbook,
// Toom or FFT: all exact integer arithmetic), and unpacked. Each coefficient, now at scale
// 2^(2 scale_bits), is re-rounded to 2^scale_bits: UP for Side::kUpper, DOWN for kLower.
// Infinity masses: kUpper m_inf(a * b) = m_inf(a) + m_inf(b) >= 1 - (1 - m_inf(a))(1 -
// m_inf(b)), the true mass at +infinity of the composition when m_inf are upper bounds (the
// finite part of a composition is the convolution of the finite parts, bounded entrywise);
// kLower: A + B - ceil(A B 2^-s) (1 - (1-a)(1-b) rounded down).
// Truncation after every product, on the EXACT product coefficients before re-rounding, keeps
// the support small (tail_bits, default 56):
//   kUpper: the top entries whose total mass is at most 2^-tail_bits go to +infinity (losses
//           raised: delta can only grow); the bottom entries of total mass at most
//           2^-tail_bits are moved UP onto the first kept grid point (losses raised);
//   kLower: both are dropped (masses lowered: delta can only shrink).
// So composing kUpper objects stays an upper bound for every eps and kLower a lower bound
// (discrete_pld.h). self_compose(a, k) squares repeatedly (O(log k) products).
// Limits: at most max_points (default and cap kMaxPoints) grid points in a product (LimitError
// naming "count" beyond); a product mass above 2^64 units (the tilted chains of a grid far too
// coarse for the composition, e.g. step 1 over 1000 events) is refused with LimitError naming
// "pld-step".
//
// delta_at(pld, eps) encloses sum_{l > eps} (1 - e^(eps - l)) m(l) 2^-s + m_inf 2^-s, the
// hockey-stick divergence the masses imply, rounded OUTWARD (MPFR); for a kUpper object its
// UPPER end bounds the true delta(eps) from above, for kLower its LOWER end from below.
// epsilon_at(pld, delta): kUpper: the smallest grid loss eps >= 0 with delta_at(eps).upper <=
// delta (so the true epsilon(delta) <= it); kLower: the largest grid loss eps >= 0 with
// delta_at(eps).lower > delta (the true epsilon(delta) > it), or 0 when there is none.
// Returns std::nullopt for kUpper when no grid point qualifies (infinity mass above delta).
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/pld/discrete_pld.h>

namespace exactdp::accounting::pld {

inline constexpr std::size_t kMaxPoints = std::size_t{1} << 24;

[[nodiscard]] DiscretePld compose(const DiscretePld& a, const DiscretePld& b, unsigned tail_bits = 56,
                                  std::size_t max_points = kMaxPoints);
[[nodiscard]] DiscretePld self_compose(const DiscretePld& a, unsigned long k, unsigned tail_bits = 56,
                                       std::size_t max_points = kMaxPoints);

// Drops zero masses at both ends of `p` (first_index follows): a lower-side coefficient below
// one unit rounds to 0, and discretisations leave empty cells at their ends.
void trim_zero_ends(DiscretePld& p);

// The identity of composition (all mass at loss 0) on the grid and scale of `like`.
[[nodiscard]] DiscretePld identity_like(const DiscretePld& like);

// Naive O(n^2) convolution with the same rounding (tests).
[[nodiscard]] DiscretePld compose_naive(const DiscretePld& a, const DiscretePld& b);

[[nodiscard]] Interval delta_at(const DiscretePld& pld, const mpq_class& epsilon,
                                mpfr_prec_t precision = kDefaultPrecision);
[[nodiscard]] std::optional<mpq_class> epsilon_at(const DiscretePld& pld, const mpq_class& delta,
                                                  mpfr_prec_t precision = kDefaultPrecision);
// delta_upper_curve(pld, last): the upper ends of delta_at(pld, j/n) for j = 0 .. last, in one
// downward sweep (the one epsilon_at makes); Side::kUpper untilted chains (logic_error otherwise).
[[nodiscard]] std::vector<Real> delta_upper_curve(const DiscretePld& pld, long last);

}  // namespace exactdp::accounting::pld
