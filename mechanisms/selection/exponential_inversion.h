// exponential_inversion.h — exact sampling of P[i] = exp(-gamma_i) / sum_j exp(-gamma_j) for
// rational gamma_i >= 0 by inversion with certified cumulative sums: O(log n) per draw whatever
// the spread of the scores (the rejection sampler of selection.h needs n / sum_j exp(-gamma_j)
// attempts, up to n).
//
// Method. Let F_i = (w_0 + ... + w_i) / W, w_i = exp(-gamma_i), W = sum w_j, F_{n-1} = 1. A
// uniform U in [0, 1) is drawn lazily, 64 fair bits at a time (after b bits it is known to lie
// in [z 2^-b, (z + 1) 2^-b)); the result is the i with F_{i-1} <= U < F_i, whose probability is
// exactly F_i - F_{i-1} = w_i / W. The F_i are not known exactly: the table holds integers
// L_i <= F_i 2^p <= H_i from MPFR interval arithmetic with outward (directed) rounding
// (core/interval.h) at a working precision p + 64, nondecreasing in i. A draw returns i
// only when that is PROVEN: H_j <= z 2^(p-b) for all j < i (so F_{i-1} <= U) and
// L_i >= (z + 1) 2^(p-b) (so U < F_i); otherwise it reads 64 more bits, and when b would
// exceed p the table is rebuilt at 2p. No decision ever rests on a rounded value, so the output
// law is exactly w_i / W: MPFR is used as certified interval arithmetic, never as an
// approximation of the answer (no float, double or long double anywhere).
// Termination: the F_i are fixed reals and U is a.s. none of them; widths shrink as p grows
// because every w_i is at least exp(-2^40), far inside MPFR's widest exponent range (make()
// refuses larger gaps). A draw needs more than b bits with probability about
// 2 n 2^-b (U within 2^-b of a boundary or its uncertainty), so 64 bits almost always suffice.
// Cost: building O(n) MPFR exponentials at 192 bits (about 1 microsecond each); a draw is one
// binary search over n - 1 integers of p bits: expected O(log n) time and 64 + o(1) bits.
// Memory: 2 (n - 1) integers of p bits (about 100 bytes per candidate at p = 128).
// Timing: NOT constant-time. Errors: make() returns nullopt when a gap exceeds kMaxInversionGamma
// or n < 2 (callers then use rejection). Thread-safety: sample() may rebuild the table; one
// object per thread.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

inline const mpq_class kMaxInversionGamma{mpz_class(1) << 40};

class ExponentialInversionTable {
 public:
  // gammas: all >= 0 (not necessarily with a zero). nullopt when n < 2 or a gamma exceeds 2^40.
  [[nodiscard]] static std::optional<ExponentialInversionTable> make(std::vector<mpq_class> gammas);
  [[nodiscard]] std::size_t sample(BitSource& bits);
  [[nodiscard]] unsigned long precision() const noexcept { return precision_; }

 private:
  ExponentialInversionTable() = default;
  void build(unsigned long precision);

  std::vector<mpq_class> gammas_;
  std::vector<mpz_class> low_, high_;  // L_i, H_i for i < n - 1
  unsigned long precision_ = 0;
  mpz_class z_, lo_, hi_;              // scratch
};

}  // namespace exactdp::mechanisms
