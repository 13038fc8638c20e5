// search_budget.h — the work budget every parameter search runs under, and the
// largest-feasible-value search built on it.
//
// A calibration searches for a parameter x by evaluating a certified condition at probe values.
// Two things make such a search run away: probes whose size grows without bound (a search that
// scales by squared factors holds a 2^k-bit number after k rounds: GMP and MPFR time grows with
// those bits, and k = 30 exhausts memory) and evaluations that never end (a condition that is
// never met). SearchBudget bounds both:
//   * every probe holds at most max_probe_bits bits of numerator plus denominator
//     (kMaxSearchProbeBits = 2^22 by default: 512 KiB, a factor 2^(2^21) either way from a guess
//     near 1, far beyond any parameter the 10,000-digit inputs need: epsilon = 10^-100000 needs
//     rho ~ 2^-664,400);
//   * a search makes at most max_evaluations evaluations (kMaxSearchEvaluations = 4,096).
// Past either, charge() throws the caller's LimitError (naming the parameters that made the
// search fail), so a search refuses instead of running forever. Precision is bounded apart:
// every certified evaluation stops at kMaxPrecision bits (core/interval.h).
//
// Thread-safety: a SearchBudget belongs to one search.
#pragma once

#include <gmpxx.h>

#include <functional>

#include <exactdp/core/errors.h>

namespace exactdp::accounting {

inline constexpr long kMaxSearchProbeBits = 1L << 22;
inline constexpr int kMaxSearchEvaluations = 4096;

// Bits of numerator plus denominator of x.
[[nodiscard]] long probe_bits(const mpq_class& x);

class SearchBudget {
 public:
  explicit SearchBudget(std::function<LimitError()> refuse, long max_probe_bits = kMaxSearchProbeBits,
                        int max_evaluations = kMaxSearchEvaluations);

  // Counts one evaluation at x; throws refuse() when x is over the bits or no evaluation is left.
  void charge(const mpq_class& x);
  // Throws refuse() when a probe of `bits` bits would be over the budget (checked before a probe
  // is formed, so an oversized one is never built).
  void check_bits(long bits) const;
  [[nodiscard]] int evaluations() const { return evaluations_; }
  [[nodiscard]] long max_probe_bits() const { return max_probe_bits_; }

 private:
  std::function<LimitError()> refuse_;
  long max_probe_bits_;
  int max_evaluations_;
  int evaluations_ = 0;
};

// The largest x (to a relative 2^-precision_bits) with meets(x), for a condition that holds on
// (0, x*] and fails above x* (a probe may be refused by meets returning false: it is treated as
// above). From x0 > 0: galloping down by 2^1, 2^2, 2^4, ... until a probe meets, then up by
// doubling exponents until one fails, a bisection on the exponent, then on the value. Every
// probe is charged to `budget` (so an x* below x0 2^-(max_probe_bits) is refused by the budget's
// LimitError after a few dozen evaluations). Returns a value proven to meet.
[[nodiscard]] mpq_class largest_meeting(const std::function<bool(const mpq_class&)>& meets,
                                        const mpq_class& x0, SearchBudget& budget,
                                        int precision_bits = 30);

}  // namespace exactdp::accounting
