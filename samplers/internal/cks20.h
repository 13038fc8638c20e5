// internal/cks20.h — Algorithms 1-3 of Canonne, Kamath, Steinke, "The Discrete Gaussian for
// Differential Privacy" (NeurIPS 2020; "CKS20"), written ONCE as templates over the integer type:
//   I = uint128     the fast path (no heap allocation),
//   I = uint64_t    Algorithm 1 only, where the bucket sampler's terms fit in 64 bits,
//   I = mpz_class   the GMP path (any size).
// Every random draw goes through sample_uniform_below / BitSource::bit, which read the same bits
// for every integer type, so both instantiations consume the same stream and return the same
// values; where a fast-path intermediate would overflow, that step is handed to the GMP
// instantiation at the same point of the algorithm (same bits again). Tests check stream equality.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <type_traits>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/uniform.h>

namespace exactdp::internal {

// ---- integer helpers -----------------------------------------------------------------------
inline mpz_class to_mpz(uint128 v) {
  mpz_class out(static_cast<unsigned long>(v >> 64));
  out <<= 64;
  out += static_cast<unsigned long>(v & 0xffffffffffffffffULL);
  return out;
}
// True and sets out when v fits in 128 bits (v >= 0).
inline bool fits_uint128(const mpz_class& v, uint128& out) {
  if (sgn(v) < 0 || mpz_sizeinbase(v.get_mpz_t(), 2) > 128) return false;
  mpz_class high = v >> 64;
  mpz_class low = v - (high << 64);
  out = (static_cast<uint128>(mpz_get_ui(high.get_mpz_t())) << 64) | mpz_get_ui(low.get_mpz_t());
  return true;
}
// sample_uniform_below into an existing variable (no allocation on the GMP path).
inline void uniform_into(BitSource& bits, const uint128& n, uint128& out) {
  out = sample_uniform_below(bits, n);
}
inline void uniform_into(BitSource& bits, const mpz_class& n, mpz_class& out) {
  sample_uniform_below(bits, n, out);
}
inline bool is_odd(uint128 v) { return (v & 1) != 0; }
inline bool is_odd(const mpz_class& v) { return mpz_odd_p(v.get_mpz_t()) != 0; }


// ---- Bernoulli(a / b) for 0 <= a <= b, b >= 1, by lazy comparison -------------------------
// Draws the bits of a uniform V in [0, 1) one at a time and compares them with the binary
// expansion of x = a / b, produced by long division (r <- 2r; digit = [r >= b]; r <- r - digit b,
// computed as a comparison with b - r so that nothing exceeds b). At the first differing bit,
// V < x iff V's bit is 0. If the expansion of x ends (r = 0) while V still agrees, V >= x with
// probability 1, so the answer is 0. Hence P[1] = x exactly. Bits: expected 2 (at most 1 + a
// geometric number), whatever the size of b; a = 0 and a = b draw none. `r` and `gap` are
// scratch variables (reused on the GMP path to avoid allocation).
template <class I>
bool bernoulli_ratio(BitSource& bits, const I& a, const I& b, I& r, I& gap) {
  if (a == 0) return false;
  if (a == b) return true;
  r = a;  // remainder of the long division of a by b; invariant 0 < r < b
  for (;;) {
    gap = b - r;
    const bool digit = !(r < gap);  // 2r >= b
    if (digit) {
      r -= gap;  // 2r - b
    } else {
      r += r;    // 2r < b
    }
    const bool v = bits.bit();
    if (v != digit) return digit;  // first difference: V < x iff x has the 1
    if (r == 0) return false;      // x's expansion has ended: V >= x
  }
}

// ---- CKS20 Algorithm 1, gamma = num/den in [0, 1] ------------------------------------------
// Returns a draw of Bernoulli(exp(-num/den)), starting the loop at K = k (1 for callers). Each
// Bernoulli(gamma / K) is drawn by bernoulli_ratio (2 bits expected).
// Law (CKS20 Prop. 5): P[K = k at exit] = gamma^(k-1)/(k-1)! - gamma^k/k!, so
// P[K odd] = sum_{j>=0} (-gamma)^j / j! = exp(-gamma).
template <class I>
bool bernoulli_exp_fraction(BitSource& bits, const I& num, const I& den, I k);

template <>
inline bool bernoulli_exp_fraction<mpz_class>(BitSource& bits, const mpz_class& num,
                                              const mpz_class& den, mpz_class k) {
  if (sgn(num) == 0) return true;  // exp(0) = 1: no bits drawn (same on both paths)
  mpz_class dk, r, gap;
  for (;; ++k) {
    dk = den * k;
    // A ~ Bernoulli(gamma / K) = Bernoulli(num / (den K)); CKS20 Alg. 1: if A = 0, break.
    if (!bernoulli_ratio(bits, num, dk, r, gap)) break;
  }
  return is_odd(k);
}

template <>
inline bool bernoulli_exp_fraction<uint128>(BitSource& bits, const uint128& num, const uint128& den,
                                            uint128 k) {
  if (num == 0) return true;
  for (;; ++k) {
    uint128 dk;
    if (__builtin_mul_overflow(den, k, &dk)) {
      // den * K needs more than 128 bits (huge den, or a K reached with vanishing probability):
      // continue on the GMP path from the same K and stream position, so the law and the
      // stream stay exactly those of the GMP path.
      return bernoulli_exp_fraction<mpz_class>(bits, to_mpz(num), to_mpz(den), to_mpz(k));
    }
    uint128 r, gap;
    if (!bernoulli_ratio(bits, num, dk, r, gap)) break;
  }
  return is_odd(k);
}

// The same on 64-bit integers (the bucket sampler's narrow path, bucket_gaussian.h): where
// den * K would need more than 64 bits, the 128-bit instantiation continues from the same K and
// stream position, so every instantiation reads the same bits and returns the same value.
template <>
inline bool bernoulli_exp_fraction<std::uint64_t>(BitSource& bits, const std::uint64_t& num,
                                                  const std::uint64_t& den, std::uint64_t k) {
  if (num == 0) return true;
  for (;; ++k) {
    std::uint64_t dk;
    if (__builtin_mul_overflow(den, k, &dk)) return bernoulli_exp_fraction<uint128>(bits, num, den, k);
    std::uint64_t r, gap;
    if (!bernoulli_ratio(bits, num, dk, r, gap)) break;
  }
  return (k & 1) != 0;
}

// Bernoulli(exp(-1)), drawn with machine integers on both paths (identical bits).
inline bool bernoulli_exp_minus_one(BitSource& bits) {
  return bernoulli_exp_fraction<uint128>(bits, 1, 1, 1);
}

// ---- CKS20 Algorithm 1, any gamma = num/den >= 0 -------------------------------------------
// floor(gamma) independent Bernoulli(exp(-1)) trials (stopping at the first 0), then one
// Bernoulli(exp(-(gamma - floor(gamma)))). Expected trials < 1/(1 - 1/e) + 1 whatever gamma is.
// floor(gamma) is found by subtraction as the trials run (rest = num - i den before trial i + 1),
// not by dividing first: the same trials read the same bits, and each costs a comparison and a
// subtraction instead of a division of numbers that can have ~10^5 digits
// (docs/BENCHMARK_HISTORY.md, "Samplers").
template <class I>
bool bernoulli_exp(BitSource& bits, const I& num, const I& den) {
  I rest = num;
  while (rest >= den) {
    if (!bernoulli_exp_minus_one(bits)) return false;
    rest -= den;
  }
  return bernoulli_exp_fraction<I>(bits, rest, den, I(1));
}

// ---- CKS20 Algorithm 2's geometric: Y = floor((U + t V) / s) with U uniform on {0..t-1}
// accepted with probability exp(-U/t) (redrawn otherwise) and V ~ Geometric(1 - e^-1), so
// X = U + t V ~ Geometric(1 - e^(-1/t)) and P[Y = y] proportional to exp(-y s / t) (t, s >= 1).
// Integers only; the one construction behind the discrete Laplace below and the exact tails of
// the table and bucket samplers.
template <class I>
I sample_geometric_exp(BitSource& bits, const I& t, const I& s) {
  I u, v;
  do {
    uniform_into(bits, t, u);                                 // U uniform on {0..t-1}
  } while (!bernoulli_exp_fraction<I>(bits, u, t, I(1)));     // D ~ Bern(exp(-U/t)); redraw if 0
  v = 0;                                                      // V ~ Geometric(1 - e^-1)
  while (bernoulli_exp_minus_one(bits)) ++v;                  // (V < 2^64: 2^64 loop turns cannot happen)
  I y = u + t * v;                                            // X = U + t V
  y /= s;                                                     // Y = floor(X / s) (non-negative)
  return y;
}

// ---- CKS20 Algorithm 2: discrete Laplace with scale t/s (t, s >= 1) ------------------------
// Returns |Y| and sets `negative`; P[Y = y] proportional to exp(-|y| s / t).
template <class I>
I sample_discrete_laplace_signed(BitSource& bits, const I& t, const I& s, bool& negative) {
  for (;;) {
    I y = sample_geometric_exp(bits, t, s);
    const bool b = bits.bit();                                // B ~ Bernoulli(1/2)
    if (b && y == 0) continue;                                // reject -0
    negative = b;
    return y;
  }
}

}  // namespace exactdp::internal
