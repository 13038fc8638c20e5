// reference_cks20.h — an independent, deliberately plain implementation of CKS20 Algorithms 1-3
// (Canonne, Kamath, Steinke 2020) on GMP integers only, used by the sampler fuzzers as a third
// path next to the library's fast (128-bit) and GMP instantiations of samplers/internal/cks20.h.
//
// It is written from the paper and from the stream conventions the library documents, not from
// the library's code:
//   * BitSource::bits is a plain bit stream (bit_source.h), so reading k bits as 32-bit chunks
//     here must read the same bits as the library's (k mod 64, then 64-bit) chunks;
//   * uniform below n: k = bitlength(n - 1) bits per attempt, accept if < n (uniform.h);
//   * Bernoulli(a/b): the lazy comparison of uniform bits with the binary expansion of a/b, with
//     the fraction as given (not reduced); a = 0 and a = b draw nothing (bernoulli.h, cks20.h);
//   * Bernoulli(exp(-gamma)), gamma = num/den: floor(gamma) Bernoulli(exp(-1)) trials stopping at
//     the first 0, then Alg. 1 on (num mod den)/den (bernoulli_exp.h);
//   * discrete Laplace with scale t/s: Alg. 2, the inner Bernoulli(exp(-U/t)) on U/t unreduced;
//   * discrete Gaussian: Alg. 3 with t = floor(sqrt(floor(sigma2))) + 1 and the acceptance
//     exponent (|Y| q t - p)^2 / (2 p q t^2) for sigma2 = p/q (discrete_gaussian.h).
// Agreement of value AND bits consumed with the library therefore checks both the law (the
// algorithm) and the documented stream contract.
#pragma once

#include <gmpxx.h>

#include <exactdp/samplers/bit_source.h>

namespace exactdp::fuzz::reference {

inline mpz_class read_bits(BitSource& bits, std::size_t k) {
  mpz_class v = 0;
  while (k > 0) {
    const unsigned chunk = k > 32 ? 32 : static_cast<unsigned>(k);
    v <<= chunk;
    v += static_cast<unsigned long>(bits.bits(chunk));
    k -= chunk;
  }
  return v;
}

inline mpz_class uniform_below(BitSource& bits, const mpz_class& n) {
  if (n == 1) return 0;
  const mpz_class m = n - 1;
  const std::size_t k = mpz_sizeinbase(m.get_mpz_t(), 2);
  for (;;) {
    mpz_class v = read_bits(bits, k);
    if (v < n) return v;
  }
}

// Bernoulli(a / b), 0 <= a <= b, b >= 1, fraction as given: B = [V < a/b] for a uniform real V
// in [0, 1) whose binary digits are drawn one by one and compared with those of a/b (2 a / b,
// 4 a / b, ... by doubling the remainder); the first differing digit decides; if a/b's expansion
// ends first, V >= a/b. a = 0 and a = b draw nothing.
inline bool bernoulli(BitSource& bits, const mpz_class& a, const mpz_class& b) {
  if (a == 0) return false;
  if (a == b) return true;
  mpz_class r = a;
  for (;;) {
    r *= 2;
    const bool digit = r >= b;
    if (digit) r -= b;
    const bool v = bits.bits(1) != 0;
    if (v != digit) return digit;
    if (r == 0) return false;
  }
}

// CKS20 Alg. 1 for gamma = num/den in [0, 1].
inline bool bernoulli_exp_unit(BitSource& bits, const mpz_class& num, const mpz_class& den) {
  if (num == 0) return true;
  mpz_class k = 1;
  while (bernoulli(bits, num, den * k)) ++k;  // A_k ~ Bernoulli(gamma / k); stop at the first 0
  return mpz_odd_p(k.get_mpz_t()) != 0;
}

// Bernoulli(exp(-num/den)) for num >= 0, den >= 1.
inline bool bernoulli_exp(BitSource& bits, const mpz_class& num, const mpz_class& den) {
  mpz_class whole, frac;
  mpz_fdiv_qr(whole.get_mpz_t(), frac.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
  for (mpz_class i = 0; i < whole; ++i) {
    if (!bernoulli_exp_unit(bits, 1, 1)) return false;
  }
  return bernoulli_exp_unit(bits, frac, den);
}

// CKS20 Alg. 2: Y with P[Y = y] proportional to exp(-|y| s / t); returns Y (signed).
inline mpz_class discrete_laplace(BitSource& bits, const mpz_class& t, const mpz_class& s) {
  for (;;) {
    const mpz_class u = uniform_below(bits, t);
    if (!bernoulli_exp_unit(bits, u, t)) continue;
    mpz_class v = 0;
    while (bernoulli_exp_unit(bits, 1, 1)) ++v;
    const mpz_class x = u + t * v;
    mpz_class y;
    mpz_fdiv_q(y.get_mpz_t(), x.get_mpz_t(), s.get_mpz_t());
    const bool negative = bits.bits(1) != 0;
    if (negative && y == 0) continue;
    return negative ? mpz_class(-y) : y;
  }
}

// CKS20 Alg. 3: X with P[X = x] proportional to exp(-x^2 / (2 sigma2)), sigma2 = p/q canonical.
inline mpz_class discrete_gaussian(BitSource& bits, const mpq_class& sigma2) {
  const mpz_class& p = sigma2.get_num();
  const mpz_class& q = sigma2.get_den();
  mpz_class floor_sigma2, t;
  mpz_fdiv_q(floor_sigma2.get_mpz_t(), p.get_mpz_t(), q.get_mpz_t());
  mpz_sqrt(t.get_mpz_t(), floor_sigma2.get_mpz_t());
  t += 1;
  const mpz_class den = 2 * p * q * t * t;
  for (;;) {
    const mpz_class y = discrete_laplace(bits, t, 1);
    const mpz_class a = abs(y) * q * t - p;
    if (bernoulli_exp(bits, a * a, den)) return y;
  }
}

}  // namespace exactdp::fuzz::reference
