// optimal_partition_selection.h — the optimal partition selection of Desfontaines, Voss, Gipson
// and Mandayam ("Differentially private partition selection", PoPETs 2022), made exact
// (docs/AGGREGATE.md, "Partition selection").
//
// Mechanism: a group with n kept units is released with probability p(n), drawn by an exact
// Bernoulli of the rational p(n) (bernoulli.h). The optimal (eps, delta)-DP release law is
//   pi(0) = 0,  pi(n) = min(e^eps pi(n-1) + delta, 1 - e^-eps (1 - delta - pi(n-1)), 1);
// e^eps is irrational, so the table used is p(n) = P_n / 2^b with integers P_n:
//   P_0 = 0,  P_n = min(floor(E P_{n-1}) + D,  2^b - ceil((2^b - D - P_{n-1}) / E),  2^b)
// (the middle term only when 2^b - D - P_{n-1} > 0), where E <= e^eps is the certified lower end
// of e^eps (MPFR, rounded down: an exact dyadic rational), D = floor(delta 2^b) <= delta 2^b and
// b = bitlength(ceil(1 / delta)) + 64 (so the rounding is 2^-64 of delta or finer).
// Why p is (eps, delta)-DP for one group whose unit count moves by one (n vs n + 1, n >= 0; a
// group with 0 units is never a candidate, which is p(0) = 0): the two outcomes give the four
// conditions
//   (A) p(n) <= e^eps p(n-1) + delta           (B) p(n-1) <= e^eps p(n) + delta
//   (C) 1 - p(n-1) <= e^eps (1 - p(n)) + delta (D) 1 - p(n) <= e^eps (1 - p(n-1)) + delta.
// (A): p(n) <= (E P_{n-1} + D) / 2^b <= e^eps p(n-1) + delta, as p(n-1) >= 0 and E <= e^eps:
//   the LOWER end of e^eps is the safe one. (C): if s = 1 - delta - p(n-1) <= 0, (C) holds for
//   any p(n) <= 1; else 2^b - D - P_{n-1} >= s 2^b > 0 and 1 - p(n) >= (2^b - D - P_{n-1}) / (E 2^b)
//   >= s / e^eps, i.e. (C): dividing by the LOWER end is the safe side again. Every term rounds p(n)
//   DOWN, which only helps (A) and (C), and each step uses the rounded p(n-1) actually stored.
//   (B), (D): p is nondecreasing, so they hold with room to spare: E >= 1 makes the first term
//   >= P_{n-1} + D; E >= 1 makes ceil(x / E) <= x for the integer x = 2^b - D - P_{n-1}, so the
//   second term is >= P_{n-1} + D too; the third is 2^b >= P_{n-1}.
// Saturation and the cap: the table stops at the first n with p(n) = 1, or after max_entries
// entries (saturated = false). Beyond the last entry p is CONSTANT (p(n) = p(last)): (A)-(D) hold
// for two equal values, so the extension is private (a capped table only releases less).
// Length: about 2 ln(1 / (2 delta)) / eps entries (p grows like e^(n eps) delta up to 1/2, then
// 1 - p shrinks like e^(-n eps) / 2); cap kMaxOptimalSelectionEntries, and the entries' total size
// kMaxOptimalSelectionBytes (b grows with ln(1 / delta)).
// first_uncertified_selection_step re-checks (A)-(D) of a table's entries as stored, in exact
// integer arithmetic with the certified lower end of e^eps (used by the calibration before
// anything is drawn, and by the tests on tables broken on purpose).
// Errors: ParameterError naming epsilon or delta. Thread-safety: pure functions; the table is
// immutable once built.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

inline constexpr std::size_t kMaxOptimalSelectionEntries = std::size_t{1} << 20;
inline constexpr std::size_t kMaxOptimalSelectionBytes = std::size_t{64} << 20;

struct OptimalSelectionTable {
  mpq_class epsilon;  // per group
  mpq_class delta;    // per group
  unsigned long bits = 0;             // b: p(n) = numerators[n] / 2^b
  std::vector<mpz_class> numerators;  // n = 0 .. size - 1; numerators[0] = 0
  bool saturated = false;             // the last entry is 1

  // p(min(n, size - 1)); 0 for n <= 0.
  [[nodiscard]] mpq_class probability(const mpz_class& units) const;
  // The smallest n with p(n) = 1 (nullopt when the table was capped before).
  [[nodiscard]] std::optional<std::size_t> saturation() const;
};

// The table for a per-group (epsilon, delta); 0 < epsilon <= 10^6, 0 < delta < 1.
[[nodiscard]] OptimalSelectionTable optimal_selection_table(const mpq_class& epsilon, const mpq_class& delta,
                                                            std::size_t max_entries = kMaxOptimalSelectionEntries);

// Certifies (A)-(D) above for p(n) = numerators[n] / 2^bits (p(0) must be 0, every p in [0, 1])
// for every consecutive pair and for the constant extension (last, last), exactly, with
// E = the certified lower end of e^epsilon and delta rounded down to the table's grid:
// (A) is checked as p(n) - floor(delta 2^b) / 2^b <= E p(n-1), which implies (A) since
// p(n-1) >= 0 and E <= e^eps (likewise (B)-(D)). Returns the first n whose pair
// (p(n-1), p(n)) fails (n = size for the extension; 0 when p(0) != 0), nullopt when none does.
// A violated condition is always reported; one within 2^-128 relative of the boundary may be too.
[[nodiscard]] std::optional<std::size_t> first_uncertified_selection_step(const OptimalSelectionTable& table);

// The table's probabilities as rationals.
[[nodiscard]] std::vector<mpq_class> selection_probabilities(const OptimalSelectionTable& table);

// One group's decision: an exact Bernoulli(p(units)).
[[nodiscard]] bool draw_optimal_selection(BitSource& bits, const OptimalSelectionTable& table,
                                          const mpz_class& units);

}  // namespace exactdp::mechanisms
