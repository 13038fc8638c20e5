// uniform.h — exact uniform integers on {0, ..., n - 1}.
//
// Law: P[U = u] = 1/n for 0 <= u < n, exactly, given fair bits.
// Method: rejection. Let k = bit length of n - 1 (k = 0 when n = 1: no bits, U = 0). Draw k bits
// as an integer V (first bit most significant); return V if V < n, else draw again. Each attempt
// succeeds with probability n / 2^k > 1/2, so the expected number of attempts is < 2 and the
// expected bits consumed is < 2k; no attempt draws a bit it does not need (no byte rounding).
// Worst case: unbounded (probability of more than r attempts < 2^-r).
// Stream identity: the k bits of an attempt are drawn as a first chunk of (k mod 64, or 64) bits
// followed by 64-bit chunks. Because BitSource::bits is a plain bit stream, the 64-bit, 128-bit
// and GMP versions read exactly the same bits and return the same value for the same n.
// Timing: the number of attempts depends on the random bits only, never on the result; the
// duration of an attempt grows with k. Not thread-safe (the BitSource is not).
#pragma once

#include <gmpxx.h>

#include <cstdint>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>

namespace exactdp {

// Requires n >= 1 (n = 0 is a programming error: throws std::invalid_argument).
[[nodiscard]] std::uint64_t sample_uniform_below(BitSource& bits, std::uint64_t n);
[[nodiscard]] uint128 sample_uniform_below(BitSource& bits, uint128 n);
// GMP version; `out` may alias nothing else; reuses out's storage.
void sample_uniform_below(BitSource& bits, const mpz_class& n, mpz_class& out);
[[nodiscard]] mpz_class sample_uniform_below(BitSource& bits, const mpz_class& n);

}  // namespace exactdp
